package blob

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/klauspost/compress/s2"
)

// CompressedSuffix ends the keys of documents stored S2-compressed (the S2
// stream format, github.com/klauspost/compress/s2): an inbound set's Guide
// JSON and its fragments, about fourteen times the size of the X12 they
// come from and thirteen times smaller compressed (CompressDocuments says
// on which stores). The key says how its
// bytes are stored, so documents written before it (keys without it) read
// as they were, on every backend. Through a Store the suffix is invisible:
// Create and Put compress, Get decompresses, so a reader gets the document's
// bytes; only SignedURL differs, since an object store's presigned URL
// would serve the compressed bytes: it answers ErrNoSignedURLs and the
// server signs its own link, as for a directory.
const CompressedSuffix = ".s2"

// CompressDocuments reports whether large generated documents should be
// written to s under compressed keys: where s signs no URLs (a directory,
// memory), so the server serves every download through its own link and
// clients see the same bytes and the same links as before. An object
// store keeps its documents as they are, each served by a presigned URL
// (docs/decisions.md, "Files, executions and events"); it still reads
// compressed keys written elsewhere (a directory restored into a bucket).
func CompressDocuments(s Store) bool {
	_, err := s.SignedURL(context.Background(), "compress-probe", time.Minute)
	return errors.Is(err, ErrNoSignedURLs)
}

// compressedBlock is the S2 block size: as small as keeps the ratio of
// Guide JSON (13.4 at 256 KiB and at the default 1 MiB, 13.1 at 128 KiB, on
// a generated 835), so an encoder holds about 0.5 MiB.
const compressedBlock = 256 << 10

// IsCompressed reports whether key names a document stored compressed.
func IsCompressed(key string) bool { return strings.HasSuffix(key, CompressedSuffix) }

// encoders are S2 encoders between documents: a set of 1,000 claims makes a
// Guide JSON and two fragments, each compressed through one.
var encoders = sync.Pool{New: func() any {
	return s2.NewWriter(nil, s2.WriterConcurrency(1), s2.WriterBlockSize(compressedBlock))
}}

// compressWriter compresses a streamed write into w. With one goroutine
// (WriterConcurrency(1)) the encoder compresses on the caller's goroutine,
// a block at a time, and keeps no goroutine of its own.
type compressWriter struct {
	w        Writer
	z        *s2.Writer
	key      string
	finished bool // Finish wrote the stream's end; Commit commits
}

func newCompressWriter(w Writer, key string) *compressWriter {
	z := encoders.Get().(*s2.Writer)
	z.Reset(w)
	return &compressWriter{w: w, z: z, key: key}
}

func (c *compressWriter) Write(p []byte) (int, error) {
	if c.z == nil {
		return 0, fmt.Errorf("blob: put %s: already finished", c.key)
	}
	return c.z.Write(p)
}

// Finish writes the last block and the stream's end and gives the encoder
// back (blob.Finisher); Commit then commits what was written.
func (c *compressWriter) Finish() error {
	if c.z == nil {
		return fmt.Errorf("blob: put %s: already finished", c.key)
	}
	err := c.z.Close()
	c.release()
	if err == nil {
		err = Finish(c.w)
	}
	if err != nil {
		c.w.Abort()
		c.finished = false
		return fmt.Errorf("blob: put %s: %w", c.key, err)
	}
	c.finished = true
	return nil
}

// Commit writes the last block and the stream's end, unless Finish did,
// then commits.
func (c *compressWriter) Commit() error {
	if !c.finished {
		if err := c.Finish(); err != nil {
			return err
		}
	}
	c.finished = false
	return c.w.Commit()
}

func (c *compressWriter) Abort() {
	if c.z != nil {
		c.release()
	}
	c.w.Abort()
}

// release returns the encoder to the pool, no longer pointing at w.
func (c *compressWriter) release() {
	c.z.Reset(nil)
	encoders.Put(c.z)
	c.z = nil
}

// decompressReader reads a compressed document's bytes.
type decompressReader struct {
	*s2.Reader
	rc io.ReadCloser
}

func newDecompressReader(rc io.ReadCloser) io.ReadCloser {
	// Blocks up to S2's 4 MiB still read (a later block size); the first
	// buffer is the size this package writes.
	return &decompressReader{Reader: s2.NewReader(rc, s2.ReaderAllocBlock(compressedBlock)), rc: rc}
}

func (d *decompressReader) Close() error { return d.rc.Close() }

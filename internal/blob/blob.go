// Package blob keeps file contents (uploaded and generated X12 files) behind
// one small interface. The database holds the metadata; this holds the
// bytes. Backends are picked by URL through gocloud.dev/blob: a directory
// (the data directory by default), an S3-compatible bucket, or memory for
// tests. Only those three drivers are linked in.
package blob

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gocloud.dev/blob"
	"gocloud.dev/blob/fileblob"
	_ "gocloud.dev/blob/memblob" // mem://
	_ "gocloud.dev/blob/s3blob"  // s3://bucket?endpoint=…&use_path_style=true
	"gocloud.dev/gcerrors"
)

// ErrNotFound: no content under that key.
var ErrNotFound = errors.New("blob: not found")

// ErrNoSignedURLs: the backend cannot presign URLs.
var ErrNoSignedURLs = errors.New("blob: backend cannot sign URLs")

// Writer is a streamed write opened by Store.Create.
type Writer interface {
	io.Writer
	// Commit makes the written content visible under the key.
	Commit() error
	// Abort discards what was written; it is a no-op after Commit.
	Abort()
}

// Finisher is a Writer that can write out what it still buffers (the last
// compressed block, an aligned direct buffer) before Commit, so that Commit
// holds no buffers and is left the durability alone (fsync, rename): a
// caller can then keep many commits waiting for the disk at little memory.
// After Finish only Commit or Abort may follow; a failed Finish aborts.
type Finisher interface {
	Writer
	Finish() error
}

// Finish calls w's Finish if it has one.
func Finish(w Writer) error {
	if f, ok := w.(Finisher); ok {
		return f.Finish()
	}
	return nil
}

// Store holds file contents by key. Keys are slash-separated paths made by
// the caller from record ids (e.g. "executions/<id>/input"); never from
// user input.
type Store interface {
	// Put stores all of r under key; on error nothing is stored.
	Put(ctx context.Context, key string, r io.Reader, contentType string) error
	// Create opens key for a streamed write: nothing is visible until
	// Commit, and Abort (or a failed Commit) leaves the key as it was.
	Create(ctx context.Context, key, contentType string) (Writer, error)
	// SignedURL returns a URL that fetches key without credentials until
	// ttl has passed, or ErrNoSignedURLs when the backend cannot make one
	// (a directory or memory: the server signs its own links then).
	SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error)
	// Get opens the content; the caller closes it. ErrNotFound if absent.
	Get(ctx context.Context, key string) (io.ReadCloser, error)
	Exists(ctx context.Context, key string) (bool, error)
	// Delete removes the content; deleting a missing key is not an error.
	Delete(ctx context.Context, key string) error
	Close() error
}

// DefaultDir is where file contents live inside the data directory.
const DefaultDir = "blobs"

// Open opens the store at url, or with an empty url the directory
// DefaultDir inside dataDir (created if missing). Accepted URLs:
// file:///abs/dir, s3://bucket?region=…&endpoint=…&use_path_style=true,
// mem://.
func Open(ctx context.Context, url, dataDir string) (Store, error) {
	if url == "" {
		dir, err := filepath.Abs(filepath.Join(dataDir, DefaultDir))
		if err != nil {
			return nil, err
		}
		if err := ensureDir(dir); err != nil {
			return nil, fmt.Errorf("blob: open %s: %w", dir, err)
		}
		b, err := fileblob.OpenBucket(dir, &fileblob.Options{CreateDir: true, DirFileMode: 0o700, NoTempDir: true})
		if err != nil {
			return nil, fmt.Errorf("blob: open %s: %w", dir, err)
		}
		return bucket{b: b, dir: dir}, nil
	}
	fileDir := ""
	if strings.HasPrefix(url, "file://") {
		// Create the directory first so a fresh machine needs no setup.
		if dir := strings.SplitN(strings.TrimPrefix(url, "file://"), "?", 2)[0]; dir != "" {
			if err := ensureDir(dir); err != nil {
				return nil, fmt.Errorf("blob: %w", err)
			}
			if !strings.Contains(url, "?") {
				fileDir = dir
			}
		}
	}
	b, err := blob.OpenBucket(ctx, url)
	if err != nil {
		return nil, fmt.Errorf("blob: open %s: %w", url, err)
	}
	return bucket{b: b, dir: fileDir}, nil
}

// bucket is a gocloud bucket; dir is set for a plain directory, where
// streamed writes go straight to a temporary file renamed on Commit
// (fileblob would also hash every byte with MD5 for an attribute we never
// read: a third of the CPU of processing a large file).
type bucket struct {
	b   *blob.Bucket
	dir string
}

func (k bucket) Put(ctx context.Context, key string, r io.Reader, contentType string) error {
	w, err := k.Create(ctx, key, contentType)
	if err != nil {
		return err
	}
	if _, err := io.Copy(w, r); err != nil {
		w.Abort()
		return fmt.Errorf("blob: put %s: %w", key, err)
	}
	return w.Commit()
}

func (k bucket) Create(ctx context.Context, key, contentType string) (Writer, error) {
	w, err := k.create(ctx, key, contentType)
	if err != nil || !IsCompressed(key) {
		return w, err
	}
	return newCompressWriter(w, key), nil
}

func (k bucket) create(ctx context.Context, key, contentType string) (Writer, error) {
	if k.dir != "" && plainKey(key) {
		return createFile(filepath.Join(k.dir, filepath.FromSlash(key)))
	}
	// Cancelling the writer's context before Close discards the write.
	ctx, cancel := context.WithCancel(ctx)
	w, err := k.b.NewWriter(ctx, key, &blob.WriterOptions{ContentType: contentType})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("blob: put %s: %w", key, err)
	}
	return &writer{w: w, cancel: cancel, key: key}, nil
}

type writer struct {
	w      *blob.Writer
	cancel context.CancelFunc
	key    string
	done   bool
}

func (w *writer) Write(p []byte) (int, error) { return w.w.Write(p) }

func (w *writer) Commit() error {
	if w.done {
		return fmt.Errorf("blob: put %s: already finished", w.key)
	}
	w.done = true
	defer w.cancel()
	if err := w.w.Close(); err != nil {
		return fmt.Errorf("blob: put %s: %w", w.key, err)
	}
	return nil
}

func (w *writer) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.cancel()
	_ = w.w.Close() // reports the cancellation; nothing is stored
}

func (k bucket) SignedURL(ctx context.Context, key string, ttl time.Duration) (string, error) {
	if IsCompressed(key) {
		return "", ErrNoSignedURLs // the object's bytes are not the document's
	}
	u, err := k.b.SignedURL(ctx, key, &blob.SignedURLOptions{Expiry: ttl, Method: "GET"})
	if gcerrors.Code(err) == gcerrors.Unimplemented {
		return "", ErrNoSignedURLs
	}
	if err != nil {
		return "", fmt.Errorf("blob: sign %s: %w", key, err)
	}
	return u, nil
}

func (k bucket) Get(ctx context.Context, key string) (io.ReadCloser, error) {
	r, err := k.b.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return nil, ErrNotFound
	}
	if err != nil {
		return nil, fmt.Errorf("blob: get %s: %w", key, err)
	}
	if IsCompressed(key) {
		return newDecompressReader(r), nil
	}
	return r, nil
}

func (k bucket) Exists(ctx context.Context, key string) (bool, error) {
	return k.b.Exists(ctx, key)
}

func (k bucket) Delete(ctx context.Context, key string) error {
	err := k.b.Delete(ctx, key)
	if err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		return fmt.Errorf("blob: delete %s: %w", key, err)
	}
	return nil
}

func (k bucket) Close() error { return k.b.Close() }

// plainKey reports whether key maps to the same file name in fileblob
// (which escapes other characters).
func plainKey(key string) bool {
	if key == "" || strings.HasPrefix(key, "/") || strings.Contains(key, "..") || strings.Contains(key, "//") {
		return false
	}
	for _, c := range key {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-", c)) {
			return false
		}
	}
	return true
}

// fileWriter writes a temporary file beside the target and renames it into
// place on Commit.
type fileWriter struct {
	f      *os.File
	target string
	done   bool
	// written and flushed: bytes written, and how many of them were handed
	// to the disk early (startWriteback).
	written, flushed int64
	// direct is the aligned buffer of a blob written past the page cache
	// (direct.go), dn bytes of it not yet written; noDirect: the file
	// system refused; wroteDirect: a direct write succeeded.
	direct                *[]byte
	dn                    int
	noDirect, wroteDirect bool
	// newDirs are the directories made for the file whose names Commit
	// makes durable (makeDir); finished: Finish wrote everything out.
	newDirs  []string
	finished bool
}

func createFile(target string) (Writer, error) {
	newDirs, err := makeDir(filepath.Dir(target))
	if err != nil {
		return nil, fmt.Errorf("blob: put %s: %w", target, err)
	}
	f, err := os.CreateTemp(filepath.Dir(target), ".tmp-*")
	if err != nil {
		return nil, fmt.Errorf("blob: put %s: %w", target, err)
	}
	return &fileWriter{f: f, target: target, newDirs: newDirs}, nil
}

// writebackChunk is how much of a large blob is written before the kernel
// is asked to start writing it to the disk.
const writebackChunk = 8 << 20

func (w *fileWriter) Write(p []byte) (int, error) {
	if w.direct != nil {
		return w.writeDirect(p)
	}
	if !w.noDirect && w.written+int64(len(p)) > directAfter {
		// Up to an aligned offset through the page cache, the rest direct.
		pad := int((directAlign - w.written%directAlign) % directAlign)
		if pad <= len(p) {
			n, err := w.writeBuffered(p[:pad])
			if err != nil {
				return n, err
			}
			var m int
			if w.startDirect() {
				m, err = w.writeDirect(p[pad:])
			} else {
				m, err = w.writeBuffered(p[pad:])
			}
			return n + m, err
		}
	}
	return w.writeBuffered(p)
}

// writeBuffered writes p through the page cache.
func (w *fileWriter) writeBuffered(p []byte) (int, error) {
	n, err := w.f.Write(p)
	w.written += int64(n)
	if w.written-w.flushed >= writebackChunk {
		// A large blob (an inbound set's Guide JSON: hundreds of MB) would
		// otherwise sit in the page cache until Commit's fsync, which then
		// waits for all of it while the CPU has nothing to do. Started as
		// it is written, the disk works beside the parsing and encoding,
		// and the fsync finds little left.
		startWriteback(w.f, w.flushed, w.written-w.flushed)
		w.flushed = w.written
	}
	return n, err
}

// Finish writes out the last direct block and gives its buffer back;
// Commit is then left only the fsyncs and the rename.
func (w *fileWriter) Finish() error {
	if w.done || w.finished {
		return fmt.Errorf("blob: put %s: already finished", w.target)
	}
	w.finished = true
	if w.direct != nil {
		if err := w.flushDirect(true); err != nil {
			w.Abort()
			return fmt.Errorf("blob: put %s: %w", w.target, err)
		}
	}
	return nil
}

func (w *fileWriter) Commit() error {
	if w.done {
		return fmt.Errorf("blob: put %s: already finished", w.target)
	}
	w.done = true
	var err error
	if w.direct != nil {
		err = w.flushDirect(true)
	}
	// The bytes reach the disk before the rename names them, and the
	// rename before Commit returns (see sync.go).
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		os.Remove(w.target + ".attrs") // attributes of an earlier version
		err = os.Rename(w.f.Name(), w.target)
	}
	if err != nil {
		os.Remove(w.f.Name())
		return fmt.Errorf("blob: put %s: %w", w.target, err)
	}
	if err := syncDir(filepath.Dir(w.target)); err != nil {
		return fmt.Errorf("blob: put %s: sync its directory: %w", w.target, err)
	}
	if err := syncParents(w.newDirs); err != nil {
		return fmt.Errorf("blob: put %s: sync its directory's parents: %w", w.target, err)
	}
	return nil
}

func (w *fileWriter) Abort() {
	if w.done {
		return
	}
	w.done = true
	w.releaseDirect()
	w.f.Close()
	os.Remove(w.f.Name())
}

// PutNew stores data under a key that nothing has used or refers to yet
// (one made from a fresh record id), for a caller that records the key only
// once PutNew has returned: until then no reader can look for it, so the
// content needs no invisible temporary copy. On the default directory
// that is one exclusive create, one write and one close in a directory
// made once, instead of a temporary file renamed into place in a directory
// of its own (a quarter of a dental claim's CPU was those file-system
// calls); there it fails, rather than overwrite, when the key exists.
// Other backends use Put.
//
// PutNew returns once the bytes and the file's name are on stable storage
// (see sync.go), so the record that names the key may commit after it.
//
// A process killed during PutNew can leave a partial file under the key;
// nothing refers to it, as with any write whose record never committed.
func PutNew(ctx context.Context, s Store, key string, data []byte, contentType string) error {
	if k, ok := unwrap(s).(bucket); ok && k.dir != "" && plainKey(key) && !IsCompressed(key) {
		return putNewFile(filepath.Join(k.dir, filepath.FromSlash(key)), data)
	}
	return s.Put(ctx, key, bytes.NewReader(data), contentType)
}

func putNewFile(path string, data []byte) error {
	dir := filepath.Dir(path)
	if err := ensureDir(dir); err != nil {
		return fmt.Errorf("blob: put %s: %w", path, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("blob: put %s: %w", path, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = syncDir(dir)
	}
	if err != nil {
		os.Remove(path)
		return fmt.Errorf("blob: put %s: %w", path, err)
	}
	return nil
}

package blob_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
)

// s2Magic starts every S2 stream (its stream identifier chunk).
const s2Magic = "\xff\x06\x00\x00S2sTwO"

// guideJSON is a document shaped like Guide JSON: repetitive keys, varying
// values, n claims long.
func guideJSON(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"heading":{"transaction_set_header_ST":{"transaction_set_identifier_code_01":"835"}},"detail":[`)
	for i := range n {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"claim_payment_information_CLP":{"patient_control_number_01":"PCN%07d","claim_status_code_02":"1","total_claim_charge_amount_03":"%d.%02d"}}`, i, i%9973, i%100)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// TestCompressedKeys: a key ending in CompressedSuffix reads back the bytes
// written, on every backend and through every way of writing, while the
// stored object is the smaller S2 stream; keys without it (every document
// written before compression) are stored and read as they are; an
// object store signs no URL for a compressed key (its object is not the
// document), so the server serves its own link.
func TestCompressedKeys(t *testing.T) {
	data := t.TempDir()
	stores := []struct {
		name string
		s    blob.Store
		dir  string // where the default directory keeps its files
		s3   bool
	}{
		{"default", open(t, "", data), filepath.Join(data, blob.DefaultDir), false},
		{"mem", open(t, "mem://", ""), "", false},
		{"s3", open(t, fakeS3(t), ""), "", true},
	}
	for _, st := range stores {
		t.Run(st.name, func(t *testing.T) { checkCompressed(t, st.s, st.dir, st.s3) })
	}
}

// checkCompressed writes, reads, signs, aborts and deletes compressed
// documents in s; dir is the default directory's files ("" for another
// backend), s3 says s signs URLs of plain keys.
func checkCompressed(t *testing.T, s blob.Store, dir string, s3 bool) {
	t.Helper()
	docs := []struct {
		name string
		doc  []byte
	}{
		{"empty", nil},
		{"small", guideJSON(3)},
		// Past the file store's O_DIRECT threshold (512 KiB) even compressed,
		// and many S2 blocks long.
		{"large", guideJSON(200000)},
	}
	ctx := context.Background()
	for _, d := range docs {
		t.Run(d.name, func(t *testing.T) {
			plain := "transactions/" + d.name + "/output.json"
			key := plain + blob.CompressedSuffix
			w, err := s.Create(ctx, key, "application/json")
			if err != nil {
				t.Fatal(err)
			}
			for rest := d.doc; len(rest) > 0; {
				n := min(len(rest), 100<<10+7) // writes of odd sizes across blocks
				if _, err := w.Write(rest[:n]); err != nil {
					t.Fatal(err)
				}
				rest = rest[n:]
			}
			if ok, _ := s.Exists(ctx, key); ok {
				t.Error("visible before Commit")
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			if err := w.Commit(); err == nil {
				t.Error("a second Commit succeeded")
			}
			if got := read(t, s, key); got != string(d.doc) {
				t.Errorf("read %d bytes back, want %d", len(got), len(d.doc))
			}
			if dir != "" {
				raw, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(key)))
				if err != nil {
					t.Fatal(err)
				}
				// An empty document is an empty object: S2 writes its
				// stream header with the first bytes.
				if len(d.doc) > 0 && !bytes.HasPrefix(raw, []byte(s2Magic)) {
					t.Errorf("stored object starts %q, not an S2 stream", raw[:min(len(raw), 10)])
				}
				if len(d.doc) > 1<<20 && len(raw)*5 > len(d.doc) {
					t.Errorf("stored %d bytes for a %d-byte document", len(raw), len(d.doc))
				}
			}

			// Put compresses too; the key without the suffix holds the
			// document as it is, and each reads back its own bytes.
			if err := s.Put(ctx, key, bytes.NewReader(d.doc), "application/json"); err != nil {
				t.Fatal(err)
			}
			if err := s.Put(ctx, plain, bytes.NewReader(d.doc), "application/json"); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{key, plain} {
				if got := read(t, s, k); got != string(d.doc) {
					t.Errorf("%s: read %d bytes back, want %d", k, len(got), len(d.doc))
				}
			}
			if dir != "" {
				raw, _ := os.ReadFile(filepath.Join(dir, filepath.FromSlash(plain)))
				if !bytes.Equal(raw, d.doc) {
					t.Errorf("the key without the suffix is not stored as written")
				}
			}

			_, err = s.SignedURL(ctx, key, time.Minute)
			if !errors.Is(err, blob.ErrNoSignedURLs) {
				t.Errorf("SignedURL(%s) = %v, want ErrNoSignedURLs", key, err)
			}
			if _, err := s.SignedURL(ctx, plain, time.Minute); s3 && err != nil {
				t.Errorf("SignedURL(%s) = %v on S3", plain, err)
			}

			// An aborted write leaves the key as it was.
			w, err = s.Create(ctx, key, "application/json")
			if err != nil {
				t.Fatal(err)
			}
			w.Write([]byte(`{"partial":`))
			w.Abort()
			w.Abort()
			if got := read(t, s, key); got != string(d.doc) {
				t.Errorf("after an abort: read %d bytes, want %d", len(got), len(d.doc))
			}
			if err := s.Delete(ctx, key); err != nil {
				t.Fatal(err)
			}
			if _, err := s.Get(ctx, key); !errors.Is(err, blob.ErrNotFound) {
				t.Errorf("after Delete: %v, want ErrNotFound", err)
			}
		})
	}
}

// TestPutNewCompressed: PutNew of a compressed key stores the S2 stream
// (it does not take the plain file path that writes the bytes as given).
func TestPutNewCompressed(t *testing.T) {
	data := t.TempDir()
	s := open(t, "", data)
	doc := guideJSON(1000)
	key := "transactions/t/output.json" + blob.CompressedSuffix
	if err := blob.PutNew(context.Background(), s, key, doc, "application/json"); err != nil {
		t.Fatal(err)
	}
	if got := read(t, s, key); got != string(doc) {
		t.Errorf("read %d bytes back, want %d", len(got), len(doc))
	}
	raw, err := os.ReadFile(filepath.Join(data, blob.DefaultDir, filepath.FromSlash(key)))
	if err != nil || !bytes.HasPrefix(raw, []byte(s2Magic)) {
		t.Errorf("stored %d bytes (%v), not an S2 stream", len(raw), err)
	}
}

// TestCompressedReadsWhatIsStored: a corrupt compressed object is an error
// when read, not other bytes.
func TestCompressedReadsWhatIsStored(t *testing.T) {
	data := t.TempDir()
	s := open(t, "", data)
	key := "transactions/t/output.json" + blob.CompressedSuffix
	if err := s.Put(context.Background(), key, bytes.NewReader(guideJSON(1000)), "application/json"); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(data, blob.DefaultDir, filepath.FromSlash(key))
	raw, _ := os.ReadFile(path)
	raw[len(raw)/2] ^= 0xff
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	if _, err := io.ReadAll(r); err == nil {
		t.Error("a corrupt object read without an error")
	}
}

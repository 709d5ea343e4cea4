package blob

import (
	"bytes"
	"context"
	"math/rand/v2"
	"path/filepath"
	"runtime"
	"testing"
)

// TestLargeBlobsWrittenDirect writes blobs around the sizes where a blob
// goes past the page cache (directAfter, whole buffers, a tail shorter
// than a block), in writes of odd sizes, and reads back the same bytes.
func TestLargeBlobsWrittenDirect(t *testing.T) {
	ctx := context.Background()
	s := openTempDir(t)
	for _, tc := range []struct {
		name        string
		size, chunk int
	}{
		{"empty", 0, 1000},
		{"under the threshold", directAfter - 1, 4096},
		{"the threshold", directAfter, 256 << 10},
		{"one byte over", directAfter + 1, 7},
		{"unaligned writes across buffers", 3*directSize + 12345, 100003},
		{"one write", 2*directSize + directAlign, 2*directSize + directAlign},
		{"large aligned writes", 5 * directSize, 256 << 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := make([]byte, tc.size)
			r := rand.New(rand.NewPCG(uint64(tc.size), 7))
			for i := range want {
				want[i] = byte(r.IntN(256))
			}
			key := "big/" + filepath.Base(t.Name())
			w, err := s.Create(ctx, key, "application/json")
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off < len(want); off += tc.chunk {
				n, err := w.Write(want[off:min(off+tc.chunk, len(want))])
				if err != nil || n != min(tc.chunk, len(want)-off) {
					t.Fatalf("write at %d: %d, %v", off, n, err)
				}
			}
			// Past a whole buffer beyond the threshold, the blob went direct
			// (unless this file system refuses O_DIRECT).
			if fw, ok := w.(*fileWriter); ok && runtime.GOOS == "linux" && tc.size >= directAfter+2*directSize &&
				!fw.wroteDirect && !fw.noDirect {
				t.Errorf("%d bytes written without O_DIRECT", tc.size)
			}
			if err := w.Commit(); err != nil {
				t.Fatal(err)
			}
			if got := readBack(t, s, key); !bytes.Equal(got, want) {
				t.Fatalf("read back %d bytes, want %d", len(got), len(want))
			}
		})
	}
}

// TestLargeBlobAborted leaves no file and returns its buffer.
func TestLargeBlobAborted(t *testing.T) {
	ctx := context.Background()
	s := openTempDir(t)
	w, err := s.Create(ctx, "big/aborted", "application/json")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Write(make([]byte, 2*directSize+5)); err != nil {
		t.Fatal(err)
	}
	w.Abort()
	if ok, err := s.Exists(ctx, "big/aborted"); ok || err != nil {
		t.Fatalf("aborted blob exists: %v %v", ok, err)
	}
}

// openTempDir opens a directory store in a fresh temporary directory.
func openTempDir(t *testing.T) Store {
	t.Helper()
	s, err := Open(context.Background(), "file://"+filepath.Join(t.TempDir(), "blobs"), "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

package blob

import (
	"bytes"
	"context"
	"io"
	"path/filepath"
	"testing"
)

// TestFinishThenCommit: a streamed write finished before its commit (the
// last compressed block and the direct buffer written out, buffers given
// back) commits the same bytes; one finished then aborted leaves nothing;
// a second commit fails.
func TestFinishThenCommit(t *testing.T) {
	ctx := context.Background()
	s := openTempDir(t)
	for _, tc := range []struct {
		name, key string
		size      int
	}{
		{"small", "docs/small.json", 1000},
		{"past the direct threshold", "docs/large.json", 2*directSize + 12345},
		{"compressed", "docs/small.json" + CompressedSuffix, 1000},
		{"compressed past a block", "docs/large.json" + CompressedSuffix, 3*compressedBlock + 17},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := bytes.Repeat([]byte(`{"key":"value","n":12345}`), tc.size/25+1)[:tc.size]
			for _, abort := range []bool{false, true} {
				w, err := s.Create(ctx, tc.key, "application/json")
				if err != nil {
					t.Fatal(err)
				}
				if _, err := w.Write(want); err != nil {
					t.Fatal(err)
				}
				if err := Finish(w); err != nil {
					t.Fatal(err)
				}
				if fw, ok := w.(*fileWriter); ok && fw.direct != nil {
					t.Error("Finish kept the direct buffer")
				}
				if cw, ok := w.(*compressWriter); ok && cw.z != nil {
					t.Error("Finish kept the encoder")
				}
				if abort {
					w.Abort()
					if ok, err := s.Exists(ctx, tc.key); ok || err != nil {
						t.Fatalf("finished and aborted, the key exists: %v %v", ok, err)
					}
					continue
				}
				if err := w.Commit(); err != nil {
					t.Fatal(err)
				}
				if err := w.Commit(); err == nil {
					t.Error("a second Commit succeeded")
				}
				if got := readBack(t, s, tc.key); !bytes.Equal(got, want) {
					t.Fatalf("read back %d bytes, want %d", len(got), len(want))
				}
				must(t, s.Delete(ctx, tc.key))
			}
		})
	}
}

// TestNewDirectoriesMadeDurableByCommit: the directories a streamed write
// makes for its key are named durably in their parents by its Commit, not
// at Create (whose caller, the blob writer of an inbound file, would wait
// for those fsyncs instead of writing), and Commit returns only after.
func TestNewDirectoriesMadeDurableByCommit(t *testing.T) {
	ctx := context.Background()
	s := openTempDir(t)
	root := unwrap(s).(bucket).dir
	dirs := []string{filepath.Join(root, "transactions"), filepath.Join(root, "transactions", "t1"),
		filepath.Join(root, "transactions", "t1", "fragments")}
	w, err := s.Create(ctx, "transactions/t1/fragments/0.json"+CompressedSuffix, "application/json")
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if isDurableDir(d) {
			t.Errorf("Create synced %s into its parent: the writer waited for it", d)
		}
	}
	if _, err := w.Write([]byte(`{"a":1}`)); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	for _, d := range dirs {
		if !isDurableDir(d) {
			t.Errorf("Commit returned before %s was named durably in its parent", d)
		}
	}
}

// readBack is what s holds under key.
func readBack(t *testing.T, s Store, key string) []byte {
	t.Helper()
	rc, err := s.Get(context.Background(), key)
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	got, err := io.ReadAll(rc)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

package blob

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
)

// TestBatchDurableAtSync: blobs a Batch commits on the directory store are
// readable under their keys at once, and their new directories are named
// durably in their parents only by Sync (Commit waits for no fsync), across
// more blobs than one background group holds; writers of other stores
// commit as before (durable when Commit returns).
func TestBatchDurableAtSync(t *testing.T) {
	ctx := context.Background()
	s := openTempDir(t)
	root := unwrap(s).(bucket).dir
	b := NewBatch()
	const n = batchFiles + 5
	for i := range n {
		suffix := ""
		if i%2 == 1 {
			suffix = CompressedSuffix
		}
		key := fmt.Sprintf("transactions/t%d/fragments/0.json%s", i, suffix)
		w, err := s.Create(ctx, key, "application/json")
		if err != nil {
			t.Fatal(err)
		}
		if !Defers(w) {
			t.Fatalf("%s: the batch would commit it itself", key)
		}
		if _, err := fmt.Fprintf(w, `{"n":%d}`, i); err != nil {
			t.Fatal(err)
		}
		if err := b.Commit(w); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err == nil {
			t.Fatal("a blob the batch committed committed again")
		}
		if got := string(readBack(t, s, key)); got != fmt.Sprintf(`{"n":%d}`, i) {
			t.Fatalf("%s reads %q before Sync", key, got)
		}
	}
	last := filepath.Join(root, "transactions", fmt.Sprintf("t%d", n-1))
	if isDurableDir(last) {
		t.Errorf("%s was synced into its parent before Sync", last)
	}
	if err := b.Sync(); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		for _, d := range []string{fmt.Sprintf("t%d", i), fmt.Sprintf("t%d/fragments", i)} {
			if dir := filepath.Join(root, "transactions", filepath.FromSlash(d)); !isDurableDir(dir) {
				t.Errorf("Sync returned before %s was named durably in its parent", dir)
			}
		}
	}
	if err := b.Sync(); err != nil {
		t.Errorf("a second Sync: %v", err)
	}

	mem, err := Open(ctx, "mem://", "")
	if err != nil {
		t.Fatal(err)
	}
	defer mem.Close()
	w, err := mem.Create(ctx, "k", "text/plain")
	if err != nil {
		t.Fatal(err)
	}
	if Defers(w) {
		t.Error("a memory store's writer is left to Sync")
	}
	w.Write([]byte("x"))
	if err := b.Commit(w); err != nil {
		t.Fatal(err)
	}
	if got := string(readBack(t, mem, "k")); got != "x" {
		t.Errorf("memory store reads %q", got)
	}
}

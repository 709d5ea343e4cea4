package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// TestControlNumbersSurviveReopen: numbers handed out before the database
// is closed are never handed out again after it is reopened (a restart of
// the process, not just of the allocator).
func TestControlNumbersSurviveReopen(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), store.SQLiteFile)
	var last int64
	for run := range 3 {
		st, err := store.OpenSQLite(ctx, path)
		if err != nil {
			t.Fatal(err)
		}
		blocks := store.NewControlNumberBlocks(st, "isa13", 10)
		for range 15 { // one and a half blocks
			n, err := blocks.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if n <= last {
				t.Fatalf("run %d: got %d after %d", run, n, last)
			}
			last = n
		}
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// Each run reserved two blocks of 10 and used 15: numbers 1–15, 21–35, 41–55.
	if last != 55 {
		t.Errorf("last number %d, want 55", last)
	}
}

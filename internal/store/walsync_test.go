package store

import (
	"context"
	"errors"
	"os"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// blockSync makes s's WAL fsyncs wait until gate is closed, and counts
// them.
func blockSync(s *sqlStore) (gate chan struct{}, count *atomic.Int64) {
	gate, count = make(chan struct{}), new(atomic.Int64)
	real := s.wal.sync
	s.wal.sync = func() error {
		count.Add(1)
		<-gate
		return real()
	}
	return gate, count
}

// TestCommitAnsweredOnlyAfterFsync: a transaction returns only once an
// fsync of the WAL that began after its commit has returned, and a read
// that sees the commit returns only then too (SQLite shows the frames to
// readers as soon as COMMIT writes them).
func TestCommitAnsweredOnlyAfterFsync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	release, count := blockSync(s)
	created := make(chan error, 1)
	go func() { created <- s.CreateAccount(ctx, Account{ID: "a1", Name: "Acme", CreatedAt: time.Now()}) }()
	for count.Load() == 0 { // the commit has returned and its fsync began
		time.Sleep(time.Millisecond)
	}
	read := make(chan error, 1)
	go func() {
		_, err := s.GetAccount(ctx, "a1")
		read <- err
	}()
	select {
	case err := <-created:
		t.Fatalf("CreateAccount returned (%v) before its fsync did", err)
	case err := <-read:
		t.Fatalf("a read returned (%v) the committed account before its fsync did", err)
	case <-time.After(200 * time.Millisecond):
	}
	close(release)
	if err := <-created; err != nil {
		t.Fatal(err)
	}
	if err := <-read; err != nil {
		t.Fatalf("read after the fsync: %v", err)
	}
	// A read with nothing in flight does not sync.
	before := count.Load()
	if _, err := s.GetAccount(ctx, "a1"); err != nil {
		t.Fatal(err)
	}
	if n := count.Load(); n != before {
		t.Errorf("a read with every commit durable ran %d fsyncs", n-before)
	}
}

// TestFailedFsyncFailsLaterCommits: after an fsync of the WAL fails, what
// is on disk is unknown, so no later commit is answered as durable.
func TestFailedFsyncFailsLaterCommits(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	boom := errors.New("EIO")
	s.wal.sync = func() error { return boom }
	if err := s.CreateAccount(ctx, Account{ID: "a1", Name: "Acme", CreatedAt: time.Now()}); !errors.Is(err, boom) {
		t.Fatalf("commit with a failed fsync: %v, want %v", err, boom)
	}
	s.wal.sync = s.wal.fsync
	if err := s.CreateAccount(ctx, Account{ID: "a2", Name: "Beta", CreatedAt: time.Now()}); !errors.Is(err, boom) {
		t.Fatalf("commit after a failed fsync: %v, want %v", err, boom)
	}
}

// TestWALStartsOverUnderConstantWrites: with checkpoints beside the writer
// (checkpointer) the log must still start over while writes never pause,
// or the WAL file grows without bound. Two writers insert ~40 MB of rows
// back to back; the WAL stays near walCheckpointPages pages.
func TestWALStartsOverUnderConstantWrites(t *testing.T) {
	ctx := context.Background()
	s := openTestSQLite(t)
	if err := s.CreateAccount(ctx, Account{ID: "a1", Name: "Acme", CreatedAt: time.Now()}); err != nil {
		t.Fatal(err)
	}
	content := make([]byte, 16<<10) // four pages a row
	for i := range content {
		content[i] = 'a' + byte(i%26)
	}
	const rows = 2500
	errs := make(chan error, 2)
	for w := range 2 {
		go func() {
			for i := range rows / 2 {
				key := "k-" + strconv.Itoa(w) + "-" + strconv.Itoa(i)
				if err := s.GroupInTx(ctx, func(tx Queries) error {
					return tx.PutInlineBlob(ctx, "a1", ModeTest, key, content, time.Now())
				}); err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	fi, err := os.Stat(s.wal.path)
	if err != nil {
		t.Fatal(err)
	}
	written := int64(rows * len(content))
	if limit := int64(4 * walCheckpointPages * 4096); fi.Size() > limit {
		t.Errorf("the WAL is %d bytes after %d bytes of rows, want at most %d: it did not start over", fi.Size(), written, limit)
	}
	t.Logf("WAL %d bytes after %d bytes of rows", fi.Size(), written)
}

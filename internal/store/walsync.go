package store

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"
	"sync/atomic"
)

// walSync makes SQLite's commits durable outside the write lock.
//
// With synchronous=FULL, SQLite fsyncs the WAL inside COMMIT while it holds
// the database's only write lock, so the next transaction cannot even start
// until the previous one's fsync returns: with two callers a claim waited
// for the other's fsync and then for its own. The writer therefore runs
// with synchronous=NORMAL (COMMIT appends the WAL frames and returns; the
// WAL header and checkpoints are still synced by SQLite itself) and the
// store fsyncs the WAL afterwards, here, while the next transaction already
// runs. An fsync makes durable every frame written before it began, so one
// fsync covers every commit that had returned when it started (group
// commit), and a commit that returns while an fsync runs starts the next
// one at once instead of waiting for the first to end.
//
// Nothing is reported before it is durable:
//   - a transaction returns (InTx, GroupInTx, the eligibility batcher) only
//     once an fsync that began after its COMMIT has returned;
//   - a statement outside a transaction on the writer runs in a
//     transaction of its own, so the same holds;
//   - a read on the reader pool can see a commit whose fsync is still
//     running (SQLite makes the frames visible when COMMIT writes them), so
//     a read returns only once every commit begun before it read is
//     durable (usually at once: the wait is for an fsync in flight).
//
// Commits are numbered in the order they run: they are registered (begin)
// on the writer's only connection, just before COMMIT.
type walSync struct {
	path string // the WAL file (database path + "-wal")

	begun  atomic.Uint64 // commits registered so far
	synced atomic.Uint64 // every commit numbered ≤ synced is on disk

	mu    sync.Mutex
	ended uint64        // the commits numbered ≤ ended have returned
	endCh chan struct{} // closed (and replaced) when a commit returns
	run   *walRun       // the newest fsync in flight
	err   error         // a failed fsync: nothing after it can be trusted

	// sync syncs the WAL (w.fsync; tests replace it).
	sync func() error
}

// walRun is one fsync of the WAL: it covers the commits numbered ≤ covers.
type walRun struct {
	covers uint64
	done   chan struct{}
	err    error
}

func newWALSync(dbPath string) *walSync {
	w := &walSync{path: dbPath + "-wal", endCh: make(chan struct{})}
	w.sync = w.fsync
	return w
}

// begin numbers the commit about to run on the writer's connection.
func (w *walSync) begin() uint64 { return w.begun.Add(1) }

// end records that commit n returned (committed or not).
func (w *walSync) end(n uint64) {
	w.mu.Lock()
	if n > w.ended {
		w.ended = n
	}
	close(w.endCh)
	w.endCh = make(chan struct{})
	w.mu.Unlock()
}

// seen makes durable every commit a read that has just run could have
// seen: those begun so far.
func (w *walSync) seen(ctx context.Context) error {
	if w == nil {
		return nil
	}
	return w.durable(ctx, w.begun.Load())
}

// syncing returns a channel closed when the newest fsync in flight ends,
// or nil when none is in flight.
func (w *walSync) syncing() <-chan struct{} {
	if w == nil {
		return nil
	}
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.run == nil {
		return nil
	}
	return w.run.done
}

// durable returns once commit n and every commit before it are on disk
// (an fsync of the WAL that began after commit n returned has succeeded),
// or ctx ends. A nil walSync (PostgreSQL) has nothing to do.
func (w *walSync) durable(ctx context.Context, n uint64) error {
	if w == nil || w.synced.Load() >= n {
		return nil
	}
	for {
		w.mu.Lock()
		switch {
		case w.err != nil:
			err := w.err
			w.mu.Unlock()
			return err
		case w.synced.Load() >= n:
			w.mu.Unlock()
			return nil
		case w.ended < n: // commit n is still running
			ch := w.endCh
			w.mu.Unlock()
			if err := wait(ctx, ch); err != nil {
				return err
			}
			continue
		case w.run != nil && w.run.covers >= n:
			r := w.run
			w.mu.Unlock()
			if err := wait(ctx, r.done); err != nil {
				return err
			}
			if r.err != nil {
				return r.err
			}
			continue
		}
		// No fsync in flight began after commit n: start one, beside any
		// older one still running.
		r := &walRun{covers: w.ended, done: make(chan struct{})}
		w.run = r
		w.mu.Unlock()
		r.err = w.sync()
		w.mu.Lock()
		if r.err != nil && w.err == nil {
			w.err = r.err
		}
		if r.err == nil && r.covers > w.synced.Load() {
			w.synced.Store(r.covers)
		}
		if w.run == r {
			w.run = nil
		}
		w.mu.Unlock()
		close(r.done)
		return r.err
	}
}

func wait(ctx context.Context, ch <-chan struct{}) error {
	select {
	case <-ch:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// fsync syncs the WAL file. It is opened for each fsync, so that a WAL that
// SQLite removed and created again (when every connection had closed) is
// the one synced; a WAL that is gone needs nothing: SQLite checkpoints it
// into the database file and syncs that before removing it. fdatasync
// syncs the data and what reading it back needs (the file's size), not
// its times: once the log has started over, commits overwrite it in
// place, and an fsync would commit the file system's journal for the
// modification time as well.
func (w *walSync) fsync() error {
	f, err := os.Open(w.path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("store: open the WAL to sync it: %w", err)
	}
	err = fdatasync(f)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("store: sync the WAL: %w", err)
	}
	return nil
}

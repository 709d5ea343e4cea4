package jobs_test

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// fullDisk is a store whose group commits fail as SQLite's do on a full
// disk: the transaction's statements ran (so a claim returned its jobs),
// then the commit failed and nothing was kept.
type fullDisk struct {
	store.Store
	full *atomic.Bool
}

var errDiskFull = errors.New("database or disk is full (SQLITE_FULL)")

func (s fullDisk) GroupInTx(ctx context.Context, fn func(tx store.Queries) error) error {
	if !s.full.Load() {
		return s.Store.GroupInTx(ctx, fn)
	}
	err := s.Store.InTx(ctx, func(tx store.Queries) error {
		if err := fn(tx); err != nil {
			return err
		}
		return errDiskFull // rolled back, as a failed commit is
	})
	return err
}

// countingHandler counts log records.
type countingHandler struct{ n atomic.Int64 }

func (h *countingHandler) Enabled(context.Context, slog.Level) bool  { return true }
func (h *countingHandler) Handle(context.Context, slog.Record) error { h.n.Add(1); return nil }
func (h *countingHandler) WithAttrs([]slog.Attr) slog.Handler        { return h }
func (h *countingHandler) WithGroup(string) slog.Handler             { return h }

// TestDiskFullBacksOff: with every commit failing (a full disk), a job
// whose claim was not kept is not run, and the loop backs off with few
// log lines. Before, the uncommitted claim's job ran, failed to record its
// outcome, woke the loop and was claimed again: 99,856 attempts in 72 s,
// ~4,350 log lines a second.
func TestDiskFullBacksOff(t *testing.T) {
	t.Parallel()
	real := storetest.SQLite(t)
	logs := &countingHandler{}
	full := &atomic.Bool{}
	full.Store(true)
	s := fullDisk{real, full}
	q := jobs.New(s, jobs.Options{Clock: clock.System{}, Logger: slog.New(logs), Worker: "w", Concurrency: 2,
		PollInterval: 10 * time.Millisecond})
	var runs atomic.Int64
	done := make(chan struct{})
	q.Register("store.file", jobs.Policy{}, func(ctx context.Context, j store.Job) error {
		if runs.Add(1); !full.Load() {
			close(done)
			return nil
		}
		return errDiskFull
	})
	if _, err := q.Enqueue(context.Background(), real, "store.file", nil); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	ran := make(chan struct{})
	go func() { q.Run(ctx); close(ran) }()
	time.Sleep(2 * time.Second)
	t.Logf("2 s of a full disk: the job ran %d times, %d log lines", runs.Load(), logs.n.Load())
	if runs.Load() != 0 {
		t.Errorf("the job ran %d times on claims that were never kept", runs.Load())
	}
	// Claims at 10, 20, 40, ... ms: about 8 in 2 s, logged once (then
	// once a minute with a count).
	if n := logs.n.Load(); n > 10 {
		t.Errorf("%d log lines in 2 s of a full disk; want a handful", n)
	}
	// Room again: the job runs within the backoff's next step.
	full.Store(false)
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Error("the job did not run once the disk had room")
	}
	cancel()
	<-ran
}

package jobs_test

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestLongJobKeepsItsLease: a job that runs for many lease periods (a large
// inbound file) is renewed by its worker and never claimed by another one.
func TestLongJobKeepsItsLease(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		const lease = time.Second
		var runs atomic.Int64
		handler := func(ctx context.Context, j store.Job) error {
			runs.Add(1)
			select {
			case <-time.After(5 * lease):
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		}
		var queues []*jobs.Queue
		for _, w := range []string{"first", "second"} {
			q := jobs.New(s, jobs.Options{Logger: quiet, Worker: w, Concurrency: 1, PollInterval: 5 * time.Millisecond, Lease: lease})
			q.Register("process", jobs.Policy{Timeout: time.Minute}, handler)
			queues = append(queues, q)
		}
		j, err := queues[0].Enqueue(context.Background(), s, "process", nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, q := range queues {
			start(t, q)
		}
		eventually(t, "the long job to finish", func() bool { return jobState(t, s, j.ID).State == store.JobSucceeded })
		if n := runs.Load(); n != 1 {
			t.Fatalf("the long job ran %d times, want once (its lease was not renewed)", n)
		}
		if o := outcomes(t, s, j.ID); o != "[succeeded]" {
			t.Fatalf("attempts %s, want [succeeded]", o)
		}
	})
}

// TestPoisonJobIsParked: a job whose worker dies on every attempt (it never
// finishes, and no renewal comes) is parked as failed after MaxAttempts,
// with a reason, instead of being claimed forever.
func TestPoisonJobIsParked(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		clk := clock.NewFake(t0)
		const lease = time.Minute // renewals tick every 20 s of real time: none during the test
		policy := jobs.Policy{Timeout: time.Minute, MaxAttempts: 3}
		var claims atomic.Int64
		q0 := jobs.New(s, jobs.Options{Clock: clk, Logger: quiet, Worker: "enqueuer", Lease: lease})
		q0.Register("poison", policy, nil)
		j, err := q0.Enqueue(context.Background(), s, "poison", nil)
		if err != nil {
			t.Fatal(err)
		}
		for attempt := 1; attempt <= 3; attempt++ {
			q := jobs.New(s, jobs.Options{Clock: clk, Logger: quiet, Worker: "w" + string(rune('0'+attempt)), Concurrency: 1, PollInterval: 5 * time.Millisecond, Lease: lease})
			started := make(chan struct{})
			q.Register("poison", policy, func(ctx context.Context, j store.Job) error {
				claims.Add(1)
				close(started)
				select {} // the process dies here: nothing more is ever heard from it
			})
			ctx, cancel := context.WithCancel(context.Background())
			go q.Run(ctx)
			<-started
			cancel() // the dead worker's Run never returns; it holds no lease once the clock moves
			clk.Advance(lease + time.Second)
		}
		// The next claim by anyone parks it.
		if _, err := s.ClaimJobs(context.Background(), store.ClaimParams{Worker: "later", Kinds: []string{"poison"}, Now: clk.Now(), Lease: lease, Limit: 10}); err != nil {
			t.Fatal(err)
		}
		got := jobState(t, s, j.ID)
		if got.State != store.JobFailed || claims.Load() != 3 {
			t.Fatalf("after 3 dead workers: state %s, claimed %d times; want failed after 3", got.State, claims.Load())
		}
		if !strings.Contains(got.LastError, "parked") || !strings.Contains(got.LastError, "stopped before finishing") {
			t.Fatalf("parked job's reason %q", got.LastError)
		}
		if o := outcomes(t, s, j.ID); o != "[lease_expired lease_expired lease_expired]" {
			t.Fatalf("attempts %s", o)
		}
	})
}

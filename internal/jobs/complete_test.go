package jobs_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestCompleteInTheHandlersTransaction: a handler that completes its job
// in the transaction of its work ends the job in that commit; when the
// transaction rolls back, so does the completion, and the job is retried.
func TestCompleteInTheHandlersTransaction(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		cases := []struct {
			name     string
			rollback int // attempts whose transaction rolls back
			want     string
		}{
			{"committed", 0, "[succeeded]"},
			{"rolled back once", 1, "[failed succeeded]"},
		}
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				s := open(t)
				q := newQueue(s, clock.System{}, "w", 2)
				q.Register("work", jobs.Policy{MaxAttempts: 3, Backoff: jobs.Fixed(0)}, func(ctx context.Context, j store.Job) error {
					return s.InTx(ctx, func(tx store.Queries) error {
						if err := jobs.Complete(ctx, tx); err != nil {
							return err
						}
						if j.Attempt <= c.rollback {
							return errors.New("the work failed after the completion was written")
						}
						return nil
					})
				})
				j, err := q.Enqueue(context.Background(), s, "work", nil)
				if err != nil {
					t.Fatal(err)
				}
				start(t, q)
				eventually(t, "the job to finish", func() bool { return jobState(t, s, j.ID).State == store.JobSucceeded })
				time.Sleep(20 * time.Millisecond) // any stray second completion would land now
				if o := outcomes(t, s, j.ID); o != c.want {
					t.Errorf("attempts %s, want %s", o, c.want)
				}
				if got := jobState(t, s, j.ID); got.LastError != "" || got.LockedBy != "" {
					t.Errorf("job %+v", got)
				}
			})
		}
	})
}

// TestCompleteOutsideAHandlerDoesNothing: there is no job to complete.
func TestCompleteOutsideAHandlerDoesNothing(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	if err := s.InTx(context.Background(), func(tx store.Queries) error { return jobs.Complete(context.Background(), tx) }); err != nil {
		t.Fatal(err)
	}
}

// TestHoldFailsOnceTheJobIsAnotherWorkers: a handler that stalled past
// its lease learns from Hold, in its transaction, that it may record
// nothing; while it holds the job, Hold succeeds.
func TestHoldFailsOnceTheJobIsAnotherWorkers(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	clk := clock.NewFake(t0)
	policy := jobs.Policy{Timeout: time.Minute, MaxAttempts: 3}
	held, stalled, resume := make(chan error, 1), make(chan struct{}), make(chan struct{})
	holdInTx := func(ctx context.Context) error {
		return s.InTx(ctx, func(tx store.Queries) error { return jobs.Hold(ctx, tx) })
	}
	slow := newQueue(s, clk, "slow", 1)
	slow.Register("work", policy, func(ctx context.Context, j store.Job) error {
		held <- holdInTx(ctx)
		close(stalled)
		<-resume
		held <- holdInTx(context.WithoutCancel(ctx))
		return nil
	})
	j, err := slow.Enqueue(context.Background(), s, "work", nil)
	if err != nil {
		t.Fatal(err)
	}
	start(t, slow)
	<-stalled
	if err := <-held; err != nil {
		t.Fatalf("Hold while holding the job: %v", err)
	}
	other := newQueue(s, clk, "other", 1)
	other.Register("work", policy, func(context.Context, store.Job) error { return nil })
	clk.Advance(2 * time.Minute) // past the slow worker's lease
	start(t, other)
	eventually(t, "the other worker to finish the job", func() bool { return jobState(t, s, j.ID).State == store.JobSucceeded })
	close(resume)
	if err := <-held; !errors.Is(err, store.ErrLeaseLost) {
		t.Errorf("Hold after the lease was lost: %v, want ErrLeaseLost", err)
	}
}

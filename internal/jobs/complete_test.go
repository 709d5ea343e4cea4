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
	s := storetest.SQLite(t)
	if err := s.InTx(context.Background(), func(tx store.Queries) error { return jobs.Complete(context.Background(), tx) }); err != nil {
		t.Fatal(err)
	}
}

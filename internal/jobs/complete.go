package jobs

import (
	"context"
	"sync/atomic"

	"github.com/clearhouse/clearhouse/internal/store"
)

// attempt is the job attempt a handler runs, carried in its context so the
// handler can finish it inside its own transaction (Complete).
type attempt struct {
	q   *Queue
	job store.Job
	// completed: Complete wrote the success through the handler's
	// transaction, so the worker writes nothing more when the handler
	// returns nil.
	completed atomic.Bool
}

type attemptKey struct{}

// Complete marks the job whose handler runs under ctx succeeded, through
// tx: the transaction of the handler's last change, so the job ends in the
// commit of its work, a transaction fewer than a completion of its own.
// The handler must return nil once tx has committed, or an error if it
// rolled back (the attempt then fails as usual). ErrLeaseLost when this
// worker no longer holds the job: roll back, another worker has it.
// Outside a handler (or in a build that acknowledges jobs before their
// work, see ackBeforeWork) Complete does nothing.
func Complete(ctx context.Context, tx store.Jobs) error {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	if a == nil || ackBeforeWork {
		return nil
	}
	err := tx.CompleteJob(ctx, store.FinishParams{ID: a.job.ID, Worker: a.q.opts.Worker, Attempt: a.job.Attempt, Now: a.q.opts.Clock.Now()})
	if err != nil {
		return err
	}
	a.completed.Store(true)
	return nil
}

// Hold checks through tx that this worker still holds the job whose
// handler runs under ctx (ErrLeaseLost when another worker has taken it
// since), renewing its lease: a handler that records its work in several
// transactions and completes the job in none of them guards each with
// Hold, so a worker that stalled past its lease records nothing.
func Hold(ctx context.Context, tx store.Jobs) error {
	a, _ := ctx.Value(attemptKey{}).(*attempt)
	if a == nil || ackBeforeWork {
		return nil
	}
	return tx.ExtendJobLease(ctx, a.job.ID, a.q.opts.Worker, a.job.Attempt, a.q.opts.Clock.Now().Add(a.q.opts.Lease))
}

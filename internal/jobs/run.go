package jobs

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"runtime/debug"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Run works jobs until ctx is cancelled, then waits for the jobs in hand
// to finish (each is bounded by its Policy's Timeout) and returns. Each
// lane (Policy.Lane) has workers of its own.
func (q *Queue) Run(ctx context.Context) error {
	q.mu.RLock()
	lanes := make([]*lane, 0, len(q.lanes))
	for _, l := range q.lanes {
		lanes = append(lanes, l)
	}
	q.mu.RUnlock()
	var wg sync.WaitGroup
	for _, l := range lanes {
		wg.Go(func() { q.runLane(ctx, l) })
	}
	<-ctx.Done()
	wg.Wait()
	return nil
}

// claim leases due jobs as c says (Kinds, Limit, AvailableOnly,
// ExcludeScopes) to this worker.
func (q *Queue) claim(ctx context.Context, c store.ClaimParams) ([]store.Job, error) {
	if len(c.Kinds) == 0 {
		return nil, nil
	}
	c.Worker, c.Lease = q.opts.Worker, q.opts.Lease
	var claimed []store.Job
	var renewals []renewal
	err := q.grouped(ctx, func(tx store.Jobs) (err error) {
		// The lease starts when the claim runs, not when it was asked
		// for: the wait for SQLite's writer (a group round) or a
		// PostgreSQL connection would otherwise come off the lease.
		c.Now = q.opts.Clock.Now()
		if !c.AvailableOnly {
			// Before lapsed leases are taken: this queue's own, due
			// for renewal, are renewed (heldLeases).
			if renewals, err = q.renewDue(ctx, tx, c.Now); err != nil {
				return err
			}
		}
		claimed, err = tx.ClaimJobs(ctx, c)
		return err
	})
	if err != nil {
		// The claim's statements may have run and its commit failed (a
		// full disk): then its jobs are not this worker's, and running
		// them ran each again at once, tens of thousands of times.
		return nil, err
	}
	q.renewed(renewals)
	return claimed, nil
}

// grouped runs fn in the store's group commit (store.Store.GroupInTx): on
// SQLite, a claim or an outcome shares its commit with the others (and the
// handlers' transactions) arriving together, where a commit of its own
// wrote and synced the same index pages again each time.
func (q *Queue) grouped(ctx context.Context, fn func(tx store.Jobs) error) error {
	return q.store.GroupInTx(ctx, func(tx store.Queries) error { return fn(tx) })
}

// work runs one claimed job and records the outcome (unless its handler
// did, see Complete).
func (q *Queue) work(ctx context.Context, j store.Job) {
	k, _ := q.kind(j.Kind)
	log := q.opts.Logger.With("job_id", j.ID, "kind", j.Kind, "attempt", j.Attempt, "worker", q.opts.Worker)
	start := time.Now()
	q.stats.running.Inc()
	if ackBeforeWork {
		// Deliberately broken guard (build tag chaosbreak): the job is
		// acknowledged before its work commits, so a kill in between loses
		// the work. The chaos test must catch this.
		q.store.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: q.opts.Worker, Attempt: j.Attempt, Now: q.opts.Clock.Now()})
	}
	att := &attempt{q: q, job: j}
	hctx, cancel := context.WithCancel(context.WithValue(ctx, attemptKey{}, att))
	stopRenewing, held := q.renewLease(hctx, cancel, j, q.opts.Clock.Now().Add(k.policy.Timeout+leaseGrace), log)
	// Held until the outcome is recorded: a claim before that would take
	// a lease that lapsed meanwhile (heldLeases).
	defer q.held.remove(held)
	err := q.call(hctx, k, j)
	stopRenewing()
	cancel()
	q.stats.running.Dec()
	q.stats.duration.WithLabelValues(j.Kind).Observe(time.Since(start).Seconds())
	now := q.opts.Clock.Now()
	outcome := "succeeded"
	finish := store.FinishParams{ID: j.ID, Worker: q.opts.Worker, Attempt: j.Attempt, Now: now}
	var ferr error
	switch {
	case err == nil && att.completed.Load():
		log.Info("job succeeded", "duration_ms", time.Since(start).Milliseconds())
	case err == nil:
		ferr = q.grouped(ctx, func(tx store.Jobs) error { return tx.CompleteJob(ctx, finish) })
		log.Info("job succeeded", "duration_ms", time.Since(start).Milliseconds())
	case IsPermanent(err) || j.Attempt >= j.MaxAttempts:
		finish.Error = err.Error()
		ferr = q.grouped(ctx, func(tx store.Jobs) error { return tx.FailJob(ctx, finish) })
		outcome = "failed"
		log.Warn("job failed for good", "error", err.Error())
	default:
		finish.Error = err.Error()
		finish.RetryAt = now.Add(k.policy.Backoff(j.Attempt))
		ferr = q.grouped(ctx, func(tx store.Jobs) error { return tx.FailJob(ctx, finish) })
		outcome = "retrying"
		log.Info("job attempt failed; will retry", "error", err.Error(), "retry_at", finish.RetryAt)
	}
	if errors.Is(ferr, store.ErrLeaseLost) {
		outcome = "lease_lost"
		log.Warn("job outran its lease; another worker owns it now, result dropped")
	} else if ferr != nil {
		outcome = "unrecorded"
		log.Error("job outcome not recorded; it will run again when its lease expires", "error", ferr.Error())
	}
	q.stats.attempts.WithLabelValues(j.Kind, outcome).Inc()
}

// call runs the handler under the kind's timeout, turning a panic into an
// error so one bad job cannot stop the worker.
func (q *Queue) call(ctx context.Context, k kind, j store.Job) (err error) {
	if k.handler == nil {
		return Permanent(fmt.Errorf("no handler for kind %q", j.Kind))
	}
	ctx, cancel := context.WithTimeout(ctx, k.policy.Timeout)
	defer cancel()
	defer func() {
		if p := recover(); p != nil {
			q.opts.Logger.Error("job handler panic", "job_id", j.ID, "kind", j.Kind, "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			err = fmt.Errorf("handler panic: %v", p)
		}
	}()
	return k.handler(ctx, j)
}

// renewLease keeps the worker's lease on j alive while its handler runs:
// a third of a lease after the lease was last set it moves it to
// now+Lease, but never past until (the kind's Timeout plus grace), so a
// stuck handler cannot hold a job forever. If another worker has taken the
// job (this worker stalled past its lease), the handler's context is
// cancelled: its work would be dropped anyway. The returned function stops
// the renewals and waits for the last one; the lease stays in q.held
// until the caller removes it.
func (q *Queue) renewLease(ctx context.Context, cancel context.CancelFunc, j store.Job, until time.Time, log *slog.Logger) (stop func(), held *heldLease) {
	done := make(chan struct{})
	stopped := make(chan struct{})
	// The first renewal is due a third of a lease after the claim set the
	// lease (j.LockedUntil), not after the handler started: a claim slow to
	// return (a starved writer, a slow fsync) would otherwise hand the
	// handler a lease that ends before its first renewal, and another
	// worker would run the job again. It is timed here, before the handler
	// starts, not whenever the goroutine below first runs.
	expires := j.LockedUntil
	if expires.IsZero() {
		expires = q.opts.Clock.Now().Add(q.opts.Lease)
	}
	held = q.held.add(j, expires, until)
	timer := time.NewTimer(q.renewIn(expires))
	go func() {
		defer close(stopped)
		defer timer.Stop()
		for {
			select {
			case <-done:
				return
			case <-ctx.Done():
				return
			case <-timer.C:
			}
			now := q.opts.Clock.Now()
			// A claim may have renewed it meanwhile (heldLeases).
			expires = q.held.expiry(held)
			if wait := q.renewIn(expires); wait > 0 {
				timer.Reset(wait)
				continue
			}
			next := now.Add(q.opts.Lease)
			if next.After(until) {
				next = until
			}
			if !next.After(now) {
				return // past the kind's Timeout: let the lease lapse
			}
			err := q.store.ExtendJobLease(ctx, j.ID, q.opts.Worker, j.Attempt, next)
			switch {
			case errors.Is(err, store.ErrLeaseLost):
				log.Warn("job lease lost to another worker; stopping the handler")
				cancel()
				return
			case err != nil:
				if ctx.Err() == nil {
					log.Warn("job lease not renewed", "error", err.Error())
				}
				// Try again soon, while the lease lasts, not a third of
				// a lease later.
				timer.Reset(retryRenewal(q.opts.Lease))
			default:
				if !next.Before(until) {
					return // the lease ends at until: no renewal moves it further
				}
				q.held.extended(held, next)
				timer.Reset(q.renewIn(q.held.expiry(held)))
			}
		}
	}()
	return func() { close(done); <-stopped }, held
}

// renewIn is how long after now a lease ending at expires is renewed: once
// a third of it has passed (at once if more has), and never later than a
// third of a lease from now (a clock set back).
func (q *Queue) renewIn(expires time.Time) time.Duration {
	third := max(q.opts.Lease/3, time.Millisecond)
	due := expires.Add(-(q.opts.Lease - third))
	return min(max(due.Sub(q.opts.Clock.Now()), 0), third)
}

// retryRenewal is how soon a renewal that failed (not lost: the store
// could not take it) is tried again.
func retryRenewal(lease time.Duration) time.Duration { return max(lease/10, time.Millisecond) }

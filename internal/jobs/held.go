package jobs

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// heldLeases are the leases of the jobs this queue's handlers run. A
// renewal needs the database's writer like any write; on SQLite there is
// one, and a long write transaction (an inbound file's batch of identifier
// rows: 4–20 s under -race at load) keeps every renewal waiting behind it.
// When it commits, the queue's own claim, also waiting, may run first: it
// found the lease lapsed and took the job again as a new attempt, the
// running attempt lost its lease, and a job retried that way five times was
// parked with its file still PROCESSING (TestProcessKilledAnywhereIsExactlyOnce).
// So a claim that looks for lapsed leases first renews, in its own
// transaction, the leases of this queue's jobs whose renewal is due: a
// job whose worker is alive is never taken over by that worker, and another
// worker still takes it once the worker is gone or its handler is past the
// kind's Timeout plus grace (no renewal moves a lease past that). A lease
// is held from the claim until the attempt's outcome is recorded, not only
// while the handler runs: a claim between the two took a lease that lapsed
// while the handler's last transaction waited for the writer, and the
// outcome then found the job another attempt's.
type heldLeases struct {
	mu   sync.Mutex
	jobs map[string]*heldLease
}

type heldLease struct {
	job     store.Job
	until   time.Time // the kind's Timeout plus grace
	expires time.Time // the lease's end as last set; guarded by heldLeases.mu
}

func (h *heldLeases) add(j store.Job, expires, until time.Time) *heldLease {
	l := &heldLease{job: j, until: until, expires: expires}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.jobs == nil {
		h.jobs = map[string]*heldLease{}
	}
	h.jobs[j.ID] = l
	return l
}

func (h *heldLeases) remove(l *heldLease) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.jobs[l.job.ID] == l {
		delete(h.jobs, l.job.ID)
	}
}

// expiry returns when l's lease ends as last set.
func (h *heldLeases) expiry(l *heldLease) time.Time {
	h.mu.Lock()
	defer h.mu.Unlock()
	return l.expires
}

// extended records that l's lease now ends at next (if that is later).
func (h *heldLeases) extended(l *heldLease, next time.Time) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if next.After(l.expires) {
		l.expires = next
	}
}

// next is where a renewal at now moves a lease that ends at expires, and
// whether one is due: a third of a lease after it was last set, and only
// if it moves the lease (not past until).
func (q *Queue) next(expires, until, now time.Time) (time.Time, bool) {
	third := max(q.opts.Lease/3, time.Millisecond)
	if now.Before(expires.Add(-(q.opts.Lease - third))) {
		return time.Time{}, false
	}
	next := now.Add(q.opts.Lease)
	if next.After(until) {
		next = until
	}
	return next, next.After(expires) && next.After(now)
}

// renewal is a lease renewDue moved, recorded once its transaction
// committed (renewed).
type renewal struct {
	l    *heldLease
	next time.Time
}

// renewDue renews through tx the leases of this queue's jobs whose renewal
// is due at now (see heldLeases), and returns them. A lease another worker
// has taken is left to its renewal goroutine, which stops the handler.
func (q *Queue) renewDue(ctx context.Context, tx store.Jobs, now time.Time) ([]renewal, error) {
	var list, done []renewal
	q.held.mu.Lock()
	for _, l := range q.held.jobs {
		if next, ok := q.next(l.expires, l.until, now); ok {
			list = append(list, renewal{l, next})
		}
	}
	q.held.mu.Unlock()
	for _, d := range list {
		err := tx.ExtendJobLease(ctx, d.l.job.ID, q.opts.Worker, d.l.job.Attempt, d.next)
		switch {
		case err == nil:
			done = append(done, d)
		case !errors.Is(err, store.ErrLeaseLost):
			return nil, err
		}
	}
	return done, nil
}

// renewed records renewals whose transaction committed.
func (q *Queue) renewed(list []renewal) {
	for _, r := range list {
		q.held.extended(r.l, r.next)
	}
}

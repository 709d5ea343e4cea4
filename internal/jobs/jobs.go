// Package jobs runs durable background work: file processing, outbound
// delivery, webhook delivery. A job is a row in the store's jobs table,
// enqueued in the same transaction as the change that needs it (the
// transactional outbox), so work is never lost when a process dies and never
// announced for a change that rolled back.
//
// Workers claim jobs with a lease (FOR UPDATE SKIP LOCKED on PostgreSQL, the
// single writer on SQLite). A job whose worker dies is claimed again once
// the lease expires. Failures retry on the kind's Policy; every attempt is
// recorded (store.JobAttempt) for the console's Events tab. Time comes from
// a clock.Clock, so schedules are tested without waiting.
//
// Each kind runs in a lane (Policy.Lane), a pool of workers of its own:
// calls to other systems (LaneOutbound) never take the workers of files
// and claims, and one account in one mode may hold only its share of a
// lane (Lane.PerAccount); its other jobs wait in the table, unclaimed.
package jobs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Handler does one job. Returning nil completes it; an error fails the
// attempt and retries per the kind's Policy, unless wrapped by Permanent.
// The context ends at the Policy's Timeout.
type Handler func(ctx context.Context, job store.Job) error

// Options configure a Queue.
type Options struct {
	Clock  clock.Clock  // default clock.System
	Logger *slog.Logger // default slog.Default
	// Worker names this process in leases and attempt rows (default
	// hostname-pid).
	Worker string
	// Concurrency is how many jobs of LaneDefault, and of a lane Lanes
	// does not size, run at once (default 4).
	Concurrency int
	// PollInterval is how often to look for due jobs (default 1s).
	PollInterval time.Duration
	// Metrics, when set, receives the queue's Prometheus collectors.
	Metrics prometheus.Registerer
	// Lease is how long a claim holds a job without news from its worker
	// (default 30s). A running job's lease is renewed once a third of it
	// has passed (counted from when the claim or the last renewal set it,
	// so a claim slow to commit does not eat into it), so a
	// long job (a 1 GB inbound file) stays with its worker for as long as
	// the worker lives, up to its kind's Timeout, while a job whose process
	// died is claimed again within one Lease.
	Lease time.Duration
	// Lanes size the lanes other than LaneDefault (see Lane); a lane not
	// named has Concurrency workers and no per-account cap.
	Lanes map[string]Lane
}

// Queue enqueues jobs and, when Run, works them.
type Queue struct {
	store store.Store
	opts  Options
	mu    sync.RWMutex
	kinds map[string]kind
	lanes map[string]*lane
	stats *queueMetrics
	held  heldLeases // the leases of the jobs its handlers run
}

type kind struct {
	policy  Policy
	handler Handler
}

// leaseGrace is how long past its kind's Timeout a running job's lease is
// still renewed: a handler that ignores its context's end loses the job
// then, and another worker may take it.
const leaseGrace = 15 * time.Second

// DefaultLease is Options.Lease's default.
const DefaultLease = 30 * time.Second

// New returns a queue on st.
func New(st store.Store, opts Options) *Queue {
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Worker == "" {
		host, _ := os.Hostname()
		opts.Worker = fmt.Sprintf("%s-%d-%s", host, os.Getpid(), store.NewID()[20:])
	}
	if opts.Concurrency < 1 {
		opts.Concurrency = 4
	}
	if opts.PollInterval <= 0 {
		opts.PollInterval = time.Second
	}
	if opts.Lease <= 0 {
		opts.Lease = DefaultLease
	}
	q := &Queue{store: st, opts: opts, kinds: map[string]kind{}, lanes: map[string]*lane{}, stats: newQueueMetrics(opts.Metrics)}
	// Wake on every commit that enqueues a job, however it was enqueued
	// (events.Emitter.Emit writes its dispatch job straight through the store).
	if h, ok := st.(interface{ OnJobsCommitted(func()) }); ok {
		h.OnJobsCommitted(q.Notify)
	}
	return q
}

// Register sets the handler and retry policy of a kind. Register every kind
// before Run; a queue only claims kinds it has a handler for.
func (q *Queue) Register(name string, p Policy, h Handler) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if _, dup := q.kinds[name]; dup {
		panic("jobs: kind registered twice: " + name)
	}
	q.kinds[name] = kind{policy: p.withDefaults(), handler: h}
	l := q.laneOf(p.Lane)
	l.kinds = append(l.kinds, name)
}

func (q *Queue) kind(name string) (kind, bool) {
	q.mu.RLock()
	defer q.mu.RUnlock()
	k, ok := q.kinds[name]
	return k, ok
}

// EnqueueOption adjusts one Enqueue.
type EnqueueOption func(*store.NewJob)

// At delays the first attempt until t.
func At(t time.Time) EnqueueOption { return func(n *store.NewJob) { n.RunAt = t } }

// WithID gives the job a known id (one derived from the record it works
// on), so its schedule can be read back without a search.
func WithID(id string) EnqueueOption { return func(n *store.NewJob) { n.ID = id } }

// ForAccount records the account the job works for.
func ForAccount(accountID string) EnqueueOption {
	return func(n *store.NewJob) { n.AccountID = accountID }
}

// ForTenant records the account and mode the job works for: a lane caps
// each account and mode on its own (Lane.PerAccount), so a test key's work
// never waits on, nor holds up, the same account's production work.
func ForTenant(accountID, mode string) EnqueueOption {
	return func(n *store.NewJob) { n.AccountID, n.Mode = accountID, mode }
}

// Enqueue adds a job of a registered kind through tx, which should be the
// transaction of the change that needs the job (store.Store.InTx), or the
// store itself. payload is stored as JSON ([]byte and json.RawMessage as
// given); keep file contents out of it (store a blob key instead).
func (q *Queue) Enqueue(ctx context.Context, tx store.Jobs, kindName string, payload any, opts ...EnqueueOption) (store.Job, error) {
	k, ok := q.kind(kindName)
	if !ok {
		return store.Job{}, fmt.Errorf("jobs: kind %q is not registered", kindName)
	}
	var body []byte
	switch p := payload.(type) {
	case nil:
	case []byte:
		body = p
	case json.RawMessage:
		body = p
	default:
		var err error
		if body, err = json.Marshal(p); err != nil {
			return store.Job{}, fmt.Errorf("jobs: payload of %s: %w", kindName, err)
		}
	}
	n := store.NewJob{Kind: kindName, Payload: body, MaxAttempts: k.policy.MaxAttempts, CreatedAt: q.opts.Clock.Now()}
	for _, o := range opts {
		o(&n)
	}
	j, err := tx.EnqueueJob(ctx, n)
	if err != nil {
		return store.Job{}, err
	}
	q.Notify()
	return j, nil
}

// Notify wakes the workers of every lane to look for due jobs now
// (Enqueue does this).
func (q *Queue) Notify() {
	q.mu.RLock()
	defer q.mu.RUnlock()
	for _, l := range q.lanes {
		l.notify()
	}
}

// Retry makes a finished job run again now with a fresh budget of its
// kind's MaxAttempts (the console's Retry button). Attempt history is kept.
func (q *Queue) Retry(ctx context.Context, id string) error {
	j, err := q.store.GetJob(ctx, id)
	if err != nil {
		return err
	}
	extra := 1
	if k, ok := q.kind(j.Kind); ok {
		extra = k.policy.MaxAttempts
	}
	if err := q.store.RetryJob(ctx, id, q.opts.Clock.Now(), extra); err != nil {
		return err
	}
	q.Notify()
	return nil
}

// Decode unmarshals a job's JSON payload into v.
func Decode(j store.Job, v any) error {
	if err := json.Unmarshal(j.Payload, v); err != nil {
		return fmt.Errorf("jobs: payload of %s %s: %w", j.Kind, j.ID, err)
	}
	return nil
}

// permanent marks an error that must not be retried.
type permanent struct{ err error }

func (p permanent) Error() string { return p.err.Error() }
func (p permanent) Unwrap() error { return p.err }

// Permanent wraps err so the job fails now without further attempts.
func Permanent(err error) error { return permanent{err} }

// IsPermanent reports whether err was wrapped by Permanent.
func IsPermanent(err error) bool { return errors.As(err, new(permanent)) }

package jobs_test

import (
	"context"
	"strings"
	"sync"
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
// The lease runs on a fake clock that moves two thirds of a lease at a time,
// and only once the previous renewal is seen: without renewals the other
// worker takes the job at the second step, with them it never may, however
// slowly a loaded machine runs the test (on the real clock, a claim that took
// longer than a one-second lease to commit under -race at load 35 made it
// fail).
func TestLongJobKeepsItsLease(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		clk := clock.NewFake(t0)
		const lease = 1500 * time.Millisecond // renewals every half second of real time
		h := newHeldHandler()
		defer h.letGo() // before the queues stop (t.Cleanup), or a failed test hangs
		other, id := h.runOnFirst(t, clk, lease, s, s)
		start(t, other)
		for range 6 {
			renewed := jobState(t, s, id).LockedUntil
			clk.Advance(lease * 2 / 3)
			eventually(t, "the lease to be renewed", func() bool { return jobState(t, s, id).LockedUntil.After(renewed) })
		}
		h.finish(t, s, id)
	})
}

// TestSlowClaimKeepsItsLease: a claim slow to run or to commit (waiting for
// SQLite's writer, a slow fsync, a starved process) still leaves its worker
// a whole lease: the lease starts when the claim's statement runs, and the
// first renewal is due a third of a lease after that, not after the
// handler starts. Before, a claim that took 1.1 s handed its handler a
// one-second lease that had ended, and another worker ran the job again.
func TestSlowClaimKeepsItsLease(t *testing.T) {
	const lease = 30 * time.Second // renewals a third of it apart: 10 s of real time
	for _, tc := range []struct {
		name   string
		before bool // the claim waits before its statement runs, else after it commits
	}{
		{"waits for the writer", true},
		{"commits slowly", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
				s := open(t)
				clk := clock.NewFake(t0)
				h := newHeldHandler()
				defer h.letGo() // before the queues stop (t.Cleanup), or a failed test hangs
				slow := &slowClaims{Store: s, clk: clk, delay: lease * 9 / 10, before: tc.before}
				other := &slowClaims{Store: s}
				second, id := h.runOnFirst(t, clk, lease, slow, other)
				// Well before the first renewal of a lease counted from the
				// handler's start (10 s), the job has at least a third of a
				// lease left.
				deadline := time.Now().Add(5 * time.Second)
				for {
					left := jobState(t, s, id).LockedUntil.Sub(clk.Now())
					if left > lease/3 {
						break
					}
					if time.Now().After(deadline) {
						t.Fatalf("5 s after its handler started, the job's lease had %s of %s left: the claim's wait came off it", left, lease)
					}
					time.Sleep(5 * time.Millisecond)
				}
				start(t, second)
				rounds := other.rounds.Load()
				clk.Advance(lease / 4)
				eventually(t, "the other worker to look for jobs twice", func() bool { return other.rounds.Load() >= rounds+2 })
				h.finish(t, s, id)
			})
		})
	}
}

// TestRenewalsStopAtTheTimeout: once a renewal has moved the lease to the
// kind's Timeout plus grace, the worker renews no more: the lease cannot
// move further, and renewing it again at once, over and over, held SQLite's
// writer from every other worker (TestPoisonJobIsParked hung so).
func TestRenewalsStopAtTheTimeout(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		clk := clock.NewFake(t0)
		const lease = 3 * time.Second // the first renewal a second of real time after the claim
		h := newHeldHandler()
		defer h.letGo()
		counted := &slowClaims{Store: s}
		j := h.runAlone(t, counted, clk, lease, time.Minute, 1)
		// A second before the Timeout and its 15 s of grace end: the next
		// renewal moves the lease to their end, and that is the last one.
		clk.Advance(time.Minute + 14*time.Second)
		eventually(t, "the lease to reach the Timeout plus grace", func() bool {
			return jobState(t, s, j.ID).LockedUntil.Equal(t0.Add(time.Minute + 15*time.Second))
		})
		time.Sleep(2 * time.Second) // two more renewal periods
		// One renewal (two if the test was too slow to move the clock
		// before the first), not one after another.
		if n := counted.extends.Load(); n > 2 {
			t.Fatalf("%d renewals after the lease reached the kind's Timeout plus grace, want none", n-1)
		}
		h.finish(t, s, j.ID)
	})
}

// heldHandler runs until the test lets it finish, counting its runs.
type heldHandler struct {
	runs    atomic.Int64
	started chan struct{}
	release chan struct{}
	once    sync.Once
}

func newHeldHandler() *heldHandler {
	return &heldHandler{started: make(chan struct{}, 10), release: make(chan struct{})}
}

func (h *heldHandler) handle(ctx context.Context, j store.Job) error {
	h.runs.Add(1)
	h.started <- struct{}{}
	select {
	case <-h.release:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// runOnFirst makes two queues of workers "first" and "second" on clk, on
// the two stores, for jobs handled by h; enqueues one, starts the first
// queue and waits for it to run the job. It returns the second queue, not
// started, and the job's id.
func (h *heldHandler) runOnFirst(t *testing.T, clk clock.Clock, lease time.Duration, first, second store.Store) (*jobs.Queue, string) {
	t.Helper()
	var queues []*jobs.Queue
	for i, st := range []store.Store{first, second} {
		q := jobs.New(st, jobs.Options{Clock: clk, Logger: quiet, Worker: []string{"first", "second"}[i], Concurrency: 1, PollInterval: 5 * time.Millisecond, Lease: lease})
		q.Register("process", jobs.Policy{Timeout: time.Hour}, h.handle)
		queues = append(queues, q)
	}
	j, err := queues[0].Enqueue(context.Background(), first, "process", nil)
	if err != nil {
		t.Fatal(err)
	}
	start(t, queues[0])
	h.waitStarted(t)
	return queues[1], j.ID
}

// runAlone starts a queue of concurrency workers named "first" on st and
// clk for jobs handled by h, enqueues one and waits for it to run.
func (h *heldHandler) runAlone(t *testing.T, st store.Store, clk clock.Clock, lease, timeout time.Duration, concurrency int) store.Job {
	t.Helper()
	q := jobs.New(st, jobs.Options{Clock: clk, Logger: quiet, Worker: "first", Concurrency: concurrency, PollInterval: 5 * time.Millisecond, Lease: lease})
	q.Register("process", jobs.Policy{Timeout: timeout}, h.handle)
	j, err := q.Enqueue(context.Background(), st, "process", nil)
	if err != nil {
		t.Fatal(err)
	}
	start(t, q)
	h.waitStarted(t)
	return j
}

func (h *heldHandler) letGo() { h.once.Do(func() { close(h.release) }) }

func (h *heldHandler) waitStarted(t *testing.T) {
	t.Helper()
	select {
	case <-h.started:
	case <-time.After(2 * time.Minute):
		t.Fatal("the job never started")
	}
}

// finish lets the handler return and checks the job ran once, on its
// first attempt.
func (h *heldHandler) finish(t *testing.T, s store.Store, id string) {
	t.Helper()
	h.letGo()
	eventually(t, "the long job to finish", func() bool { return jobState(t, s, id).State == store.JobSucceeded })
	if n := h.runs.Load(); n != 1 {
		t.Fatalf("the long job ran %d times, want once (its lease lapsed while it ran)", n)
	}
	if o := outcomes(t, s, id); o != "[succeeded]" {
		t.Fatalf("attempts %s, want [succeeded]", o)
	}
}

// slowClaims is a worker's store whose first claim that takes a job takes
// delay on clk (before its statement runs or after it commits), and which
// counts the worker's transactions (rounds) and lease renewals.
type slowClaims struct {
	store.Store
	clk     *clock.Fake
	delay   time.Duration
	before  bool
	slowed  atomic.Bool
	rounds  atomic.Int64
	extends atomic.Int64 // lease renewals
}

func (s *slowClaims) ExtendJobLease(ctx context.Context, id, worker string, attempt int, until time.Time) error {
	s.extends.Add(1)
	return s.Store.ExtendJobLease(ctx, id, worker, attempt, until)
}

func (s *slowClaims) GroupInTx(ctx context.Context, fn func(tx store.Queries) error) error {
	s.rounds.Add(1)
	if s.delay > 0 && s.before && !s.slowed.Swap(true) {
		s.clk.Advance(s.delay)
	}
	var claimed int
	err := s.Store.GroupInTx(ctx, func(tx store.Queries) error { return fn(countedClaims{tx, &claimed}) })
	if s.delay > 0 && !s.before && claimed > 0 && !s.slowed.Swap(true) {
		s.clk.Advance(s.delay)
	}
	return err
}

// countedClaims counts the jobs claimed through it.
type countedClaims struct {
	store.Queries
	n *int
}

func (c countedClaims) ClaimJobs(ctx context.Context, p store.ClaimParams) ([]store.Job, error) {
	js, err := c.Queries.ClaimJobs(ctx, p)
	*c.n += len(js)
	return js, err
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

// TestStarvedRenewalIsNotTakenByItsOwnWorker: a renewal that waits behind
// another long write (on SQLite, an inbound file's batch of identifier rows
// holding the only writer for longer than a lease under -race) lets the
// lease lapse; the worker's own claim, waiting for the same writer, ran
// first, took the job again as a new attempt and the running one lost it
// (TestProcessKilledAnywhereIsExactlyOnce left files PROCESSING after five
// such attempts). The claim now renews this queue's due leases before it
// takes lapsed ones. Here the renewals block until the end and the clock
// moves two leases on: the job keeps its one attempt.
func TestStarvedRenewalIsNotTakenByItsOwnWorker(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		clk := clock.NewFake(t0)
		const lease = time.Minute // no renewal timer fires during the test
		h := newHeldHandler()
		defer h.letGo()
		starved := &starvedRenewals{Store: s, release: make(chan struct{})}
		defer starved.letGo()
		// Two workers, so that the queue claims while the job runs.
		j := h.runAlone(t, starved, clk, lease, time.Hour, 2)
		clk.Advance(2 * lease)
		eventually(t, "a claim to renew the lease", func() bool { return jobState(t, s, j.ID).LockedUntil.After(t0.Add(2 * lease)) })
		time.Sleep(50 * time.Millisecond) // ten more claims
		if n := h.runs.Load(); n != 1 {
			t.Fatalf("the job ran %d times while its renewal was starved, want once", n)
		}
		starved.letGo()
		h.finish(t, s, j.ID)
	})
}

// starvedRenewals is a worker's store whose renewals outside a transaction
// (the renewal goroutine's) wait until the test lets them go, as behind a
// long write holding SQLite's writer.
type starvedRenewals struct {
	store.Store
	release chan struct{}
	once    sync.Once
}

func (s *starvedRenewals) ExtendJobLease(ctx context.Context, id, worker string, attempt int, until time.Time) error {
	select {
	case <-s.release:
	case <-ctx.Done():
		return ctx.Err()
	}
	return s.Store.ExtendJobLease(ctx, id, worker, attempt, until)
}

func (s *starvedRenewals) letGo() { s.once.Do(func() { close(s.release) }) }

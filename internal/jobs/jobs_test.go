package jobs_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

var t0 = time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

func newQueue(s store.Store, c clock.Clock, worker string, concurrency int) *jobs.Queue {
	return jobs.New(s, jobs.Options{Clock: c, Logger: quiet, Worker: worker, Concurrency: concurrency, PollInterval: 5 * time.Millisecond})
}

// start runs q until the test ends.
func start(t *testing.T, q *jobs.Queue) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { q.Run(ctx); close(done) }()
	var once sync.Once
	stop = func() { once.Do(func() { cancel(); <-done }) }
	t.Cleanup(stop)
	return stop
}

func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	// Generous: under -race, SQLite (C translated to Go) runs ~20x slower,
	// and CI shares two cores between packages. These are correctness tests.
	deadline := time.Now().Add(2 * time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

func jobState(t *testing.T, s store.Store, id string) store.Job {
	t.Helper()
	j, err := s.GetJob(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func outcomes(t *testing.T, s store.Store, id string) string {
	t.Helper()
	as, err := s.ListJobAttempts(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, a := range as {
		out = append(out, a.Outcome)
	}
	return fmt.Sprint(out)
}

// TestEachJobRunsExactlyOnce: several workers, hundreds of jobs.
func TestEachJobRunsExactlyOnce(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		const n, workers = 300, 4
		var mu sync.Mutex
		runs := map[string]int{}
		var total atomic.Int64
		handler := func(ctx context.Context, j store.Job) error {
			var p struct{ N int }
			if err := jobs.Decode(j, &p); err != nil {
				return err
			}
			mu.Lock()
			runs[fmt.Sprint(p.N)]++
			mu.Unlock()
			total.Add(1)
			return nil
		}
		var queues []*jobs.Queue
		for w := range workers {
			q := newQueue(s, clock.System{}, fmt.Sprintf("w%d", w), 3)
			q.Register("count", jobs.Policy{}, handler)
			queues = append(queues, q)
		}
		for i := range n {
			if _, err := queues[i%workers].Enqueue(context.Background(), s, "count", map[string]int{"N": i}); err != nil {
				t.Fatal(err)
			}
		}
		for _, q := range queues {
			start(t, q)
		}
		eventually(t, "all jobs to run", func() bool { return total.Load() >= n })
		time.Sleep(50 * time.Millisecond) // a double run would show up now
		mu.Lock()
		defer mu.Unlock()
		if len(runs) != n || total.Load() != n {
			t.Fatalf("%d distinct jobs ran %d times, want %d once each", len(runs), total.Load(), n)
		}
		for id, c := range runs {
			if c != 1 {
				t.Errorf("job %s ran %d times", id, c)
			}
		}
	})
}

// TestDeadWorkerJobRunsAgain: a worker that stops mid-job (never finishes)
// loses the job when its lease expires; another worker runs it; the dead
// worker's late result is dropped.
func TestDeadWorkerJobRunsAgain(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		clk := clock.NewFake(t0)
		policy := jobs.Policy{Timeout: time.Minute, MaxAttempts: 3}
		started, release := make(chan struct{}), make(chan struct{})
		var deadRuns, liveRuns atomic.Int64

		dying := newQueue(s, clk, "dying", 1)
		dying.Register("deliver", policy, func(ctx context.Context, j store.Job) error {
			deadRuns.Add(1)
			close(started)
			<-release // hangs like a process that froze or died
			return nil
		})
		j, err := dying.Enqueue(context.Background(), s, "deliver", nil)
		if err != nil {
			t.Fatal(err)
		}
		stopDying := start(t, dying)
		<-started

		live := newQueue(s, clk, "live", 1)
		live.Register("deliver", policy, func(ctx context.Context, j store.Job) error {
			liveRuns.Add(1)
			return nil
		})
		start(t, live)
		time.Sleep(30 * time.Millisecond)
		if liveRuns.Load() != 0 {
			t.Fatal("the job ran again while its lease was live")
		}
		clk.Advance(time.Minute + 16*time.Second) // past Timeout + lease grace
		live.Notify()
		eventually(t, "the job to run again", func() bool { return jobState(t, s, j.ID).State == store.JobSucceeded })

		close(release) // the "dead" worker comes back and reports success
		stopDying()
		if deadRuns.Load() != 1 || liveRuns.Load() != 1 {
			t.Errorf("runs: dying %d, live %d; want 1 each", deadRuns.Load(), liveRuns.Load())
		}
		got := jobState(t, s, j.ID)
		if got.Attempt != 2 || got.LockedBy != "" {
			t.Errorf("job %+v", got)
		}
		if o := outcomes(t, s, j.ID); o != "[lease_expired succeeded]" {
			t.Errorf("attempts %s", o)
		}
	})
}

// TestRetryScheduleAndManualRetry: 3 attempts 6 minutes apart, then failed;
// a manual retry runs it again.
func TestRetryScheduleAndManualRetry(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		clk := clock.NewFake(t0)
		var calls atomic.Int64
		succeed := atomic.Bool{}
		q := newQueue(s, clk, "w", 2)
		q.Register("deliver", jobs.Policy{MaxAttempts: 3, Backoff: jobs.Fixed(6 * time.Minute)}, func(ctx context.Context, j store.Job) error {
			calls.Add(1)
			if succeed.Load() {
				return nil
			}
			return errors.New("connection refused")
		})
		j, err := q.Enqueue(context.Background(), s, "deliver", []byte(`{"file":"x"}`))
		if err != nil {
			t.Fatal(err)
		}
		start(t, q)
		for attempt := 1; attempt <= 3; attempt++ {
			eventually(t, fmt.Sprintf("attempt %d", attempt), func() bool { return calls.Load() == int64(attempt) })
			want := store.JobAvailable
			if attempt == 3 {
				want = store.JobFailed
			}
			eventually(t, "the attempt to be recorded", func() bool { return jobState(t, s, j.ID).State == want })
			got := jobState(t, s, j.ID)
			if attempt < 3 && !got.RunAt.Equal(clk.Now().Add(6*time.Minute)) {
				t.Errorf("attempt %d: next run at %v, want 6 minutes later", attempt, got.RunAt)
			}
			time.Sleep(20 * time.Millisecond)
			if calls.Load() != int64(attempt) {
				t.Fatalf("attempt %d ran before its time", attempt+1)
			}
			clk.Advance(6 * time.Minute)
			q.Notify()
		}
		time.Sleep(20 * time.Millisecond)
		if calls.Load() != 3 {
			t.Fatalf("%d attempts, want 3", calls.Load())
		}
		if got := jobState(t, s, j.ID); got.LastError != "connection refused" {
			t.Errorf("last error %q", got.LastError)
		}
		succeed.Store(true)
		if err := q.Retry(context.Background(), j.ID); err != nil {
			t.Fatal(err)
		}
		eventually(t, "the manual retry", func() bool { return jobState(t, s, j.ID).State == store.JobSucceeded })
		if o := outcomes(t, s, j.ID); o != "[failed failed failed succeeded]" {
			t.Errorf("attempts %s", o)
		}
		if err := q.Retry(context.Background(), "missing"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("retry of a missing job: %v", err)
		}
	})
}

func TestPermanentErrorsAndPanicsAreNotRetriedForever(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	clk := clock.NewFake(t0)
	reg := prometheus.NewRegistry()
	q := jobs.New(s, jobs.Options{Clock: clk, Logger: quiet, Worker: "w", Concurrency: 2, PollInterval: 5 * time.Millisecond, Metrics: reg})
	q.Register("bad", jobs.Policy{MaxAttempts: 5}, func(ctx context.Context, j store.Job) error {
		return jobs.Permanent(errors.New("payer rejected the file"))
	})
	q.Register("panics", jobs.Policy{MaxAttempts: 1}, func(ctx context.Context, j store.Job) error {
		panic("nil map")
	})
	bad, _ := q.Enqueue(context.Background(), s, "bad", nil)
	pan, _ := q.Enqueue(context.Background(), s, "panics", nil)
	start(t, q)
	eventually(t, "both to fail", func() bool {
		return jobState(t, s, bad.ID).State == store.JobFailed && jobState(t, s, pan.ID).State == store.JobFailed
	})
	if got := jobState(t, s, bad.ID); got.Attempt != 1 || got.LastError != "payer rejected the file" {
		t.Errorf("permanent failure: %+v", got)
	}
	if got := jobState(t, s, pan.ID); got.LastError != "handler panic: nil map" {
		t.Errorf("panic: %+v", got)
	}
	eventually(t, "metrics", func() bool {
		return attemptsCounted(t, reg, "bad", "failed") == 1 && attemptsCounted(t, reg, "panics", "failed") == 1
	})
}

// attemptsCounted reads clearhouse_job_attempts_total{kind, outcome}.
func attemptsCounted(t *testing.T, reg *prometheus.Registry, kind, outcome string) float64 {
	t.Helper()
	families, err := reg.Gather()
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range families {
		if f.GetName() != "clearhouse_job_attempts_total" {
			continue
		}
		for _, m := range f.GetMetric() {
			labels := map[string]string{}
			for _, l := range m.GetLabel() {
				labels[l.GetName()] = l.GetValue()
			}
			if labels["kind"] == kind && labels["outcome"] == outcome {
				return m.GetCounter().GetValue()
			}
		}
	}
	return 0
}

func TestEnqueueRules(t *testing.T) {
	t.Parallel()
	s := storetest.SQLite(t)
	clk := clock.NewFake(t0)
	q := newQueue(s, clk, "w", 1)
	if _, err := q.Enqueue(context.Background(), s, "unknown", nil); err == nil {
		t.Error("enqueue of an unregistered kind succeeded")
	}
	ran := make(chan store.Job, 1)
	q.Register("later", jobs.Policy{MaxAttempts: 2}, func(ctx context.Context, j store.Job) error { ran <- j; return nil })
	a, _ := storetest.Seed(t, s, store.ModeTest)
	j, err := q.Enqueue(context.Background(), s, "later", struct {
		File string `json:"file"`
	}{"f1"}, jobs.At(t0.Add(time.Hour)), jobs.ForAccount(a.ID))
	if err != nil {
		t.Fatal(err)
	}
	if j.MaxAttempts != 2 || j.AccountID != a.ID || string(j.Payload) != `{"file":"f1"}` || !j.RunAt.Equal(t0.Add(time.Hour)) {
		t.Errorf("enqueued %+v", j)
	}
	start(t, q)
	select {
	case <-ran:
		t.Fatal("ran before its time")
	case <-time.After(30 * time.Millisecond):
	}
	clk.Advance(time.Hour)
	q.Notify()
	select {
	case got := <-ran:
		if got.ID != j.ID {
			t.Errorf("ran %s", got.ID)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("did not run once due")
	}
}

func TestBackoffPolicies(t *testing.T) {
	t.Parallel()
	exp := jobs.Exponential(time.Second, 10*time.Second)
	sched := jobs.Schedule(5*time.Second, 5*time.Minute, 30*time.Minute)
	tests := []struct {
		name string
		got  time.Duration
		want time.Duration
	}{
		{"fixed", jobs.Fixed(6 * time.Minute)(2), 6 * time.Minute},
		{"exp 1", exp(1), time.Second},
		{"exp 3", exp(3), 4 * time.Second},
		{"exp capped", exp(10), 10 * time.Second},
		{"schedule 1", sched(1), 5 * time.Second},
		{"schedule 3", sched(3), 30 * time.Minute},
		{"schedule past end", sched(9), 30 * time.Minute},
	}
	for _, tc := range tests {
		if tc.got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, tc.got, tc.want)
		}
	}
}

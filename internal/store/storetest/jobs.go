package storetest

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

func enqueue(t *testing.T, q store.Queries, kind string, maxAttempts int, runAt time.Time) store.Job {
	t.Helper()
	j, err := q.EnqueueJob(ctx, store.NewJob{Kind: kind, Payload: []byte(`{"n":1}`), MaxAttempts: maxAttempts,
		RunAt: runAt, CreatedAt: t0})
	must(t, err)
	return j
}

func claim(t *testing.T, s store.Queries, worker string, now time.Time, limit int, kinds ...string) []store.Job {
	t.Helper()
	jobs, err := s.ClaimJobs(ctx, store.ClaimParams{Worker: worker, Kinds: kinds, Now: now, Lease: time.Minute, Limit: limit})
	must(t, err)
	return jobs
}

func getJob(t *testing.T, s store.Store, id string) store.Job {
	t.Helper()
	j, err := s.GetJob(ctx, id)
	must(t, err)
	return j
}

func attemptOutcomes(t *testing.T, s store.Store, id string) []string {
	t.Helper()
	as, err := s.ListJobAttempts(ctx, id)
	must(t, err)
	var out []string
	for i, a := range as {
		if a.Attempt != i+1 {
			t.Errorf("attempt rows out of order: %+v", as)
		}
		out = append(out, a.Outcome)
	}
	return out
}

func testJobLifecycle(t *testing.T, s store.Store) {
	j := enqueue(t, s, "deliver", 3, t0)
	if j.State != store.JobAvailable || j.Attempt != 0 {
		t.Fatalf("new job %+v", j)
	}
	if got := claim(t, s, "w1", t0.Add(-time.Second), 10); len(got) != 0 {
		t.Fatalf("claimed %d jobs before run_at", len(got))
	}
	got := claim(t, s, "w1", t0, 10)
	if len(got) != 1 || got[0].ID != j.ID || got[0].Attempt != 1 || got[0].State != store.JobRunning ||
		got[0].LockedBy != "w1" || !got[0].LockedUntil.Equal(t0.Add(time.Minute)) || string(got[0].Payload) != `{"n":1}` {
		t.Fatalf("claimed %+v", got)
	}
	if again := claim(t, s, "w2", t0.Add(30*time.Second), 10); len(again) != 0 {
		t.Fatalf("a leased job was claimed again: %+v", again)
	}
	wantErr(t, s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: "w2", Attempt: 1, Now: t0}), store.ErrLeaseLost)
	wantErr(t, s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: "w1", Attempt: 2, Now: t0}), store.ErrLeaseLost)
	must(t, s.ExtendJobLease(ctx, j.ID, "w1", 1, t0.Add(5*time.Minute)))
	wantErr(t, s.ExtendJobLease(ctx, j.ID, "w2", 1, t0.Add(5*time.Minute)), store.ErrLeaseLost)
	must(t, s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: "w1", Attempt: 1, Now: t0.Add(time.Second)}))
	done := getJob(t, s, j.ID)
	if done.State != store.JobSucceeded || !done.FinishedAt.Equal(t0.Add(time.Second)) || done.LockedBy != "" {
		t.Errorf("completed job %+v", done)
	}
	wantErr(t, s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: "w1", Attempt: 1, Now: t0}), store.ErrLeaseLost)
	if got := attemptOutcomes(t, s, j.ID); fmt.Sprint(got) != "[succeeded]" {
		t.Errorf("attempts %v", got)
	}
	_, err := s.GetJob(ctx, "missing")
	wantErr(t, err, store.ErrNotFound)
}

func testJobRetrySchedule(t *testing.T, s store.Store) {
	j := enqueue(t, s, "deliver", 2, t0)
	c := claim(t, s, "w1", t0, 1)[0]
	retryAt := t0.Add(6 * time.Minute)
	must(t, s.FailJob(ctx, store.FinishParams{ID: j.ID, Worker: "w1", Attempt: c.Attempt, Now: t0, Error: "connection refused", RetryAt: retryAt}))
	after := getJob(t, s, j.ID)
	if after.State != store.JobAvailable || !after.RunAt.Equal(retryAt) || after.LastError != "connection refused" {
		t.Fatalf("after a failed attempt: %+v", after)
	}
	if got := claim(t, s, "w1", retryAt.Add(-time.Millisecond), 1); len(got) != 0 {
		t.Fatal("claimed before the retry time")
	}
	c = claim(t, s, "w2", retryAt, 1)[0]
	if c.Attempt != 2 {
		t.Fatalf("second claim attempt %d", c.Attempt)
	}
	must(t, s.FailJob(ctx, store.FinishParams{ID: j.ID, Worker: "w2", Attempt: 2, Now: retryAt, Error: "still refused"}))
	dead := getJob(t, s, j.ID)
	if dead.State != store.JobFailed || dead.FinishedAt.IsZero() {
		t.Fatalf("after the final failure: %+v", dead)
	}
	if got := claim(t, s, "w1", retryAt.Add(time.Hour), 1); len(got) != 0 {
		t.Fatal("a failed job was claimed")
	}
	as, err := s.ListJobAttempts(ctx, j.ID)
	must(t, err)
	if len(as) != 2 || as[0].Worker != "w1" || as[0].Error != "connection refused" || as[1].Worker != "w2" ||
		as[1].Outcome != store.AttemptFailed || !as[1].FinishedAt.Equal(retryAt) {
		t.Errorf("attempts %+v", as)
	}
}

func testJobLeaseExpiry(t *testing.T, s store.Store) {
	j := enqueue(t, s, "deliver", 3, t0)
	claim(t, s, "dead-worker", t0, 1)
	if got := claim(t, s, "w2", t0.Add(time.Minute-time.Microsecond), 1); len(got) != 0 {
		t.Fatal("claimed before the lease expired")
	}
	got := claim(t, s, "w2", t0.Add(time.Minute), 1)
	if len(got) != 1 || got[0].ID != j.ID || got[0].Attempt != 2 || got[0].LockedBy != "w2" {
		t.Fatalf("reclaim after lease expiry: %+v", got)
	}
	wantErr(t, s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: "dead-worker", Attempt: 1, Now: t0.Add(time.Minute)}), store.ErrLeaseLost)
	must(t, s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: "w2", Attempt: 2, Now: t0.Add(time.Minute)}))
	if got := attemptOutcomes(t, s, j.ID); fmt.Sprint(got) != "[lease_expired succeeded]" {
		t.Errorf("attempts %v", got)
	}
}

// testJobClaimAvailableOnly: a claim of available jobs only leaves a dead
// worker's job alone (and its attempt running) for the next full claim;
// the jobs it does claim get their attempt rows in one batch.
func testJobClaimAvailableOnly(t *testing.T, s store.Store) {
	dead := enqueue(t, s, "deliver", 3, t0)
	claim(t, s, "dead-worker", t0, 1)
	fresh := []store.Job{enqueue(t, s, "deliver", 3, t0.Add(time.Second)), enqueue(t, s, "deliver", 3, t0.Add(time.Second))}
	now := t0.Add(time.Hour)
	got, err := s.ClaimJobs(ctx, store.ClaimParams{Worker: "w2", Now: now, Lease: time.Minute, Limit: 5, AvailableOnly: true})
	must(t, err)
	ids := func(js []store.Job) []string { // RETURNING has no order
		var out []string
		for _, j := range js {
			out = append(out, j.ID)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(ids(got), ids(fresh)) {
		t.Fatalf("available-only claim: %+v", got)
	}
	for _, j := range fresh {
		if o := attemptOutcomes(t, s, j.ID); fmt.Sprint(o) != "[running]" {
			t.Errorf("attempts of %s: %v", j.ID, o)
		}
	}
	if o := attemptOutcomes(t, s, dead.ID); fmt.Sprint(o) != "[running]" {
		t.Errorf("the dead worker's attempt was swept by an available-only claim: %v", o)
	}
	if got := claim(t, s, "w2", now, 5); len(got) != 1 || got[0].ID != dead.ID || got[0].Attempt != 2 {
		t.Fatalf("full claim after: %+v", got)
	}
	if o := attemptOutcomes(t, s, dead.ID); fmt.Sprint(o) != "[lease_expired running]" {
		t.Errorf("attempts %v", o)
	}
}

func testJobLeaseExpiryLastAttempt(t *testing.T, s store.Store) {
	j := enqueue(t, s, "deliver", 1, t0)
	claim(t, s, "dead-worker", t0, 1)
	if got := claim(t, s, "w2", t0.Add(time.Hour), 1); len(got) != 0 {
		t.Fatalf("claimed a job past its last attempt: %+v", got)
	}
	dead := getJob(t, s, j.ID)
	if dead.State != store.JobFailed || dead.LastError == "" {
		t.Errorf("job after lease expiry on its only attempt: %+v", dead)
	}
	if got := attemptOutcomes(t, s, j.ID); fmt.Sprint(got) != "[lease_expired]" {
		t.Errorf("attempts %v", got)
	}
}

func testJobManualRetry(t *testing.T, s store.Store) {
	j := enqueue(t, s, "deliver", 1, t0)
	wantErr(t, s.RetryJob(ctx, j.ID, t0, 1), store.ErrConflict) // not finished yet
	c := claim(t, s, "w1", t0, 1)[0]
	wantErr(t, s.RetryJob(ctx, j.ID, t0, 1), store.ErrConflict) // running
	must(t, s.FailJob(ctx, store.FinishParams{ID: j.ID, Worker: "w1", Attempt: c.Attempt, Now: t0, Error: "x"}))
	later := t0.Add(time.Hour)
	must(t, s.RetryJob(ctx, j.ID, later, 3))
	r := getJob(t, s, j.ID)
	if r.State != store.JobAvailable || !r.RunAt.Equal(later) || r.MaxAttempts != 4 || !r.FinishedAt.IsZero() {
		t.Fatalf("after manual retry: %+v", r)
	}
	c = claim(t, s, "w1", later, 1)[0]
	if c.Attempt != 2 {
		t.Errorf("attempt after retry = %d, want 2 (history kept)", c.Attempt)
	}
	wantErr(t, s.RetryJob(ctx, "missing", t0, 1), store.ErrNotFound)
}

func testJobKinds(t *testing.T, s store.Store) {
	a := enqueue(t, s, "webhook", 1, t0)
	b := enqueue(t, s, "deliver", 1, t0)
	got := claim(t, s, "w1", t0, 10, "deliver", "other")
	if len(got) != 1 || got[0].ID != b.ID {
		t.Fatalf("claim of kind deliver: %+v", got)
	}
	got = claim(t, s, "w1", t0, 10)
	if len(got) != 1 || got[0].ID != a.ID {
		t.Fatalf("claim of any kind: %+v", got)
	}
}

// testJobExcludeAccounts: a claim skips the jobs of the accounts and
// modes it excludes (at their cap) and takes the others' past them, the
// same account's jobs of its other mode too, on both the sweeping and the
// available-only claim; jobs of no account are taken.
func testJobExcludeAccounts(t *testing.T, s store.Store) {
	var ids []string
	for i, sc := range []store.Scope{{AccountID: "acct_busy", Mode: store.ModeTest}, {AccountID: "acct_busy", Mode: store.ModeTest},
		{AccountID: "acct_free", Mode: store.ModeTest}, {AccountID: "acct_busy", Mode: store.ModeProduction},
		{AccountID: "acct_busy", Mode: store.ModeTest}, {}} {
		j, err := s.EnqueueJob(ctx, store.NewJob{Kind: "call", AccountID: sc.AccountID, Mode: sc.Mode, MaxAttempts: 1, RunAt: t0.Add(time.Duration(i) * time.Second), CreatedAt: t0})
		must(t, err)
		if j.Mode != sc.Mode {
			t.Fatalf("enqueued job's mode %q, want %q", j.Mode, sc.Mode)
		}
		ids = append(ids, j.ID)
	}
	for _, availableOnly := range []bool{true, false} {
		got, err := s.ClaimJobs(ctx, store.ClaimParams{Worker: "w1", Kinds: []string{"call"}, Now: t0.Add(time.Minute), Lease: time.Minute,
			Limit: 1, AvailableOnly: availableOnly, ExcludeScopes: []store.Scope{{AccountID: "acct_busy", Mode: store.ModeTest}, {AccountID: "acct_other", Mode: store.ModeTest}}})
		must(t, err)
		want, mode := ids[2], store.ModeTest
		if !availableOnly {
			want, mode = ids[3], store.ModeProduction
		}
		if len(got) != 1 || got[0].ID != want || got[0].Mode != mode {
			t.Fatalf("availableOnly %v: claimed %+v, want only %s (%s)", availableOnly, got, want, mode)
		}
	}
	if got := claim(t, s, "w1", t0.Add(time.Minute), 10); len(got) != 4 {
		t.Fatalf("without exclusions: %d jobs, want the busy account's 3 test jobs and the one of no account", len(got))
	}
}

func testJobEnqueueInTx(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	rollback := errors.New("rollback")
	var jobID string
	err := s.InTx(ctx, func(tx store.Queries) error {
		must(t, tx.InsertEligibilityCheck(ctx, newCheck(a, k, t0)))
		jobID = enqueue(t, tx, "deliver", 1, t0).ID
		return rollback
	})
	wantErr(t, err, rollback)
	_, err = s.GetJob(ctx, jobID)
	wantErr(t, err, store.ErrNotFound)
	if got := claim(t, s, "w1", t0, 10); len(got) != 0 {
		t.Fatal("a job enqueued in a rolled-back transaction was claimed")
	}
	must(t, s.InTx(ctx, func(tx store.Queries) error {
		jobID = enqueue(t, tx, "deliver", 1, t0).ID
		return nil
	}))
	if got := claim(t, s, "w1", t0, 10); len(got) != 1 || got[0].ID != jobID {
		t.Fatalf("committed job not claimed: %+v", got)
	}
}

// testJobConcurrentClaims: several claimers racing over hundreds of jobs
// claim each exactly once.
func testJobConcurrentClaims(t *testing.T, s store.Store) {
	const n, workers = 300, 4
	for range n {
		enqueue(t, s, "deliver", 1, t0)
	}
	var mu sync.Mutex
	seen := map[string]string{}
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			name := fmt.Sprintf("w%d", w)
			for {
				jobs, err := s.ClaimJobs(ctx, store.ClaimParams{Worker: name, Now: t0, Lease: time.Hour, Limit: 7})
				if err != nil {
					errs <- err
					return
				}
				if len(jobs) == 0 {
					return
				}
				for _, j := range jobs {
					mu.Lock()
					if prev, dup := seen[j.ID]; dup {
						errs <- fmt.Errorf("job %s claimed by %s and %s", j.ID, prev, name)
					}
					seen[j.ID] = name
					mu.Unlock()
					if err := s.CompleteJob(ctx, store.FinishParams{ID: j.ID, Worker: name, Attempt: j.Attempt, Now: t0}); err != nil {
						errs <- err
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if len(seen) != n {
		t.Errorf("%d of %d jobs claimed", len(seen), n)
	}
}

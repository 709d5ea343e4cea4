package store

import (
	"context"
	"errors"
	"strconv"
	"sync/atomic"
	"testing"
	"time"
)

// committedAccounts counts the accounts a reader sees, not through the
// store (whose reads wait for durability).
func committedAccounts(t *testing.T, s *sqlStore) int {
	t.Helper()
	var n int
	if err := s.reader.QueryRowContext(context.Background(), "SELECT count(*) FROM accounts").Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// waitFor polls cond for up to a minute.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// inOneRound runs fns as GroupInTx callers of one round, in their order:
// they arrive one by one while an fsync is held (a commit of a new account
// acct-held), each once the one before has run, and the fsync ends after
// the last. It returns their errors.
func inOneRound(t *testing.T, s *sqlStore, fns []func(tx Queries) error) []error {
	t.Helper()
	ctx := context.Background()
	gate, count := blockSync(s)
	first := make(chan error, 1)
	go func() {
		first <- s.CreateAccount(ctx, Account{ID: "acct-held", Name: "acct-held", CreatedAt: time.Now()})
	}()
	waitFor(t, "an fsync in flight", func() bool { return count.Load() == 1 })
	errs := make([]chan error, len(fns))
	for i, fn := range fns {
		errs[i] = make(chan error, 1)
		ran := make(chan struct{})
		go func() {
			errs[i] <- s.GroupInTx(ctx, func(tx Queries) error {
				defer close(ran)
				return fn(tx)
			})
		}()
		<-ran
	}
	close(gate)
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	out := make([]error, len(fns))
	for i, ch := range errs {
		out[i] = <-ch
	}
	return out
}

// TestRoundGathersWhileAnFsyncRuns: callers that arrive one by one while
// an fsync of the WAL is in flight share one commit, made when the fsync
// ends (a commit before would have waited for the next fsync anyway), and
// none of them is committed or answered before; a failing caller among
// them rolls back alone. Each case starts the callers at different
// moments so that they reach the open round at different points.
func TestRoundGathersWhileAnFsyncRuns(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name    string
		n       int
		failing int // index of the caller whose function fails (-1: none)
	}{
		{"one caller", 1, -1},
		{"ten callers", 10, -1},
		{"ten callers, the first fails", 10, 0},
		{"ten callers, one in the middle fails", 10, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := openTestSQLite(t)
			gate, count := blockSync(s)
			// A first commit whose fsync is held.
			first := make(chan error, 1)
			go func() {
				first <- s.GroupInTx(ctx, func(tx Queries) error {
					return tx.CreateAccount(ctx, Account{ID: "first", Name: "first", CreatedAt: time.Now()})
				})
			}()
			waitFor(t, "the first commit's fsync", func() bool { return count.Load() == 1 })
			commits := s.wal.begun.Load()
			boom := errors.New("boom")
			var answered atomic.Int64
			errs := make([]chan error, tc.n)
			for i := range tc.n {
				errs[i] = make(chan error, 1)
				ran := make(chan struct{})
				go func() {
					errs[i] <- s.GroupInTx(ctx, func(tx Queries) error {
						defer close(ran)
						if err := tx.CreateAccount(ctx, Account{ID: "a" + strconv.Itoa(i), Name: "n" + strconv.Itoa(i), CreatedAt: time.Now()}); err != nil {
							return err
						}
						if i == tc.failing {
							return boom
						}
						return nil
					})
					answered.Add(1)
				}()
				<-ran // the next arrives once this one has run in the open round
				time.Sleep(2 * time.Millisecond)
			}
			if got := committedAccounts(t, s); got != 1 {
				t.Errorf("%d accounts committed while the fsync was held, want only the first", got)
			}
			if got := s.wal.begun.Load(); got != commits {
				t.Errorf("%d commits while the fsync was held, want none", got-commits)
			}
			if a := answered.Load(); a != 0 {
				t.Errorf("%d callers answered while the fsync was held", a)
			}
			close(gate)
			if err := <-first; err != nil {
				t.Fatal(err)
			}
			for i, ch := range errs {
				err := <-ch
				if want := error(nil); i == tc.failing {
					if !errors.Is(err, boom) {
						t.Errorf("caller %d: %v, want %v", i, err, boom)
					}
				} else if err != want {
					t.Errorf("caller %d: %v", i, err)
				}
			}
			if got := s.wal.begun.Load() - commits; got != 1 {
				t.Errorf("the callers took %d commits, want one", got)
			}
			want := 1 + tc.n
			if tc.failing >= 0 {
				want--
			}
			if got := committedAccounts(t, s); got != want {
				t.Errorf("%d accounts committed, want %d", got, want)
			}
			if got, synced := count.Load(), s.wal.synced.Load(); got != 2 || synced < s.wal.begun.Load() {
				t.Errorf("%d fsyncs, %d of %d commits synced: want two fsyncs covering every commit", got, synced, s.wal.begun.Load())
			}
		})
	}
}

// TestRoundCommitsAtOnceWithoutFsync: with no fsync in flight, a round
// commits as soon as its callers have run (a sequential caller does not
// wait for anyone).
func TestRoundCommitsAtOnceWithoutFsync(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	s := openTestSQLite(t)
	_, count := blockSyncCounting(s)
	for i := range 5 {
		commits := s.wal.begun.Load()
		if err := s.GroupInTx(ctx, func(tx Queries) error {
			return tx.CreateAccount(ctx, Account{ID: "a" + strconv.Itoa(i), Name: "n" + strconv.Itoa(i), CreatedAt: time.Now()})
		}); err != nil {
			t.Fatal(err)
		}
		if got := s.wal.begun.Load() - commits; got != 1 {
			t.Fatalf("caller %d: %d commits, want one", i, got)
		}
	}
	if got := count.Load(); got != 5 {
		t.Errorf("%d fsyncs for 5 sequential callers, want 5", got)
	}
}

// blockSyncCounting counts s's WAL fsyncs without holding them.
func blockSyncCounting(s *sqlStore) (func() error, *atomic.Int64) {
	count := new(atomic.Int64)
	real := s.wal.sync
	s.wal.sync = func() error {
		count.Add(1)
		return real()
	}
	return real, count
}

// TestLoneCallerTakesInTheQueued: a caller that began a round alone (no
// savepoint) takes in the callers queued while its function ran; if its
// function fails, the transaction rolls back before any is taken in, and
// they commit in the next round.
func TestLoneCallerTakesInTheQueued(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name        string
		firstFails  bool
		wantCommits uint64
	}{
		{"the first succeeds", false, 1},
		{"the first fails", true, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s := openTestSQLite(t)
			const n = 5
			commits := s.wal.begun.Load()
			boom := errors.New("boom")
			hold, holding := make(chan struct{}), make(chan struct{})
			first := make(chan error, 1)
			go func() {
				first <- s.GroupInTx(ctx, func(tx Queries) error {
					close(holding)
					<-hold
					if err := tx.CreateAccount(ctx, Account{ID: "first", Name: "first", CreatedAt: time.Now()}); err != nil {
						return err
					}
					if tc.firstFails {
						return boom
					}
					return nil
				})
			}()
			<-holding
			errs := make(chan error, n)
			for i := range n {
				go func() {
					errs <- s.GroupInTx(ctx, func(tx Queries) error {
						return tx.CreateAccount(ctx, Account{ID: "a" + strconv.Itoa(i), Name: "n" + strconv.Itoa(i), CreatedAt: time.Now()})
					})
				}()
			}
			waitFor(t, "the callers to queue", func() bool {
				s.group.mu.Lock()
				defer s.group.mu.Unlock()
				return len(s.group.queue) == n
			})
			close(hold)
			if err := <-first; (err != nil) != tc.firstFails {
				t.Fatalf("first caller: %v", err)
			}
			for range n {
				if err := <-errs; err != nil {
					t.Fatal(err)
				}
			}
			if got := s.wal.begun.Load() - commits; got != tc.wantCommits {
				t.Errorf("%d commits, want %d", got, tc.wantCommits)
			}
			want := n + 1
			if tc.firstFails {
				want = n
			}
			if got := committedAccounts(t, s); got != want {
				t.Errorf("%d accounts committed, want %d", got, want)
			}
		})
	}
}

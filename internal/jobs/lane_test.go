package jobs_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestLanesAndAccountCaps: one account's outbound jobs that never end
// (a receiver that never answers) hold neither the files' workers nor more
// than their account's share of the outbound ones: another account's
// outbound job and a file job both run at once.
func TestLanesAndAccountCaps(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		const perAccount = 2
		q := jobs.New(s, jobs.Options{Clock: clock.System{}, Logger: quiet, Worker: "w", Concurrency: 1,
			PollInterval: 5 * time.Millisecond,
			Lanes:        map[string]jobs.Lane{jobs.LaneOutbound: {Concurrency: 4, PerAccount: perAccount}}})
		release := make(chan struct{})
		var mu sync.Mutex
		running, most := map[string]int{}, map[string]int{}
		ran := map[string]bool{}
		q.Register("call", jobs.Policy{Lane: jobs.LaneOutbound, Timeout: time.Minute}, func(ctx context.Context, j store.Job) error {
			mu.Lock()
			running[j.AccountID]++
			most[j.AccountID] = max(most[j.AccountID], running[j.AccountID])
			ran[j.ID] = true
			mu.Unlock()
			if j.AccountID == "acct_slow" {
				<-release // the receiver that never answers
			}
			mu.Lock()
			running[j.AccountID]--
			mu.Unlock()
			return nil
		})
		q.Register("file", jobs.Policy{}, func(ctx context.Context, j store.Job) error {
			mu.Lock()
			ran[j.ID] = true
			mu.Unlock()
			return nil
		})
		ctx := context.Background()
		for range 10 {
			if _, err := q.Enqueue(ctx, s, "call", nil, jobs.ForAccount("acct_slow")); err != nil {
				t.Fatal(err)
			}
		}
		stop := start(t, q)
		eventually(t, "the slow account to fill its share", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return running["acct_slow"] == perAccount
		})
		other, err := q.Enqueue(ctx, s, "call", nil, jobs.ForAccount("acct_other"))
		if err != nil {
			t.Fatal(err)
		}
		file, err := q.Enqueue(ctx, s, "file", nil, jobs.ForAccount("acct_other"))
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "the other account's call and file", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return ran[other.ID] && ran[file.ID]
		})
		time.Sleep(50 * time.Millisecond) // a claim past the cap would show now
		mu.Lock()
		if most["acct_slow"] != perAccount {
			t.Errorf("the slow account ran %d calls at once, want its cap %d", most["acct_slow"], perAccount)
		}
		mu.Unlock()
		close(release)
		eventually(t, "the slow account's calls, in turn", func() bool {
			mu.Lock()
			defer mu.Unlock()
			return len(ran) == 12
		})
		stop()
		mu.Lock()
		defer mu.Unlock()
		if most["acct_slow"] > perAccount {
			t.Errorf("the slow account ran %d calls at once, cap %d", most["acct_slow"], perAccount)
		}
	})
}

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

// outboundQueue is a queue of one default worker whose outbound lane has
// concurrency workers and caps each account and mode at perAccount.
func outboundQueue(s store.Store, concurrency, perAccount int) *jobs.Queue {
	return jobs.New(s, jobs.Options{Clock: clock.System{}, Logger: quiet, Worker: "w", Concurrency: 1,
		PollInterval: 5 * time.Millisecond,
		Lanes:        map[string]jobs.Lane{jobs.LaneOutbound: {Concurrency: concurrency, PerAccount: perAccount}}})
}

// TestLanesAndAccountCaps: one account's outbound jobs that never end
// (a receiver that never answers) hold neither the files' workers nor more
// than their account's share of the outbound ones: another account's
// outbound job and a file job both run at once.
func TestLanesAndAccountCaps(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		const perAccount = 2
		q := outboundQueue(s, 4, perAccount)
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

// TestLaneCapIsPerMode: an account's test-mode outbound jobs that never
// end (a test key, handed out freely, flooding test work at a receiver
// that never answers) fill only that account's test-mode share: the same
// account's production job and another account's test job both run while
// the flood holds its share, and the flood never passes it.
func TestLaneCapIsPerMode(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		s := open(t)
		const perAccount = 2
		q := outboundQueue(s, 8, perAccount)
		release := make(chan struct{})
		c := &scopeCalls{running: map[store.Scope]int{}, most: map[store.Scope]int{}, ran: map[string]bool{}}
		flood := store.Scope{AccountID: "acct_a", Mode: store.ModeTest}
		q.Register("call", jobs.Policy{Lane: jobs.LaneOutbound, Timeout: time.Minute}, func(ctx context.Context, j store.Job) error {
			defer c.began(j)()
			if (store.Scope{AccountID: j.AccountID, Mode: j.Mode}) == flood {
				<-release // the receiver that never answers
			}
			return nil
		})
		ctx := context.Background()
		for range 10 {
			if _, err := q.Enqueue(ctx, s, "call", nil, jobs.ForTenant(flood.AccountID, flood.Mode)); err != nil {
				t.Fatal(err)
			}
		}
		start(t, q)
		var once sync.Once
		unblock := func() { once.Do(func() { close(release) }) }
		t.Cleanup(unblock) // before the queue's stop (cleanups run last first): a failed test's calls end
		eventually(t, "the test-mode flood to fill its share", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.running[flood] == perAccount
		})
		production, err := q.Enqueue(ctx, s, "call", nil, jobs.ForTenant("acct_a", store.ModeProduction))
		if err != nil {
			t.Fatal(err)
		}
		other, err := q.Enqueue(ctx, s, "call", nil, jobs.ForTenant("acct_b", store.ModeTest))
		if err != nil {
			t.Fatal(err)
		}
		eventually(t, "acct_a's production call and acct_b's test call, past the flood", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return c.ran[production.ID] && c.ran[other.ID]
		})
		c.mu.Lock()
		if c.most[flood] != perAccount {
			t.Errorf("the flood ran %d calls at once, want its cap %d", c.most[flood], perAccount)
		}
		c.mu.Unlock()
		unblock()
		eventually(t, "the flood's calls, in turn", func() bool {
			c.mu.Lock()
			defer c.mu.Unlock()
			return len(c.ran) == 12
		})
	})
}

// scopeCalls counts the calls running for each account and mode, the most
// at once, and the jobs that ran.
type scopeCalls struct {
	mu      sync.Mutex
	running map[store.Scope]int
	most    map[store.Scope]int
	ran     map[string]bool
}

// began counts j's call as running until the func it returns is called.
func (c *scopeCalls) began(j store.Job) (ended func()) {
	sc := store.Scope{AccountID: j.AccountID, Mode: j.Mode}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.running[sc]++
	c.most[sc] = max(c.most[sc], c.running[sc])
	c.ran[j.ID] = true
	return func() {
		c.mu.Lock()
		c.running[sc]--
		c.mu.Unlock()
	}
}

package jobs

import (
	"cmp"
	"context"
	"slices"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Lanes: each kind runs in one lane, a pool of workers of its own, so the
// work of one class cannot take the workers of another. A webhook whose
// receiver never answers holds an outbound worker for the whole timeout;
// in the files' lane it would hold up every account's files.
const (
	// LaneDefault runs inbound files, claims and the other work done
	// here: Options.Concurrency workers.
	LaneDefault = ""
	// LaneOutbound runs calls to other systems whose time is theirs to
	// spend: webhook attempts, delivery of outbound files.
	LaneOutbound = "outbound"
)

// Lane sizes one lane.
type Lane struct {
	// Concurrency is how many of the lane's jobs run at once in this
	// process (default Options.Concurrency).
	Concurrency int
	// PerAccount is how many of them one account in one mode may run at
	// once in this process (0: no cap). An account at its cap in a mode
	// has its further jobs of that mode left in the table, unclaimed,
	// until one of its running jobs ends: they wait without holding a
	// worker, and the other accounts' jobs, and its own of the other mode,
	// are claimed past them (a test key is handed out freely; its flood
	// must not take production's share). Jobs of no account are not capped.
	PerAccount int
}

// lane is a lane's workers: its kinds, its wake-up and its accounts'
// running jobs.
type lane struct {
	name  string
	size  Lane
	wake  chan struct{}
	mu    sync.Mutex
	kinds []string
	// running counts each account and mode's jobs in hand (PerAccount
	// only).
	running map[store.Scope]int
}

func newLane(name string, size Lane) *lane {
	return &lane{name: name, size: size, wake: make(chan struct{}, 1), running: map[store.Scope]int{}}
}

func (l *lane) notify() {
	select {
	case l.wake <- struct{}{}:
	default:
	}
}

// claimLimit is how many jobs the next claim may take with free workers,
// and the accounts and modes it must skip, so that none passes PerAccount
// even if every job claimed were its own.
func (l *lane) claimLimit(free int) (limit int, exclude []store.Scope) {
	if l.size.PerAccount <= 0 {
		return free, nil
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	busiest := 0
	for scope, n := range l.running {
		if n >= l.size.PerAccount {
			exclude = append(exclude, scope)
		} else {
			busiest = max(busiest, n)
		}
	}
	// One order, so one set is one list of arguments.
	slices.SortFunc(exclude, func(a, b store.Scope) int {
		return cmp.Or(cmp.Compare(a.AccountID, b.AccountID), cmp.Compare(a.Mode, b.Mode))
	})
	return min(free, l.size.PerAccount-busiest), exclude
}

// took and done keep the accounts' running counts.
func (l *lane) took(j store.Job) {
	if l.size.PerAccount <= 0 || j.AccountID == "" {
		return
	}
	l.mu.Lock()
	l.running[store.Scope{AccountID: j.AccountID, Mode: j.Mode}]++
	l.mu.Unlock()
}

func (l *lane) done(j store.Job) {
	if l.size.PerAccount <= 0 || j.AccountID == "" {
		return
	}
	scope := store.Scope{AccountID: j.AccountID, Mode: j.Mode}
	l.mu.Lock()
	if l.running[scope]--; l.running[scope] <= 0 {
		delete(l.running, scope)
	}
	l.mu.Unlock()
}

// laneOf returns the lane named name, made on first use with its size from
// Options.Lanes. The caller holds q.mu.
func (q *Queue) laneOf(name string) *lane {
	if l, ok := q.lanes[name]; ok {
		return l
	}
	size := q.opts.Lanes[name]
	if size.Concurrency < 1 {
		size.Concurrency = q.opts.Concurrency
	}
	l := newLane(name, size)
	q.lanes[name] = l
	return l
}

// runLane works the lane's jobs until ctx is cancelled, then waits for
// the jobs in hand.
func (q *Queue) runLane(ctx context.Context, l *lane) {
	q.mu.RLock()
	kinds := slices.Clone(l.kinds)
	q.mu.RUnlock()
	// One order, so the claim is one statement text (prepared once).
	slices.Sort(kinds)
	slots := make(chan struct{}, l.size.Concurrency)
	var wg sync.WaitGroup
	defer wg.Wait()
	ticker := time.NewTicker(q.opts.PollInterval)
	defer ticker.Stop()
	var swept time.Time
	failing := claimFailures{logger: q.opts.Logger.With("worker", q.opts.Worker, "lane", l.name)}
	for {
		if free := cap(slots) - len(slots); free > 0 {
			limit, exclude := l.claimLimit(free)
			// Jobs of dead workers are looked for once a poll interval;
			// the claims between take only available jobs, in fewer
			// statements (a claim follows every job that finishes).
			sweep := time.Since(swept) >= q.opts.PollInterval*9/10 // the ticker may fire a little early
			if sweep {
				swept = time.Now()
			}
			claimed, err := q.claim(ctx, store.ClaimParams{Kinds: kinds, Limit: limit, AvailableOnly: !sweep, ExcludeScopes: exclude})
			if err != nil && ctx.Err() == nil {
				// The store cannot take a claim (full disk, database
				// down): wait longer each time, not for the next wake.
				select {
				case <-ctx.Done():
					return
				case <-time.After(failing.failed(err, q.opts.PollInterval, time.Now())):
				}
				continue
			}
			if err == nil {
				failing.succeeded()
			}
			for _, j := range claimed {
				slots <- struct{}{}
				l.took(j)
				wg.Go(func() {
					defer func() { l.done(j); <-slots; l.notify() }()
					q.work(context.WithoutCancel(ctx), j)
				})
			}
			if len(claimed) == limit && limit > 0 {
				continue // there may be more due right now
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		case <-l.wake:
		}
	}
}

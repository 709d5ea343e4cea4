package store

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// txGroup is SQLite's group commit for any transaction (GroupInTx). SQLite
// has one writer and each commit pays a WAL write and sync; transactions
// arriving while one commits wait and then run together, each inside its
// own SAVEPOINT, in the next transaction; while an fsync of the WAL is in
// flight the next transaction stays open and takes in whoever arrives
// (gather). The first caller of a round leads it; a leader that finds more
// waiting hands the next round to a new goroutine, so no caller waits for
// more than its own round.
type txGroup struct {
	mu      sync.Mutex
	queue   []*groupedTx
	running bool
	// arrived has a token when a caller queued while a round ran: a round
	// gathering during an fsync (gather) wakes for it.
	arrived chan struct{}
}

type groupedTx struct {
	ctx  context.Context
	fn   func(tx Queries) error
	err  error
	done chan struct{}
}

// maxGroup bounds one round (and so the latency of its first caller).
const maxGroup = 64

// groupTimeout bounds one round's transaction.
const groupTimeout = 30 * time.Second

// GroupInTx runs fn in a transaction like InTx, but on SQLite shares the
// transaction with other GroupInTx calls that arrive while a commit runs:
// fn runs inside its own SAVEPOINT, so an error from fn rolls back only
// fn's writes, and GroupInTx returns once the shared transaction is
// committed (nil) or failed. fn must use only tx and must not keep it. On
// PostgreSQL, whose writers run in parallel, it is InTx.
func (s *sqlStore) GroupInTx(ctx context.Context, fn func(tx Queries) error) error {
	if s.engine != EngineSQLite {
		return s.InTx(ctx, fn)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	t := &groupedTx{ctx: ctx, fn: fn, done: make(chan struct{})}
	g := &s.group
	g.mu.Lock()
	if g.arrived == nil {
		g.arrived = make(chan struct{}, 1)
	}
	g.queue = append(g.queue, t)
	lead := !g.running
	g.running = true
	arrived := g.arrived
	g.mu.Unlock()
	if lead {
		s.leadGroup()
	} else {
		select {
		case arrived <- struct{}{}:
		default: // a token is there already
		}
	}
	<-t.done
	return t.err
}

// leadGroup runs one round, hands the next to another goroutine as soon
// as the round's COMMIT has returned (so the next round runs its callers'
// functions while this one's fsync runs, and gathers more until it ends:
// gather), then waits for this round to be durable and answers its
// callers.
func (s *sqlStore) leadGroup() {
	g := &s.group
	round := s.take(maxGroup)
	ctx, cancel := context.WithTimeout(context.Background(), groupTimeout)
	defer cancel()
	seq, round, err := s.runGroup(ctx, round)
	g.mu.Lock()
	if len(g.queue) == 0 {
		g.running = false
	} else {
		go s.leadGroup()
	}
	g.mu.Unlock()
	if derr := s.wal.durable(ctx, seq); err == nil {
		err = derr
	}
	for _, t := range round {
		if err != nil && t.err == nil {
			t.err = err // the shared commit failed: nothing of t was kept (or it is not known to be durable)
		}
		close(t.done)
	}
}

// take removes up to n callers from the queue, oldest first.
func (s *sqlStore) take(n int) []*groupedTx {
	g := &s.group
	g.mu.Lock()
	defer g.mu.Unlock()
	n = min(len(g.queue), n)
	round := g.queue[:n:n]
	g.queue = g.queue[n:]
	return round
}

// gather returns callers (at most n) to add to a round that has run its
// functions and is about to commit. While an fsync of the WAL is in
// flight, it waits for callers to queue: a COMMIT now would wait for the
// next fsync anyway (one that begins after it), so the round stays open
// until the fsync ends and takes in the callers arriving meanwhile; every
// commit then pays its fixed costs (BEGIN, the WAL frames of the shared
// B-tree pages, the chain head, the fsync) for more callers. It returns
// nil when none is queued and no fsync is in flight: commit now.
func (s *sqlStore) gather(ctx context.Context, n int) []*groupedTx {
	g := &s.group
	for {
		if round := s.take(n); len(round) > 0 {
			return round
		}
		syncing := s.wal.syncing()
		if syncing == nil {
			return nil
		}
		select {
		case <-syncing:
			return s.take(n)
		case <-g.arrived:
		case <-ctx.Done():
			return nil
		}
	}
}

// runGroup runs round's functions in one transaction, with those of the
// callers gather adds, and commits it; it returns the commit's number for
// walSync and the round as it grew.
func (s *sqlStore) runGroup(ctx context.Context, round []*groupedTx) (uint64, []*groupedTx, error) {
	n, err := s.commitTx(ctx, func(q *queries) error {
		// A caller alone in its round, with no fsync in flight to gather
		// others during, needs no savepoint: its error rolls back the
		// transaction.
		if len(round) == 1 && s.wal.syncing() == nil {
			t := round[0]
			if t.err = t.ctx.Err(); t.err != nil {
				return errRolledBack
			}
			p := q.w.pend
			p.start(false)
			if t.err = t.fn(q); t.err != nil {
				p.end()
				return errRolledBack
			}
			if t.err, _ = p.finish(ctx); t.err != nil {
				return errRolledBack
			}
			round = append(round, s.gather(ctx, maxGroup-1)...)
			return s.runSaved(ctx, q, &round, 1)
		}
		return s.runSaved(ctx, q, &round, 0)
	})
	if errors.Is(err, errRolledBack) {
		err = nil // the round's only caller failed: its t.err says why
	}
	return n, round, err
}

// errRolledBack rolls back a round whose only caller failed.
var errRolledBack = errors.New("store: the round's only caller failed")

// runSaved runs the functions of (*round)[from:], each inside its own
// SAVEPOINT, then those gather adds, until gather has none or the round
// is full.
func (s *sqlStore) runSaved(ctx context.Context, q *queries, round *[]*groupedTx, from int) error {
	for {
		for _, t := range (*round)[from:] {
			if t.err = t.ctx.Err(); t.err != nil {
				continue
			}
			q.heads.keep() // what the callers before moved
			// The SAVEPOINT comes with the caller's first statement, if it
			// runs one; a caller that only records a check runs one
			// INSERT at the end, atomic without it (checkrows.go).
			p := q.w.pend
			p.start(true)
			if t.err = t.fn(q); t.err == nil {
				var roundErr error
				if t.err, roundErr = p.finish(ctx); roundErr != nil {
					return roundErr
				}
			} else {
				p.end()
			}
			if p.err != nil {
				return p.err // its SAVEPOINT failed
			}
			if t.err != nil {
				if p.saved {
					if _, err := q.w.exec(ctx, "ROLLBACK TO grouped"); err != nil {
						return fmt.Errorf("store: rollback to savepoint: %w", err)
					}
				}
				q.heads.drop()
			}
			if p.saved {
				if _, err := q.w.exec(ctx, "RELEASE grouped"); err != nil {
					return fmt.Errorf("store: release savepoint: %w", err)
				}
			}
			q.heads.keep()
		}
		from = len(*round)
		if from >= maxGroup {
			return nil
		}
		more := s.gather(ctx, maxGroup-from)
		if len(more) == 0 {
			return nil
		}
		*round = append(*round, more...)
	}
}

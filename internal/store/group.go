package store

import (
	"context"
	"fmt"
	"sync"
	"time"
)

// txGroup is SQLite's group commit for any transaction (GroupInTx). SQLite
// has one writer and each commit pays a WAL write and sync; transactions
// arriving while one commits wait and then run together, each inside its
// own SAVEPOINT, in the next transaction. The first caller of a round leads
// it; a leader that finds more waiting hands the next round to a new
// goroutine, so no caller waits for more than its own round.
type txGroup struct {
	mu      sync.Mutex
	queue   []*groupedTx
	running bool
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
	g.queue = append(g.queue, t)
	lead := !g.running
	g.running = true
	g.mu.Unlock()
	if lead {
		s.leadGroup()
	}
	<-t.done
	return t.err
}

// leadGroup runs one round, hands the next to another goroutine as soon
// as the round's COMMIT has returned (so the next round runs while this
// one's fsync does: walSync), then waits for this round to be durable and
// answers its callers.
func (s *sqlStore) leadGroup() {
	g := &s.group
	g.mu.Lock()
	n := min(len(g.queue), maxGroup)
	round := g.queue[:n:n]
	g.queue = g.queue[n:]
	g.mu.Unlock()
	ctx, cancel := context.WithTimeout(context.Background(), groupTimeout)
	defer cancel()
	seq, err := s.runGroup(ctx, round)
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

// runGroup runs round's functions in one transaction and commits it; it
// returns the commit's number for walSync.
func (s *sqlStore) runGroup(ctx context.Context, round []*groupedTx) (uint64, error) {
	if len(round) == 1 {
		// Alone in its round: no savepoint needed, its error rolls
		// back the transaction.
		t := round[0]
		if t.err = t.ctx.Err(); t.err != nil {
			return 0, nil
		}
		n, err := s.commitTx(ctx, func(q *queries) error {
			t.err = t.fn(q)
			return t.err
		})
		if t.err != nil {
			return n, nil // rolled back: t.err says why
		}
		return n, err
	}
	return s.commitTx(ctx, func(q *queries) error {
		for _, t := range round {
			if t.err = t.ctx.Err(); t.err != nil {
				continue
			}
			if _, err := q.w.exec(ctx, "SAVEPOINT grouped"); err != nil {
				return fmt.Errorf("store: savepoint: %w", err)
			}
			if t.err = t.fn(q); t.err != nil {
				if _, err := q.w.exec(ctx, "ROLLBACK TO grouped"); err != nil {
					return fmt.Errorf("store: rollback to savepoint: %w", err)
				}
			}
			if _, err := q.w.exec(ctx, "RELEASE grouped"); err != nil {
				return fmt.Errorf("store: release savepoint: %w", err)
			}
		}
		return nil
	})
}

package store

import (
	"context"
	"errors"
	"slices"
	"sync"
)

// checkBatcher is SQLite's group commit for eligibility checks. SQLite has
// one writer, and a transaction's fixed costs (BEGIN, the commit's WAL
// frames for the shared index pages, the write syscalls) outweigh one
// check's rows, so checks arriving while a commit runs wait for it and are
// then inserted together in the next transaction. Each caller still returns
// only once its check is committed. A batch that fails is retried one check
// per transaction, so one bad check (a duplicate id) fails alone.
type checkBatcher struct {
	s        *sqlStore
	pending  chan *pendingCheck
	stop     chan struct{} // closed by close
	finished chan struct{} // closed when run has returned
	closing  sync.Once
}

type pendingCheck struct {
	check EligibilityCheck
	err   chan error // buffered: the batcher never blocks on a caller who left
}

// maxCheckBatch bounds one transaction (and so the latency of its first check).
const maxCheckBatch = 64

// errStoreClosed answers inserts after Close.
var errStoreClosed = errors.New("store: closed")

func newCheckBatcher(s *sqlStore) *checkBatcher {
	b := &checkBatcher{s: s, pending: make(chan *pendingCheck, maxCheckBatch),
		stop: make(chan struct{}), finished: make(chan struct{})}
	go b.run()
	return b
}

// insert queues c and waits until it is committed, ctx ends, or the store
// closes. A check whose caller gave up may still be committed.
func (b *checkBatcher) insert(ctx context.Context, c EligibilityCheck) error {
	p := &pendingCheck{check: c, err: make(chan error, 1)}
	select {
	case <-b.stop:
		return errStoreClosed
	default:
	}
	select {
	case b.pending <- p:
	case <-b.stop:
		return errStoreClosed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case err := <-p.err:
		return err
	case <-b.finished:
		// Closed while queued: drain answered it, or it was queued after.
		select {
		case err := <-p.err:
			return err
		default:
			return errStoreClosed
		}
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (b *checkBatcher) run() {
	defer close(b.finished)
	batch := make([]*pendingCheck, 0, maxCheckBatch)
	for {
		select {
		case p := <-b.pending:
			batch = append(batch[:0], p)
		case <-b.stop:
			b.drain()
			return
		}
		// Everything that queued up during the last commit goes in this one.
	more:
		for len(batch) < maxCheckBatch {
			select {
			case p := <-b.pending:
				batch = append(batch, p)
			default:
				break more
			}
		}
		b.commit(batch)
	}
}

// commit inserts batch in one transaction, or, if that fails, each check in
// its own.
func (b *checkBatcher) commit(batch []*pendingCheck) {
	// Callers' contexts do not apply, since a batch serves several of them.
	// No deadline either: the SQLite driver watches a cancelable context
	// with a goroutine per statement, and the writer cannot be held up by
	// anything but SQLite itself (whose busy timeout bounds lock waits).
	ctx := context.Background()
	n, err := b.s.commitTx(ctx, func(q *queries) error {
		for _, p := range batch {
			if err := q.InsertEligibilityCheck(ctx, p.check); err != nil {
				return err
			}
		}
		return nil
	})
	if err == nil || len(batch) == 1 {
		// The next batch commits while this one's fsync runs (walSync).
		answer := slices.Clone(batch)
		go func() {
			if derr := b.s.wal.durable(ctx, n); err == nil {
				err = derr
			}
			for _, p := range answer {
				p.err <- err
			}
		}()
		return
	}
	for _, p := range batch {
		p.err <- b.s.queries.InsertEligibilityCheck(ctx, p.check)
	}
}

// drain fails what is still queued when the store closes.
func (b *checkBatcher) drain() {
	for {
		select {
		case p := <-b.pending:
			p.err <- errStoreClosed
		default:
			return
		}
	}
}

func (b *checkBatcher) close() {
	b.closing.Do(func() { close(b.stop) })
	<-b.finished
}

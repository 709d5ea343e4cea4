package core

import (
	"context"
	"sync"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
)

// valueSink stores the search rows of a pass's business identifiers
// (store.InsertIdentifierValues) on a goroutine of its own while the pass
// reads on: one row per claim into the value index is the largest part of
// an inbound file's records, and it no longer waits for the pass to end.
//
// The rows name transactions whose records do not exist yet; no search
// finds them until the records' transaction writes those (the search is
// scoped by the transactions' rows), and the records are written only after
// close returned nil. A file that fails removes them with its failure
// (deleteValues); a pass that dies leaves them to the next attempt, which
// replaces them (replace: the execution was already PROCESSING).
//
// Each batch is one database transaction of up to identifierBatch rows,
// and it renews the job's lease in its last statement (jobs.Hold): on
// SQLite it holds the only writer while it runs, which every other
// renewal waits for (4–20 s a batch under -race at load), and an attempt
// that has lost its job to another stores nothing more.
//
// Memory is bounded: at most identifierBatch identifiers are gathered, and
// two such batches wait for the goroutine.
type valueSink struct {
	ctx     context.Context
	st      store.Store
	replace bool

	cur  []pendingValue
	ch   chan []pendingValue
	free chan []pendingValue
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

type pendingValue struct {
	txID string
	id   store.BusinessIdentifier
}

func newValueSink(ctx context.Context, st store.Store, replace bool) *valueSink {
	v := &valueSink{ctx: ctx, st: st, replace: replace, ch: make(chan []pendingValue, 2), free: make(chan []pendingValue, 3)}
	for range 3 {
		v.free <- nil
	}
	v.cur = <-v.free
	v.wg.Add(1)
	go v.run(v.ch) // its own copy: close clears v.ch
	return v
}

// add queues one identifier of transaction txID; element, id and name are
// shared between identifiers, value is the caller's to give away.
func (v *valueSink) add(txID string, id store.BusinessIdentifier) error {
	v.cur = append(v.cur, pendingValue{txID: txID, id: id})
	if len(v.cur) >= identifierBatch {
		v.flush()
	}
	return v.error()
}

func (v *valueSink) flush() {
	if len(v.cur) == 0 {
		return
	}
	v.ch <- v.cur
	v.cur = (<-v.free)[:0]
}

func (v *valueSink) error() error {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.err
}

// close stores what is left and waits for the goroutine: nil means every
// identifier queued is committed.
func (v *valueSink) close() error {
	if v.ch == nil {
		return v.error()
	}
	v.flush()
	close(v.ch)
	v.ch = nil
	v.wg.Wait()
	return v.error()
}

func (v *valueSink) run(ch <-chan []pendingValue) {
	defer v.wg.Done()
	var ids []store.BusinessIdentifier
	for batch := range ch {
		if v.error() == nil {
			// One database transaction per batch (sets of 1,000 claims
			// share one), each transaction's identifiers in one call.
			err := v.st.InTx(v.ctx, func(tx store.Queries) error {
				for start := 0; start < len(batch); {
					end := start + 1
					for end < len(batch) && batch[end].txID == batch[start].txID {
						end++
					}
					ids = ids[:0]
					for _, p := range batch[start:end] {
						ids = append(ids, p.id)
					}
					if err := tx.InsertIdentifierValues(v.ctx, batch[start].txID, ids, v.replace); err != nil {
						return err
					}
					start = end
				}
				return jobs.Hold(v.ctx, tx)
			})
			if err != nil {
				v.mu.Lock()
				v.err = err
				v.mu.Unlock()
			}
		}
		clear(batch)
		v.free <- batch[:0]
	}
}

// deleteValues removes the search rows the pass stored for its sets (a
// file that records no transaction), inside the transaction that records
// the failure.
func (p *pass) deleteValues(ctx context.Context, tx store.Queries) error {
	var values []string
	for _, sp := range p.ids.spans {
		txID := transactionID(p.e.ID, sp.set)
		err := p.ids.batches(sp.set, func(batch []store.BusinessIdentifier) error {
			values = values[:0]
			for _, id := range batch {
				values = append(values, id.Value)
			}
			return tx.DeleteIdentifierValues(ctx, txID, values)
		})
		if err != nil {
			return err
		}
	}
	return nil
}

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
// (deleteValues); a pass that dies leaves them to the next attempt, whose
// rows are the same (transaction ids are derived from the execution) and
// are stored again as if they were new (the store keeps one row per value,
// transaction and element).
//
// Each batch is one database transaction of up to valueBatchRows rows,
// and it renews the job's lease in its last statement (jobs.Hold): on
// SQLite it holds the only writer while it runs, which every other
// renewal waits for (4–20 s a batch under -race at load), and an attempt
// that has lost its job to another stores nothing more.
//
// Memory is bounded: a batch keeps its values in one byte slice (about
// 20 bytes a claim, not a BusinessIdentifier's 80 and a string), and at
// most three batches exist: the one filling and two waiting or stored.
type valueSink struct {
	ctx context.Context
	st  store.Store

	cur  *valueBatch
	ch   chan *valueBatch
	free chan *valueBatch
	wg   sync.WaitGroup
	mu   sync.Mutex
	err  error
}

// valueBatchRows is how many search rows a batch stores in one database
// transaction, in key order: the more, the fewer times each page of the
// key B-tree is written (and copied back from the WAL) per claim. In
// BenchmarkIdentifierSearchRows (321,512 random claim numbers, load ~35),
// CPU a row: 3.7 µs at 10,000 a batch, 2.0–2.4 µs at 50,000–100,000; in
// sets of 1,000 claims 7.3 µs at 10,000, 5.5 µs at 32,768. A batch holds
// SQLite's writer while it commits (tens of milliseconds), so not more.
const valueBatchRows = 32768

// valueBatch is a batch of search rows: the values one after the other in
// vals (value i ends at ends[i]), in runs of one transaction and element.
type valueBatch struct {
	vals   []byte
	ends   []int
	groups []valueGroup
}

// valueGroup is a run of a batch's values of one transaction and element,
// up to ends[end-1].
type valueGroup struct {
	txID, element, elementID string
	end                      int
}

func (b *valueBatch) reset() {
	b.vals, b.ends = b.vals[:0], b.ends[:0]
	clear(b.groups)
	b.groups = b.groups[:0]
}

func newValueSink(ctx context.Context, st store.Store) *valueSink {
	v := &valueSink{ctx: ctx, st: st, ch: make(chan *valueBatch, 2), free: make(chan *valueBatch, 3)}
	for range 3 {
		v.free <- &valueBatch{}
	}
	v.cur = <-v.free
	v.wg.Add(1)
	go v.run(v.ch) // its own copy: close clears v.ch
	return v
}

// add queues one identifier of transaction txID.
func (v *valueSink) add(txID string, id store.BusinessIdentifier) error {
	b := v.cur
	if n := len(b.groups); n == 0 || b.groups[n-1].txID != txID || b.groups[n-1].element != id.Element || b.groups[n-1].elementID != id.ElementID {
		b.groups = append(b.groups, valueGroup{txID: txID, element: id.Element, elementID: id.ElementID})
	}
	b.vals = append(b.vals, id.Value...)
	b.ends = append(b.ends, len(b.vals))
	b.groups[len(b.groups)-1].end = len(b.ends)
	if len(b.ends) >= valueBatchRows {
		v.flush()
	}
	return v.error()
}

func (v *valueSink) flush() {
	if len(v.cur.ends) == 0 {
		return
	}
	v.ch <- v.cur
	v.cur = <-v.free
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

func (v *valueSink) run(ch <-chan *valueBatch) {
	defer v.wg.Done()
	var groups []store.IdentifierValues
	var values []string
	for b := range ch {
		if v.error() == nil {
			// The batch's groups in one call: the store inserts their
			// rows in key order, one statement for the batch.
			values = values[:0]
			for i := range b.ends {
				start := 0
				if i > 0 {
					start = b.ends[i-1]
				}
				values = append(values, string(b.vals[start:b.ends[i]]))
			}
			groups = groups[:0]
			start := 0
			for _, g := range b.groups {
				groups = append(groups, store.IdentifierValues{TransactionID: g.txID, Element: g.element, ElementID: g.elementID,
					Values: values[start:g.end]})
				start = g.end
			}
			err := v.st.InTx(v.ctx, func(tx store.Queries) error {
				if err := tx.InsertIdentifierValues(v.ctx, groups); err != nil {
					return err
				}
				return jobs.Hold(v.ctx, tx)
			})
			if err != nil {
				v.mu.Lock()
				v.err = err
				v.mu.Unlock()
			}
			clear(values)
			clear(groups)
		}
		b.reset()
		v.free <- b
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
		if err := tx.DeleteIdentifierGroups(ctx, txID); err != nil {
			return err
		}
	}
	return nil
}

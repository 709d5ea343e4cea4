package store

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A check recorded in a group commit's round (the API's: the check and the
// request's audit event, GroupInTx) needs no SAVEPOINT of its own. Each
// caller of a round ran inside one (SAVEPOINT, the check's INSERT, the
// usage row's, the audit event's, RELEASE), and every
// statement costs the transpiled SQLite and database/sql a few µs before
// it writes anything. Here the round defers a caller's check
// (pendingWrites) until the caller's function has returned, attaching its
// audit event when the event is about the check, and writes the two rows
// with two single-row INSERTs (three until session 8: a check is its own
// usage row now, usage.go). A caller that runs any other
// statement gets its SAVEPOINT and its pending rows written first, so
// everything it reads sees them and the order of its writes is kept.
//
// Without a SAVEPOINT, a caller's rows are all or none this way: a
// single-row INSERT that fails a constraint has written nothing (SQLite
// checks the row's constraints and foreign keys before it writes any of
// its B-trees, which is why such a statement needs no statement journal),
// and when the audit event's INSERT fails after the check's, the check is
// deleted again (undo) before the caller hears of the failure.
//
// Session 6 wrote the three rows with one INSERT into a TEMP view whose
// INSTEAD OF trigger inserted them. A statement that writes several rows
// and may fail a foreign key check needs SQLite's statement journal: a
// copy of every existing page it changes (the leaves of the check's five
// indexes, the usage and audit B-trees), in 1 KB chunks allocated and
// freed at every statement. That cost a check more than two more
// statements do (BenchmarkRoundCost: 381 K -> 345 K instructions).

// roundStats count the SAVEPOINTs of rounds' callers and the deferred
// checks written.
type roundStats struct {
	savepoints, deferred atomic.Int64
}

// pendingWrites is what one caller of a round has written but the round
// has not run yet: at most one check with its audit event.
type pendingWrites struct {
	w     conn        // the transaction, without pendingWrites (runs the statements)
	stats *roundStats // counts what the rounds ran (tests)
	// active: a caller's function runs (runSaved, runGroup); outside it
	// nothing is deferred.
	active bool
	// savepoint: the caller shares the round with others, so its first
	// statement needs a SAVEPOINT before it; saved: that SAVEPOINT was made.
	savepoint, saved bool
	err              error // the SAVEPOINT failed: the round's error
	has              bool
	check            EligibilityCheck
	event            *AuditEvent
	eventBuf         AuditEvent
}

// start begins a caller's part of a round.
func (p *pendingWrites) start(savepoint bool) {
	*p = pendingWrites{w: p.w, stats: p.stats, active: true, savepoint: savepoint}
}

// deferCheck takes c if it can wait for the end of the caller's function.
func (p *pendingWrites) deferCheck(c *EligibilityCheck) bool {
	if p == nil || !p.active || p.has || c.Simulation != nil {
		return false
	}
	p.check, p.has = *c, true
	return true
}

// deferEvent attaches e to the deferred check it is about.
func (p *pendingWrites) deferEvent(e *AuditEvent) bool {
	if p == nil || !p.active || !p.has || p.event != nil || e.ResourceID != p.check.ID || e.AccountID != p.check.AccountID {
		return false
	}
	p.eventBuf = *e
	p.event = &p.eventBuf
	return true
}

// before runs ahead of any other statement of the caller: its SAVEPOINT
// if it needs one, then what it deferred, so the statement comes after
// the writes the caller made before it.
func (p *pendingWrites) before(ctx context.Context) error {
	if p == nil || !p.active {
		return nil
	}
	if p.savepoint && !p.saved {
		if _, err := p.w.exec(ctx, "SAVEPOINT grouped"); err != nil {
			p.err = fmt.Errorf("store: savepoint: %w", err)
			return p.err
		}
		p.saved = true
		p.stats.savepoints.Add(1)
	}
	return p.flush(ctx)
}

// finish writes what the caller deferred once its function has returned
// nil. A failed constraint (a check's id twice) is the caller's error:
// none of its rows is kept. Any other failure may have ended the
// transaction (SQLite rolls it back on a full disk or an I/O error), so
// it is the round's (roundErr).
func (p *pendingWrites) finish(ctx context.Context) (callerErr, roundErr error) {
	err := p.flush(ctx)
	p.active = false
	if err == nil || errors.Is(err, ErrConflict) || isConstraint(err) {
		return err, nil
	}
	return err, err
}

// isConstraint reports a failed constraint, after which SQLite has
// written nothing of the statement and the transaction goes on.
func isConstraint(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT
}

// end forgets what the caller deferred (its function failed).
func (p *pendingWrites) end() { p.has, p.event, p.active = false, nil, false }

// flush writes the deferred check and its audit event (a check is its own
// usage row: usage.go).
func (p *pendingWrites) flush(ctx context.Context) error {
	if !p.has {
		return nil
	}
	p.has = false
	c, e := &p.check, p.event
	p.event = nil
	p.stats.deferred.Add(1)
	payload, buf := packCheck(c)
	var args [checkColumns]any
	checkArgs(args[:], c, payload)
	_, err := p.w.exec(ctx, insertEligibilitySQL, args[:]...)
	putPacked(buf)
	if err != nil {
		return mapErr(err) // nothing of the caller's written
	}
	if e != nil {
		// deferEvent took e for this check: same account and resource id.
		// The check's values already boxed in args are passed again as
		// they are (each a string or int64 the driver reads, not changes):
		// a new interface value of a string is an allocation.
		id, account, mode := args[0], args[1], args[3]
		eMode := any(e.Mode)
		if e.Mode == c.Mode {
			eMode = mode
		}
		_, err = p.w.exec(ctx, insertAuditEventSQL, e.ID, account, e.Seq, eMode, e.ActorType, e.ActorID, e.RemoteAddr,
			e.Action, e.ResourceType, id, e.Route, e.Status, toUS(e.At), e.PrevHash, e.Hash)
	}
	if err != nil && isConstraint(err) {
		if uerr := p.undo(ctx, c); uerr != nil {
			return uerr
		}
	}
	return mapErr(err)
}

// undo deletes the check after its audit event failed a constraint, and
// the usage row the DELETE's trigger kept for it (migration 432: the check
// was never committed, so it is no call). A failure here is the round's:
// the error says so without a constraint's code.
func (p *pendingWrites) undo(ctx context.Context, c *EligibilityCheck) error {
	_, err := p.w.exec(ctx, `DELETE FROM eligibility_checks WHERE id = $1`, c.ID)
	if err == nil {
		_, err = p.w.exec(ctx, `DELETE FROM usage WHERE account_id = $1 AND created_at = $2 AND kind = $3 AND ref_id = $4`,
			c.AccountID, toUS(c.CreatedAt), UsageEligibilityCheck, c.ID)
	}
	if err != nil {
		return fmt.Errorf("store: remove check %s after its audit event failed: %s", c.ID, err.Error())
	}
	return nil
}

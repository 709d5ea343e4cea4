package store

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

// A check recorded in a group commit's round (the API's: the check, its
// usage row and the request's audit event, GroupInTx) is one statement
// there instead of five. Each caller of a round ran inside its own
// SAVEPOINT (SAVEPOINT, the check's INSERT, the usage row's, the audit
// event's, RELEASE), and every statement costs the transpiled SQLite and
// database/sql a few µs before it writes anything. Here the round defers
// a caller's check (pendingWrites) until the caller's function has
// returned, attaching its audit event when the event is about the check,
// and writes the three rows with one INSERT into check_rows, a view of the
// writer's connection whose INSTEAD OF trigger inserts them. One statement
// is atomic by itself (SQLite rolls back what its trigger wrote when one
// of the inserts fails), so a caller that ran nothing else needs no
// SAVEPOINT; one that runs any other statement gets its SAVEPOINT and its
// pending rows written first, so everything it reads sees them and the
// order of its writes is kept.
//
// The view and trigger are TEMP objects of each writer connection, made
// once the schema is migrated (a trigger naming a table stops ALTER TABLE
// from renaming it) and then on every writer connection the driver opens
// (checkRowsHook: database/sql replaces a connection whose statement was
// interrupted, and TEMP objects die with it). Nothing in the database
// file or its schema changes, and PostgreSQL, whose transactions are not
// grouped, stores checks as before.

// checkRowsSchema makes check_rows on a writer connection.
var checkRowsSchema = []string{
	`CREATE TEMP VIEW check_rows AS SELECT
		NULL AS id, NULL AS account_id, NULL AS key_id, NULL AS mode, NULL AS trading_partner_service_id,
		NULL AS payer_name, NULL AS control_number, NULL AS status, NULL AS x12_request, NULL AS http_status,
		NULL AS created_at, NULL AS duration_us, NULL AS cost_micros, NULL AS patient_name, NULL AS member_id,
		NULL AS patient_birth_date, NULL AS service_date, NULL AS submitter_control_number, NULL AS route,
		NULL AS payload, NULL AS usage_id, NULL AS usage_kind,
		NULL AS audit_id, NULL AS audit_seq, NULL AS audit_mode, NULL AS audit_actor_type, NULL AS audit_actor_id,
		NULL AS audit_remote_addr, NULL AS audit_action, NULL AS audit_resource_type, NULL AS audit_resource_id,
		NULL AS audit_route, NULL AS audit_status, NULL AS audit_occurred_at, NULL AS audit_prev_hash, NULL AS audit_hash`,
	`CREATE TEMP TRIGGER check_rows_insert INSTEAD OF INSERT ON check_rows BEGIN
		INSERT INTO main.eligibility_checks (id, account_id, key_id, mode, trading_partner_service_id,
			payer_name, control_number, status, x12_request, http_status, created_at, duration_us, cost_micros,
			patient_name, member_id, patient_birth_date, service_date, submitter_control_number, route, payload)
		VALUES (NEW.id, NEW.account_id, NEW.key_id, NEW.mode, NEW.trading_partner_service_id,
			NEW.payer_name, NEW.control_number, NEW.status, NEW.x12_request, NEW.http_status, NEW.created_at,
			NEW.duration_us, NEW.cost_micros, NEW.patient_name, NEW.member_id, NEW.patient_birth_date,
			NEW.service_date, NEW.submitter_control_number, NEW.route, NEW.payload);
		INSERT INTO main.usage (` + usageColumns + `)
		VALUES (NEW.usage_id, NEW.account_id, NEW.key_id, NEW.mode, NEW.usage_kind, NEW.id, NEW.cost_micros, NEW.created_at);
		INSERT INTO main.audit_events (` + auditColumns + `)
		SELECT NEW.audit_id, NEW.account_id, NEW.audit_seq, NEW.audit_mode, NEW.audit_actor_type, NEW.audit_actor_id,
			NEW.audit_remote_addr, NEW.audit_action, NEW.audit_resource_type, NEW.audit_resource_id, NEW.audit_route,
			NEW.audit_status, NEW.audit_occurred_at, NEW.audit_prev_hash, NEW.audit_hash
		WHERE NEW.audit_id IS NOT NULL;
	END`,
}

const insertCheckRowsSQL = `INSERT INTO check_rows VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
	$16, $17, $18, $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29, $30, $31, $32, $33, $34, $35, $36)`

// writerDSNMark is in the DSN of SQLite writer connections only (OpenSQLite).
const writerDSNMark = "_txlock=immediate"

func init() {
	sqlite.RegisterConnectionHook(checkRowsHook)
}

// migratedWriters are the writer DSNs whose schema OpenSQLite has
// migrated in this process: their new connections get check_rows.
var migratedWriters sync.Map

// checkRowsHook makes check_rows on every writer connection the driver
// opens once its database is migrated.
func checkRowsHook(c sqlite.ExecQuerierContext, dsn string) error {
	if !strings.Contains(dsn, writerDSNMark) {
		return nil
	}
	if _, ok := migratedWriters.Load(dsn); !ok {
		return nil
	}
	return makeCheckRows(func(q string) error {
		_, err := c.ExecContext(context.Background(), q, nil)
		return err
	})
}

// makeCheckRows makes check_rows with exec, which runs one statement on
// the connection (a driver connection's, or a transaction's).
func makeCheckRows(exec func(q string) error) error {
	for _, q := range checkRowsSchema {
		if err := exec(q); err != nil {
			return fmt.Errorf("store: make check_rows: %w", err)
		}
	}
	return nil
}

// roundStats count the SAVEPOINTs of rounds' callers and the check_rows
// INSERTs.
type roundStats struct {
	savepoints, checkRows atomic.Int64
}

// migratedWriter marks the writer of dsn migrated and makes check_rows
// on its open connection (later ones get it from checkRowsHook).
func migratedWriter(ctx context.Context, writer *sql.DB, dsn string) error {
	migratedWriters.Store(dsn, true)
	c, err := writer.Conn(ctx)
	if err != nil {
		return err
	}
	defer c.Close()
	return c.Raw(func(dc any) error {
		ec, ok := dc.(driver.ExecerContext)
		if !ok {
			return fmt.Errorf("store: make check_rows: unexpected driver connection %T", dc)
		}
		return makeCheckRows(func(q string) error {
			_, err := ec.ExecContext(context.Background(), q, nil)
			return err
		})
	})
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
// the statement wrote nothing. Any other failure may have ended the
// transaction (SQLite rolls it back on a full disk or an I/O error), so
// it is the round's (roundErr).
func (p *pendingWrites) finish(ctx context.Context) (callerErr, roundErr error) {
	err := p.flush(ctx)
	p.active = false
	var se *sqlite.Error
	if err == nil || errors.Is(err, ErrConflict) || (errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_CONSTRAINT) {
		return err, nil
	}
	return err, err
}

// end forgets what the caller deferred (its function failed).
func (p *pendingWrites) end() { p.has, p.event, p.active = false, nil, false }

// flush runs the deferred check, its usage row and its audit event as
// one INSERT into check_rows.
func (p *pendingWrites) flush(ctx context.Context) error {
	if !p.has {
		return nil
	}
	p.has = false
	c := &p.check
	payload, buf := packCheck(c)
	var args [36]any
	checkArgs(args[:checkColumns], c, payload)
	args[checkColumns], args[checkColumns+1] = NewID(), UsageEligibilityCheck
	if e := p.event; e != nil {
		copy(args[22:], []any{e.ID, e.Seq, e.Mode, e.ActorType, e.ActorID, e.RemoteAddr, e.Action, e.ResourceType,
			e.ResourceID, e.Route, e.Status, toUS(e.At), e.PrevHash, e.Hash})
	}
	p.event = nil
	p.stats.checkRows.Add(1)
	_, err := p.w.exec(ctx, insertCheckRowsSQL, args[:]...)
	if err != nil && strings.Contains(err.Error(), "no such table: check_rows") {
		// A writer connection opened while its database was not known
		// to be migrated (another OpenSQLite of the same file in this
		// process was migrating it) has no check_rows: make it here, in
		// the transaction, and run the INSERT unprepared (the prepared
		// one failed on this connection).
		err = makeCheckRows(func(q string) error {
			_, err := p.w.e.ExecContext(ctx, q)
			return err
		})
		if err == nil {
			_, err = p.w.e.ExecContext(ctx, p.w.rebind(insertCheckRowsSQL), args[:]...)
		}
	}
	putPacked(buf)
	return mapErr(err)
}

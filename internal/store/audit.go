package store

import (
	"context"
	"database/sql"
	"errors"
	"time"
)

// AuditLog is the append-only access audit: one hash chain of events per
// account (package audit computes the hashes and decides what is
// recorded). There is no update and no delete.
type AuditLog interface {
	// LockAuditChain returns the account's last sequence number and hash
	// (0 and "" for an empty chain) and, inside a transaction, holds the
	// chain until it ends, so appends from any number of processes line up.
	LockAuditChain(ctx context.Context, accountID string) (seq int64, hash string, err error)
	// AppendAuditEvent stores e, whose Seq and PrevHash continue the chain
	// LockAuditChain returned in the same transaction, and moves the head.
	AppendAuditEvent(ctx context.Context, e AuditEvent) error
	// ListAuditEvents returns the account's events, newest first, and the
	// cursor of the next page ("" on the last page).
	ListAuditEvents(ctx context.Context, accountID string, f AuditFilter) ([]AuditEvent, string, error)
	// ScanAuditChain calls fn with each of the account's events in chain
	// order, stopping at fn's first error.
	ScanAuditChain(ctx context.Context, accountID string, fn func(AuditEvent) error) error
	// AuditChains returns every account that has an audit chain, with the
	// head's sequence number and hash.
	AuditChains(ctx context.Context) ([]AuditHead, error)
}

// AuditEvent is one access: who (ActorType and ActorID: an API key's id or
// a console session's key; RemoteAddr), in which account and mode, did
// Action to the resource (ResourceType, ResourceID) through Route, with
// the answer's Status, at At.
type AuditEvent struct {
	ID           string
	AccountID    string
	Seq          int64
	Mode         string
	ActorType    string
	ActorID      string
	RemoteAddr   string
	Action       string
	ResourceType string
	ResourceID   string
	Route        string
	Status       int
	At           time.Time
	PrevHash     string
	Hash         string
}

// AuditHead is the end of one account's chain.
type AuditHead struct {
	AccountID string
	Seq       int64
	Hash      string
}

// AuditFilter narrows ListAuditEvents. Zero fields do not filter.
type AuditFilter struct {
	Mode         string
	Action       string
	ResourceType string
	ResourceID   string
	From         time.Time // At >= From
	To           time.Time // At < To
	Limit        int       // default 100, at most 500
	Cursor       string
}

const auditColumns = `id, account_id, seq, mode, actor_type, actor_id, remote_addr, action, resource_type, resource_id, route, status, occurred_at, prev_hash, hash`

const insertAuditEventSQL = `INSERT INTO audit_events (` + auditColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`

func (q *queries) LockAuditChain(ctx context.Context, accountID string) (int64, string, error) {
	if h, ok := q.heads.get(accountID); ok {
		return h.Seq, h.Hash, nil // moved earlier in this transaction
	}
	lock := ""
	if !q.w.sqlite {
		lock = " FOR UPDATE" // SQLite's single writer already orders appends
	}
	// The head is read first and created only when the chain is new: one
	// statement per entry instead of two.
	var seq int64
	var hash string
	err := q.w.direct().queryRow(ctx, `SELECT seq, hash FROM audit_heads WHERE account_id = $1`+lock, accountID).Scan(&seq, &hash)
	if !errors.Is(err, sql.ErrNoRows) {
		return seq, hash, mapErr(err)
	}
	if _, err := q.w.exec(ctx, `INSERT INTO audit_heads (account_id, seq, hash) VALUES ($1, 0, '') ON CONFLICT (account_id) DO NOTHING`, accountID); err != nil {
		return 0, "", mapErr(err)
	}
	// Another transaction may have created it meanwhile (PostgreSQL): lock
	// whichever row is there.
	err = q.w.queryRow(ctx, `SELECT seq, hash FROM audit_heads WHERE account_id = $1`+lock, accountID).Scan(&seq, &hash)
	return seq, hash, mapErr(err)
}

func (q *queries) AppendAuditEvent(ctx context.Context, e AuditEvent) error {
	if q.heads != nil && q.w.pend.deferEvent(&e) {
		// Written with the check it is about (checkrows.go).
		q.heads.moved(AuditHead{AccountID: e.AccountID, Seq: e.Seq, Hash: e.Hash})
		return nil
	}
	if _, err := q.w.exec(ctx, insertAuditEventSQL,
		e.ID, e.AccountID, e.Seq, e.Mode, e.ActorType, e.ActorID, e.RemoteAddr, e.Action, e.ResourceType, e.ResourceID,
		e.Route, e.Status, toUS(e.At), e.PrevHash, e.Hash); err != nil {
		return mapErr(err)
	}
	if q.heads != nil {
		q.heads.moved(AuditHead{AccountID: e.AccountID, Seq: e.Seq, Hash: e.Hash})
		return nil // written once, before the commit (writeHeads)
	}
	return q.writeHead(ctx, AuditHead{AccountID: e.AccountID, Seq: e.Seq, Hash: e.Hash})
}

const updateAuditHeadSQL = `UPDATE audit_heads SET seq = $2, hash = $3 WHERE account_id = $1`

func (q *queries) writeHead(ctx context.Context, h AuditHead) error {
	_, err := q.w.exec(ctx, updateAuditHeadSQL, h.AccountID, h.Seq, h.Hash)
	return mapErr(err)
}

// writeHeads stores the heads the transaction moved; commitTx calls it
// after the transaction's work, before COMMIT.
func (q *queries) writeHeads(ctx context.Context) error {
	if q.heads == nil {
		return nil
	}
	q.heads.keep()
	for _, h := range q.heads.saved {
		if err := q.writeHead(ctx, h); err != nil {
			return err
		}
	}
	clear(q.heads.saved)
	return nil
}

func (q *queries) ListAuditEvents(ctx context.Context, accountID string, f AuditFilter) ([]AuditEvent, string, error) {
	w := newWhere(accountID)
	w.addIf(f.Mode != "", "mode = $?", f.Mode)
	w.addIf(f.Action != "", "action = $?", f.Action)
	w.addIf(f.ResourceType != "", "resource_type = $?", f.ResourceType)
	w.addIf(f.ResourceID != "", "resource_id = $?", f.ResourceID)
	w.addIf(!f.From.IsZero(), "occurred_at >= $?", toUS(f.From))
	w.addIf(!f.To.IsZero(), "occurred_at < $?", toUS(f.To))
	if err := w.cursor(f.Cursor, "occurred_at"); err != nil {
		return nil, "", err
	}
	limit := pageLimit(f.Limit, 100)
	rows, err := q.r.query(ctx, `SELECT `+auditColumns+` FROM audit_events WHERE `+w.sql()+`
		ORDER BY occurred_at DESC, id DESC LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	list, err := collect(rows, scanAuditEvent)
	if err != nil {
		return nil, "", err
	}
	list, next := trimPage(list, limit, func(r *AuditEvent) (time.Time, string) { return r.At, r.ID })
	return list, next, nil
}

func (q *queries) ScanAuditChain(ctx context.Context, accountID string, fn func(AuditEvent) error) error {
	rows, err := q.r.query(ctx, `SELECT `+auditColumns+` FROM audit_events WHERE account_id = $1 ORDER BY seq`, accountID)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		e, err := scanAuditEvent(rows)
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
	}
	return rows.Err()
}

func (q *queries) AuditChains(ctx context.Context) ([]AuditHead, error) {
	rows, err := q.r.query(ctx, `SELECT account_id, seq, hash FROM audit_heads ORDER BY account_id`)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (AuditHead, error) {
		var h AuditHead
		if err := row.Scan(&h.AccountID, &h.Seq, &h.Hash); err != nil {
			return h, mapErr(err)
		}
		if moved, ok := q.heads.get(h.AccountID); ok {
			h = moved // not written yet (writeHeads)
		}
		return h, nil
	})
}

func scanAuditEvent(row scanner) (AuditEvent, error) {
	var e AuditEvent
	var at int64
	if err := row.Scan(&e.ID, &e.AccountID, &e.Seq, &e.Mode, &e.ActorType, &e.ActorID, &e.RemoteAddr, &e.Action,
		&e.ResourceType, &e.ResourceID, &e.Route, &e.Status, &at, &e.PrevHash, &e.Hash); err != nil {
		return AuditEvent{}, mapErr(err)
	}
	e.At = fromUS(at)
	return e, nil
}

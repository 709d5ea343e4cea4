package store

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"time"
)

// The claims lifecycle (GET /2025-03-07/claims): each claim's status in the
// hosted API's words, kept by package claimstatus in the transaction that
// records the answer changing it, and the claims of inbound answers that
// name no claim.

// Claim statuses and who reported them, as the hosted Claims API names
// them.
const (
	ClaimStatusSubmitted = "SUBMITTED"
	ClaimStatusReceived  = "RECEIVED"
	ClaimStatusAccepted  = "ACCEPTED"
	ClaimStatusRejected  = "REJECTED"
	ClaimStatusProcessed = "PROCESSED"
	ClaimStatusDenied    = "DENIED"
	ClaimStatusUnknown   = "UNKNOWN"

	ReportedByClearinghouse = "CLEARINGHOUSE"
	ReportedByPayer         = "PAYER"
)

// ClaimStatuses are the statuses a claim can have, as the list filter
// accepts them.
var ClaimStatuses = []string{ClaimStatusSubmitted, ClaimStatusReceived, ClaimStatusAccepted, ClaimStatusRejected,
	ClaimStatusProcessed, ClaimStatusDenied, ClaimStatusUnknown}

// ClaimLifecycle is what the claims lifecycle API shows of a claim beyond
// its submission's numbers.
type ClaimLifecycle struct {
	Type       string // DENTAL, PROFESSIONAL, INSTITUTIONAL
	Status     string // ClaimStatus…
	ReportedBy string // ReportedBy…
	// PaidCents is the sum of the payments its 835s reported (a reversal
	// subtracts); PaidKnown is false until the first 835.
	PaidCents int64
	PaidKnown bool
	// ServiceStart and ServiceEnd are the claim's dates of service
	// (YYYY-MM-DD; "" when its 837 gives none).
	ServiceStart, ServiceEnd string
	// Patient is the patient's name as JSON (firstName, middleName,
	// lastName, suffix), nil when unknown.
	Patient []byte
}

// ClaimState is a claim's status and who reported it.
type ClaimState struct {
	Status, ReportedBy string
}

// ClaimStatusChange is what recording an answer did to its claim.
type ClaimStatusChange struct {
	// Recorded is false when the answer was recorded before (nothing
	// changed).
	Recorded      bool
	Before, After ClaimState
}

// Changed reports whether the claim's status (or its reporter) changed.
func (c ClaimStatusChange) Changed() bool { return c.Recorded && c.Before != c.After }

const lifecycleColumns = `claim_type, status, status_reported_by, paid_cents, paid_known, service_start,
	service_end, patient`

// ClaimFilter narrows ListClaims. Zero fields do not filter.
type ClaimFilter struct {
	Mode                  string
	Statuses              []string // any of (at most 20)
	PayerID               string
	PatientControlNumbers []string // any of (at most 100)
	// SubmittedFrom and SubmittedTo bound the submission time: [From, To).
	SubmittedFrom, SubmittedTo time.Time
	// ServiceFrom and ServiceTo (YYYY-MM-DD) keep the claims whose dates of
	// service overlap [ServiceFrom, ServiceTo], both inclusive.
	ServiceFrom, ServiceTo string
	Limit                  int // default 100, at most 500
	Cursor                 string
}

// ClaimLifecycles lists claims for the claims lifecycle API and records
// the claims of answers that name none.
type ClaimLifecycles interface {
	// ListClaims returns the account's claims newest first, and the cursor
	// of the next page ("" on the last).
	ListClaims(ctx context.Context, accountID string, f ClaimFilter) ([]DentalClaim, string, error)
	// SetClaimState sets a claim's status without an answer (a delivery
	// that failed for good) unless its status is no longer one of from;
	// it returns the change.
	SetClaimState(ctx context.Context, accountID, claimID string, to ClaimState, from ...string) (ClaimStatusChange, error)
	// HoldClaims holds the account's claims named by ids until the
	// transaction it runs in ends (on PostgreSQL; SQLite's single writer
	// holds everything already), so that whatever the transaction then
	// reads and dates about them comes after every transaction that held
	// them first, and returns the time of the newest answer recorded on
	// any of them (zero if none): a clock behind another replica's, or a
	// test's frozen one, must still date a new answer after it. Call it in
	// a transaction.
	HoldClaims(ctx context.Context, accountID string, ids []string) (time.Time, error)
	// RecordUnmatchedReports stores claims of inbound answers that name no
	// claim (again: nothing changes).
	RecordUnmatchedReports(ctx context.Context, rs []UnmatchedReport) error
	// ListUnmatchedReports returns them newest first with the next cursor.
	ListUnmatchedReports(ctx context.Context, accountID, mode string, limit int, cursor string) ([]UnmatchedReport, string, error)
}

// UnmatchedReport is one claim of an inbound 277CA or 835 that names no
// claim of its account; PatientControlNumber "" stands for the whole set.
type UnmatchedReport struct {
	ID                   string // transaction id "/" position
	AccountID, Mode      string
	TransactionID        string
	Kind                 string // ClaimAnswer277CA or ClaimAnswer835
	PatientControlNumber string
	CreatedAt            time.Time
}

// UnmatchedReportID is the id of the claim at position n of a set.
func UnmatchedReportID(transactionID string, n int) string {
	return fmt.Sprintf("%s/%06d", transactionID, n)
}

func (q *queries) ListClaims(ctx context.Context, accountID string, f ClaimFilter) ([]DentalClaim, string, error) {
	w := newWhere(accountID)
	w.conds[0] = "c.account_id = $1"
	w.addIf(f.Mode != "", "c.mode = $?", f.Mode)
	w.in("c.status", f.Statuses[:min(len(f.Statuses), 20)])
	w.addIf(f.PayerID != "", "c.payer_id = $?", f.PayerID)
	w.in("c.patient_control_number", f.PatientControlNumbers[:min(len(f.PatientControlNumbers), 100)])
	w.addIf(!f.SubmittedFrom.IsZero(), "c.created_at >= $?", toUS(f.SubmittedFrom))
	w.addIf(!f.SubmittedTo.IsZero(), "c.created_at < $?", toUS(f.SubmittedTo))
	// A claim without an end date of service ended on its start date.
	w.addIf(f.ServiceFrom != "", "c.service_start <> '' AND (CASE WHEN c.service_end = '' THEN c.service_start ELSE c.service_end END) >= $?", f.ServiceFrom)
	w.addIf(f.ServiceTo != "", "c.service_start <> '' AND c.service_start <= $?", f.ServiceTo)
	if err := w.cursor(f.Cursor, "c.created_at"); err != nil {
		return nil, "", err
	}
	w.conds[len(w.conds)-1] = replaceBareID(w.conds[len(w.conds)-1], f.Cursor != "")
	limit := pageLimit(f.Limit, 100)
	rows, err := q.r.query(ctx, claimSelect+` WHERE `+w.sql()+` ORDER BY c.created_at DESC, c.id DESC LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	list, err := collect(rows, scanDentalClaim)
	if err != nil {
		return nil, "", err
	}
	list, next := trimPage(list, limit, func(r *DentalClaim) (time.Time, string) { return r.CreatedAt, r.ID })
	return list, next, nil
}

// in adds "column IN (…)" for values, when there are any.
func (w *where) in(column string, values []string) {
	if len(values) == 0 {
		return
	}
	ph := make([]string, len(values))
	for i, v := range values {
		w.args = append(w.args, v)
		ph[i] = fmt.Sprintf("$%d", len(w.args))
	}
	w.conds = append(w.conds, column+" IN ("+strings.Join(ph, ", ")+")")
}

// claimState reads a claim's status and the rank of its answer, in the
// transaction that changes them. On PostgreSQL it locks the claim's row
// until that transaction ends: two answers' transactions may run at once,
// and the second must wait here and read the first's outcome, not the
// status before it (its change would name that status and overwrite the
// first's: a 999 that read SUBMITTED before a 277CA committed ACCEPTED
// set RECEIVED back), and so that it dates its change after the first's.
// SQLite's single writer runs them one after the other already.
func (q *queries) claimState(ctx context.Context, accountID, claimID string) (ClaimState, int, error) {
	lock := ""
	if !q.w.sqlite {
		lock = " FOR UPDATE"
	}
	var s ClaimState
	var rank int
	err := q.w.queryRow(ctx, `SELECT status, status_reported_by, answer_rank FROM dental_claims
		WHERE account_id = $1 AND id = $2`+lock, accountID, claimID).Scan(&s.Status, &s.ReportedBy, &rank)
	return s, rank, mapErr(err)
}

func (q *queries) HoldClaims(ctx context.Context, accountID string, ids []string) (time.Time, error) {
	if len(ids) == 0 {
		return time.Time{}, nil
	}
	doc, err := json.Marshal(ids)
	if err != nil {
		return time.Time{}, err
	}
	each := `SELECT value FROM json_each($2)`
	if !q.w.sqlite {
		each = `SELECT jsonb_array_elements_text($2::jsonb)`
		// In the order of their ids, so that two transactions holding
		// some of the same claims never wait for each other both ways.
		var n int
		if err := q.w.queryRow(ctx, `SELECT count(*) FROM (SELECT id FROM dental_claims
			WHERE account_id = $1 AND id IN (`+each+`) ORDER BY id FOR UPDATE) held`,
			accountID, string(doc)).Scan(&n); err != nil {
			return time.Time{}, mapErr(err)
		}
	}
	var newest int64
	err = q.w.queryRow(ctx, `SELECT COALESCE(max(created_at), 0) FROM claim_answers
		WHERE account_id = $1 AND claim_id IN (`+each+`)`, accountID, string(doc)).Scan(&newest)
	if err != nil || newest == 0 {
		return time.Time{}, mapErr(err)
	}
	return fromUS(newest), nil
}

func (q *queries) SetClaimState(ctx context.Context, accountID, claimID string, to ClaimState, from ...string) (ClaimStatusChange, error) {
	var ch ClaimStatusChange
	err := q.atomic(ctx, func(q *queries) error {
		before, _, err := q.claimState(ctx, accountID, claimID)
		if err != nil {
			return err
		}
		ch = ClaimStatusChange{Recorded: true, Before: before, After: before}
		allowed := len(from) == 0
		for _, f := range from {
			allowed = allowed || f == before.Status
		}
		if !allowed {
			return nil
		}
		if _, err := q.w.exec(ctx, `UPDATE dental_claims SET status = $1, status_reported_by = $2
			WHERE account_id = $3 AND id = $4`, to.Status, to.ReportedBy, accountID, claimID); err != nil {
			return mapErr(err)
		}
		ch.After = to
		return nil
	})
	return ch, err
}

func (q *queries) RecordUnmatchedReports(ctx context.Context, rs []UnmatchedReport) error {
	for _, r := range rs {
		if _, err := q.w.exec(ctx, `INSERT INTO unmatched_claim_reports (id, account_id, mode, transaction_id, kind,
			patient_control_number, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
			r.ID, r.AccountID, r.Mode, r.TransactionID, r.Kind, r.PatientControlNumber, toUS(r.CreatedAt)); err != nil {
			return mapErr(err)
		}
	}
	return nil
}

func (q *queries) ListUnmatchedReports(ctx context.Context, accountID, mode string, limit int, cursor string) ([]UnmatchedReport, string, error) {
	w := newWhere(accountID)
	w.addIf(true, "mode = $?", mode)
	if err := w.cursor(cursor, "created_at"); err != nil {
		return nil, "", err
	}
	limit = pageLimit(limit, 100)
	rows, err := q.r.query(ctx, `SELECT id, account_id, mode, transaction_id, kind, patient_control_number, created_at
		FROM unmatched_claim_reports WHERE `+w.sql()+` ORDER BY created_at DESC, id DESC LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	list, err := collect(rows, func(row scanner) (UnmatchedReport, error) {
		var r UnmatchedReport
		var at int64
		err := row.Scan(&r.ID, &r.AccountID, &r.Mode, &r.TransactionID, &r.Kind, &r.PatientControlNumber, &at)
		r.CreatedAt = fromUS(at)
		return r, mapErr(err)
	})
	if err != nil {
		return nil, "", err
	}
	list, next := trimPage(list, limit, func(r *UnmatchedReport) (time.Time, string) { return r.CreatedAt, r.ID })
	return list, next, nil
}

// Claims lists the tenant's claims for the claims lifecycle API.
func (t Tenant) Claims(ctx context.Context, f ClaimFilter) ([]DentalClaim, string, error) {
	f.Mode = t.scope.Mode
	return t.q.ListClaims(ctx, t.scope.AccountID, f)
}

// UnmatchedReports lists the claims of the tenant's inbound answers that
// name no claim.
func (t Tenant) UnmatchedReports(ctx context.Context, limit int, cursor string) ([]UnmatchedReport, string, error) {
	return t.q.ListUnmatchedReports(ctx, t.scope.AccountID, t.scope.Mode, limit, cursor)
}

// JobAttempts lists the attempts of the job jobID that works the tenant's
// file execution executionID (its delivery): ErrNotFound when the
// execution is not the tenant's.
func (t Tenant) JobAttempts(ctx context.Context, executionID, jobID string) ([]JobAttempt, error) {
	if _, err := t.Execution(ctx, executionID); err != nil {
		return nil, err
	}
	return t.q.ListJobAttempts(ctx, jobID)
}

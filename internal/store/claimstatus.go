package store

import (
	"context"
	"encoding/json"
	"strings"
	"time"
)

// ClaimStatus follows each dental claim after it is sent: the payer's 999,
// 277CA and 835 that refer to it (package claimstatus links them while the
// inbound file is recorded, in the same transaction).
type ClaimStatus interface {
	// FindClaimsForAnswer returns the account's claims whose id is one of
	// ids or whose patient control number is one of pcns (at most
	// MaxClaimsForAnswer of each per call), newest first.
	FindClaimsForAnswer(ctx context.Context, accountID, mode string, ids, pcns []string) ([]DentalClaim, error)
	// FindClaimsByControlNumbers returns the claims whose 837D had GS06
	// groupControl and ST02 setControl, in partnershipID when not "".
	FindClaimsByControlNumbers(ctx context.Context, accountID, mode, partnershipID, groupControl, setControl string) ([]DentalClaim, error)
	// RecordClaimAnswer stores one answer (again: nothing changes) and
	// makes it the claim's answer, and its State the claim's status,
	// unless the claim holds a higher-ranked one (an 835 outranks a 277CA,
	// which outranks a 999); a payment adds to the claim's paid total
	// whatever its rank. It returns what changed. It holds the claim until
	// the transaction ends (on PostgreSQL another answer's transaction
	// waits, then reads this one's outcome).
	RecordClaimAnswer(ctx context.Context, a ClaimAnswer) (ClaimStatusChange, error)
	// ListClaimAnswers returns a claim's answers, oldest first.
	ListClaimAnswers(ctx context.Context, accountID, claimID string) ([]ClaimAnswer, error)
	// ListDentalClaims returns the newest claims first with their file's
	// status, and the cursor of the next page ("" on the last).
	ListDentalClaims(ctx context.Context, accountID string, f DentalClaimFilter) ([]ClaimRow, string, error)
}

// Kinds of claim answers.
const (
	ClaimAnswer999   = "999"
	ClaimAnswer277CA = "277CA"
	ClaimAnswer835   = "835"
)

// ClaimAnswer is one inbound transaction's word on one claim.
type ClaimAnswer struct {
	ClaimID       string
	AccountID     string
	Mode          string
	Kind          string // ClaimAnswer999, ClaimAnswer277CA, ClaimAnswer835
	Outcome       string // package claimstatus's outcome words
	ExecutionID   string // the inbound file
	TransactionID string // the inbound transaction
	Detail        []byte // JSON the owning package keeps (status codes, amounts)
	CreatedAt     time.Time
	// State is the claim status the answer reports (zero: unchanged).
	State ClaimState
	// Paid: the answer is a payment of PaidCents (negative for a
	// reversal), added to the claim's paid total.
	Paid      bool
	PaidCents int64
}

// Rank orders the kinds: a later kind's answer replaces an earlier one's.
func (a ClaimAnswer) Rank() int {
	switch a.Kind {
	case ClaimAnswer835:
		return 3
	case ClaimAnswer277CA:
		return 2
	}
	return 1
}

// Claim list statuses that are not answers: the 837D's delivery.
const (
	ClaimSubmitted      = "submitted"       // waiting for (another) delivery attempt
	ClaimDelivered      = "delivered"       // delivered, no answer yet (or a 999 that accepts it)
	ClaimDeliveryFailed = "delivery_failed" // every attempt failed
)

// DentalClaimFilter narrows ListDentalClaims. Zero fields do not filter.
type DentalClaimFilter struct {
	Mode string
	// Status is ClaimSubmitted, ClaimDelivered, ClaimDeliveryFailed or an
	// answer outcome ("accepted", "rejected", "paid", "denied").
	Status               string
	PatientControlNumber string
	From, To             time.Time // CreatedAt in [From, To)
	Limit                int
	Cursor               string
}

// ClaimRow is a claim in the list, with its 837D's file status.
type ClaimRow struct {
	DentalClaim
	FileStatus string
}

const claimSelect = `SELECT c.id, c.account_id, c.mode, c.patient_control_number, c.payer_id, c.charge_cents,
	c.control_number, c.execution_id, c.transaction_id, c.response, c.created_at, c.group_control_number,
	c.patient_name, c.claim_type, c.status, c.status_reported_by, c.paid_cents, c.paid_known, c.service_start,
	c.service_end, c.patient, c.answer, c.answered_at FROM dental_claims c`

func (q *queries) FindClaimsForAnswer(ctx context.Context, accountID, mode string, ids, pcns []string) ([]DentalClaim, error) {
	if len(ids) == 0 && len(pcns) == 0 {
		return nil, nil
	}
	ids, pcns = ids[:min(len(ids), MaxClaimsForAnswer)], pcns[:min(len(pcns), MaxClaimsForAnswer)]
	// The numbers travel as two JSON arrays that the database expands, so
	// the statement is the same whatever their count (prepared once, not
	// parsed again with hundreds of placeholders for every inbound set: that
	// was a tenth of the CPU of an 835 in sets of 1,000 claims).
	idDoc, err := json.Marshal(orEmpty(ids))
	if err != nil {
		return nil, err
	}
	pcnDoc, err := json.Marshal(orEmpty(pcns))
	if err != nil {
		return nil, err
	}
	query := findClaimsForAnswerPostgres
	if q.r.sqlite {
		query = findClaimsForAnswerSQLite
	}
	rows, err := q.r.query(ctx, query, accountID, mode, string(idDoc), string(pcnDoc))
	if err != nil {
		return nil, err
	}
	return collect(rows, scanDentalClaim)
}

// MaxClaimsForAnswer bounds the ids and the patient control numbers of one
// FindClaimsForAnswer call.
const MaxClaimsForAnswer = 10000

const (
	findClaimsForAnswerSQLite = claimSelect + ` WHERE c.account_id = $1 AND c.mode = $2 AND (
		c.id IN (SELECT value FROM json_each($3)) OR c.patient_control_number IN (SELECT value FROM json_each($4)))
		ORDER BY c.created_at DESC, c.id DESC`
	findClaimsForAnswerPostgres = claimSelect + ` WHERE c.account_id = $1 AND c.mode = $2 AND (
		c.id IN (SELECT jsonb_array_elements_text($3::jsonb)) OR c.patient_control_number IN (SELECT jsonb_array_elements_text($4::jsonb)))
		ORDER BY c.created_at DESC, c.id DESC`
)

func orEmpty(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}

func (q *queries) FindClaimsByControlNumbers(ctx context.Context, accountID, mode, partnershipID, groupControl, setControl string) ([]DentalClaim, error) {
	rows, err := q.r.query(ctx, claimSelect+` JOIN transactions t ON t.id = c.transaction_id
		WHERE c.account_id = $1 AND c.mode = $2 AND c.group_control_number = $3 AND t.control_number = $4
		AND ($5 = '' OR t.partnership_id = $5) ORDER BY c.created_at DESC LIMIT 100`,
		accountID, mode, groupControl, setControl, partnershipID)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanDentalClaim)
}

func (q *queries) RecordClaimAnswer(ctx context.Context, a ClaimAnswer) (ClaimStatusChange, error) {
	var ch ClaimStatusChange
	err := q.atomic(ctx, func(q *queries) error {
		before, rank, err := q.claimState(ctx, a.AccountID, a.ClaimID)
		if err != nil {
			return err
		}
		ch = ClaimStatusChange{Before: before, After: before}
		res, err := q.w.exec(ctx, `INSERT INTO claim_answers (claim_id, account_id, mode, kind, outcome, execution_id,
			transaction_id, detail, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
			ON CONFLICT (claim_id, transaction_id) DO NOTHING`,
			a.ClaimID, a.AccountID, a.Mode, a.Kind, a.Outcome, a.ExecutionID, a.TransactionID, string(a.Detail), toUS(a.CreatedAt))
		if err != nil {
			return mapErr(err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err // recorded before
		}
		ch.Recorded = true
		if a.Paid {
			if _, err := q.w.exec(ctx, `UPDATE dental_claims SET paid_cents = paid_cents + $1, paid_known = 1
				WHERE account_id = $2 AND id = $3`, a.PaidCents, a.AccountID, a.ClaimID); err != nil {
				return mapErr(err)
			}
		}
		if a.Rank() < rank {
			return nil // a later kind answered already
		}
		after := before
		if a.State.Status != "" {
			after = a.State
		}
		_, err = q.w.exec(ctx, `UPDATE dental_claims SET answer = $1, answer_rank = $2, answered_at = $3, status = $4,
			status_reported_by = $5 WHERE account_id = $6 AND id = $7`,
			a.Outcome, a.Rank(), toUS(a.CreatedAt), after.Status, after.ReportedBy, a.AccountID, a.ClaimID)
		ch.After = after
		return mapErr(err)
	})
	return ch, err
}

func (q *queries) ListClaimAnswers(ctx context.Context, accountID, claimID string) ([]ClaimAnswer, error) {
	rows, err := q.r.query(ctx, `SELECT claim_id, account_id, mode, kind, outcome, execution_id, transaction_id, detail, created_at
		FROM claim_answers WHERE account_id = $1 AND claim_id = $2 ORDER BY created_at, transaction_id LIMIT 200`, accountID, claimID)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (ClaimAnswer, error) {
		var a ClaimAnswer
		var detail string
		var at int64
		if err := row.Scan(&a.ClaimID, &a.AccountID, &a.Mode, &a.Kind, &a.Outcome, &a.ExecutionID, &a.TransactionID, &detail, &at); err != nil {
			return ClaimAnswer{}, mapErr(err)
		}
		a.Detail, a.CreatedAt = bytesOrNil(detail), fromUS(at)
		return a, nil
	})
}

func (q *queries) ListDentalClaims(ctx context.Context, accountID string, f DentalClaimFilter) ([]ClaimRow, string, error) {
	w := newWhere(accountID)
	w.conds[0] = "c.account_id = $1"
	w.addIf(f.Mode != "", "c.mode = $?", f.Mode)
	w.addIf(f.PatientControlNumber != "", "c.patient_control_number = $?", f.PatientControlNumber)
	w.addIf(!f.From.IsZero(), "c.created_at >= $?", toUS(f.From))
	w.addIf(!f.To.IsZero(), "c.created_at < $?", toUS(f.To))
	switch f.Status {
	case "":
	case ClaimSubmitted:
		w.addIf(true, "c.answer = '' AND e.status = $?", ExecutionPendingDelivery)
	case ClaimDelivered:
		w.addIf(true, "(c.answer = 'acknowledged' OR (c.answer = '' AND e.status = $?))", ExecutionDelivered)
	case ClaimDeliveryFailed:
		w.addIf(true, "c.answer = '' AND e.status = $?", ExecutionFailed)
	default:
		w.addIf(true, "c.answer = $?", f.Status)
	}
	if err := w.cursor(f.Cursor, "c.created_at"); err != nil {
		return nil, "", err
	}
	// The cursor's id condition names the claim's id.
	w.conds[len(w.conds)-1] = replaceBareID(w.conds[len(w.conds)-1], f.Cursor != "")
	limit := pageLimit(f.Limit, 50)
	rows, err := q.r.query(ctx, `SELECT c.id, c.account_id, c.mode, c.patient_control_number, c.payer_id, c.charge_cents,
		c.control_number, c.execution_id, c.transaction_id, '', c.created_at, c.group_control_number,
		c.patient_name, c.answer, c.answered_at, COALESCE(e.status, '') FROM dental_claims c
		LEFT JOIN executions e ON e.id = c.execution_id WHERE `+w.sql()+`
		ORDER BY c.created_at DESC, c.id DESC LIMIT `+w.limit(limit+1), w.args...)
	if err != nil {
		return nil, "", err
	}
	list, err := collect(rows, func(row scanner) (ClaimRow, error) {
		var r ClaimRow
		c := &r.DentalClaim
		var resp string
		var created, answered int64
		err := row.Scan(&c.ID, &c.AccountID, &c.Mode, &c.PatientControlNumber, &c.PayerID, &c.ChargeCents, &c.ControlNumber,
			&c.ExecutionID, &c.TransactionID, &resp, &created, &c.GroupControlNumber, &c.PatientName, &c.Answer, &answered, &r.FileStatus)
		if err != nil {
			return ClaimRow{}, mapErr(err)
		}
		c.CreatedAt = fromUS(created)
		if answered != 0 {
			c.AnsweredAt = fromUS(answered)
		}
		return r, nil
	})
	if err != nil {
		return nil, "", err
	}
	list, next := trimPage(list, limit, func(r *ClaimRow) (time.Time, string) { return r.CreatedAt, r.ID })
	return list, next, nil
}

// replaceBareID qualifies the keyset condition's "id" with the claims'
// table (the list joins executions, which has an id too).
func replaceBareID(cond string, isCursor bool) string {
	if !isCursor {
		return cond
	}
	return strings.Replace(cond, "AND id <", "AND c.id <", 1)
}

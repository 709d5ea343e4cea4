package store

import (
	"context"
	"time"
)

// MaxClaimStatusInquiries bounds the answers a claim's timeline shows:
// the newest ones (a practice asks now and then; a loop asking thousands
// of times does not grow the timeline past it).
const MaxClaimStatusInquiries = 100

// ClaimStatusInquiries keeps what payers answered, in real time (a 277 to
// our 276), about a tenant's claims.
type ClaimStatusInquiries interface {
	// RecordClaimStatusInquiry stores one answer about one claim.
	RecordClaimStatusInquiry(ctx context.Context, s ClaimStatusInquiry) error
	// ClaimStatusInquiriesOf lists the answers about a claim of the
	// account and mode, oldest first: the newest MaxClaimStatusInquiries.
	ClaimStatusInquiriesOf(ctx context.Context, accountID, mode, claimID string) ([]ClaimStatusInquiry, error)
}

// ClaimStatusInquiry is a payer's real-time answer about one claim: its
// first status (STC-01's category, code and entity) and what it says of
// the payment.
type ClaimStatusInquiry struct {
	AccountID, Mode, ID, ClaimID string
	// PayerID is the payer asked (the directory's primary id).
	PayerID                                 string
	CategoryCode, StatusCode, EntityCode    string
	EffectiveDate                           string // CCYY-MM-DD
	SubmittedAmount, AmountPaid             string
	PaidDate, CheckNumber, PayerClaimNumber string
	CreatedAt                               time.Time
}

func (q *queries) RecordClaimStatusInquiry(ctx context.Context, s ClaimStatusInquiry) error {
	_, err := q.w.exec(ctx, `INSERT INTO claim_status_inquiries (account_id, mode, id, claim_id, payer_id, category_code,
		status_code, entity_code, effective_date, submitted_amount, amount_paid, paid_date, check_number, payer_claim_number,
		created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)`,
		s.AccountID, s.Mode, s.ID, s.ClaimID, s.PayerID, s.CategoryCode, s.StatusCode, s.EntityCode, s.EffectiveDate,
		s.SubmittedAmount, s.AmountPaid, s.PaidDate, s.CheckNumber, s.PayerClaimNumber, toUS(s.CreatedAt))
	return mapErr(err)
}

func (q *queries) ClaimStatusInquiriesOf(ctx context.Context, accountID, mode, claimID string) ([]ClaimStatusInquiry, error) {
	rows, err := q.r.query(ctx, `SELECT id, payer_id, category_code, status_code, entity_code, effective_date, submitted_amount,
		amount_paid, paid_date, check_number, payer_claim_number, created_at FROM claim_status_inquiries
		WHERE account_id = $1 AND mode = $2 AND claim_id = $3 ORDER BY created_at DESC, id DESC LIMIT $4`,
		accountID, mode, claimID, MaxClaimStatusInquiries)
	if err != nil {
		return nil, mapErr(err)
	}
	out, err := collect(rows, func(row scanner) (ClaimStatusInquiry, error) {
		s := ClaimStatusInquiry{AccountID: accountID, Mode: mode, ClaimID: claimID}
		var created int64
		err := row.Scan(&s.ID, &s.PayerID, &s.CategoryCode, &s.StatusCode, &s.EntityCode, &s.EffectiveDate, &s.SubmittedAmount,
			&s.AmountPaid, &s.PaidDate, &s.CheckNumber, &s.PayerClaimNumber, &created)
		s.CreatedAt = fromUS(created)
		return s, mapErr(err)
	})
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out, err
}

// ClaimStatusInquiries lists the real-time answers about one of the
// tenant's claims (a claim of another tenant is ErrNotFound).
func (t Tenant) ClaimStatusInquiries(ctx context.Context, claimID string) ([]ClaimStatusInquiry, error) {
	if _, err := t.DentalClaim(ctx, claimID); err != nil {
		return nil, err
	}
	return t.q.ClaimStatusInquiriesOf(ctx, t.scope.AccountID, t.scope.Mode, claimID)
}

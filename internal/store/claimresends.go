package store

import (
	"context"
	"time"
)

// ClaimResends links a claim to the claim it corrects, replaces or voids,
// so each claim's timeline can point to the other.
type ClaimResends interface {
	// RecordClaimResend records that r.ClaimID was sent in place of
	// r.PreviousClaimID. Call it in the new claim's transaction; a second
	// record for the same claim is ErrConflict.
	RecordClaimResend(ctx context.Context, r ClaimResend) error
	// ClaimResendsOf returns the links in which the claim is either side,
	// oldest first: the claim it resends (ClaimID == id) and the claims
	// sent in its place (PreviousClaimID == id).
	ClaimResendsOf(ctx context.Context, accountID, mode, id string) ([]ClaimResend, error)
}

// ClaimResend is one link: ClaimID was sent in place of PreviousClaimID.
// Frequency is the new claim's CLM05-3: "1" a corrected claim sent again
// after a rejection, "7" a replacement, "8" a void.
type ClaimResend struct {
	AccountID, Mode          string
	ClaimID, PreviousClaimID string
	Frequency                string
	CreatedAt                time.Time
}

func (q *queries) RecordClaimResend(ctx context.Context, r ClaimResend) error {
	_, err := q.w.exec(ctx, `INSERT INTO claim_resends (account_id, mode, claim_id, previous_claim_id, frequency, created_at)
		VALUES ($1, $2, $3, $4, $5, $6)`, r.AccountID, r.Mode, r.ClaimID, r.PreviousClaimID, r.Frequency, toUS(r.CreatedAt))
	return mapErr(err)
}

func (q *queries) ClaimResendsOf(ctx context.Context, accountID, mode, id string) ([]ClaimResend, error) {
	rows, err := q.r.query(ctx, `SELECT account_id, mode, claim_id, previous_claim_id, frequency, created_at FROM claim_resends
		WHERE account_id = $1 AND mode = $2 AND (claim_id = $3 OR previous_claim_id = $3)
		ORDER BY created_at, claim_id LIMIT 100`, accountID, mode, id)
	if err != nil {
		return nil, mapErr(err)
	}
	return collect(rows, func(row scanner) (ClaimResend, error) {
		var r ClaimResend
		var created int64
		err := row.Scan(&r.AccountID, &r.Mode, &r.ClaimID, &r.PreviousClaimID, &r.Frequency, &created)
		r.CreatedAt = fromUS(created)
		return r, mapErr(err)
	})
}

// ClaimResends returns the links of one of the tenant's claims (see
// ClaimResendsOf).
func (t Tenant) ClaimResends(ctx context.Context, claimID string) ([]ClaimResend, error) {
	if _, err := t.DentalClaim(ctx, claimID); err != nil {
		return nil, err
	}
	return t.q.ClaimResendsOf(ctx, t.scope.AccountID, t.scope.Mode, claimID)
}

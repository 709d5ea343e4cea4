package store

import (
	"context"
	"errors"
	"time"
)

// Idempotency states.
const (
	IdempotencyInFlight  = "in_flight"
	IdempotencyCompleted = "completed"
)

// IdempotencyWindow is how long a key is remembered (api-contract.md §0.1).
const IdempotencyWindow = 24 * time.Hour

// Idempotency holds the Idempotency-Key records of the claim endpoints.
// A request Starts its key, does its work, and Completes the key inside the
// transaction of that work (or Releases it when it fails), so the stored
// response is exactly what was committed.
type Idempotency interface {
	// StartIdempotentRequest records r (State in-flight, Owner a token of
	// the caller) unless the account holds the key already: then it returns
	// that record and started false. An expired record (ExpiresAt passed)
	// or an in-flight one whose lease passed (its replica died) is
	// replaced.
	StartIdempotentRequest(ctx context.Context, r IdempotencyRecord) (existing IdempotencyRecord, started bool, err error)
	// CompleteIdempotentRequest stores the response of the owner's request.
	// ErrConflict when the owner no longer holds the key in flight (its
	// lease passed and another request took the key over).
	CompleteIdempotentRequest(ctx context.Context, accountID, key, owner string, status int, body []byte) error
	// ReleaseIdempotentRequest forgets the owner's in-flight key (the
	// request failed; the caller may try again). No error when it is gone.
	ReleaseIdempotentRequest(ctx context.Context, accountID, key, owner string) error
}

// IdempotencyRecord is one key of one account.
type IdempotencyRecord struct {
	AccountID      string
	Key            string
	RequestHash    string // a hash of the route and the body
	State          string
	Owner          string
	LeaseUntil     time.Time
	ResponseStatus int
	ResponseBody   []byte
	CreatedAt      time.Time
	ExpiresAt      time.Time
}

const idempotencyColumns = `account_id, idem_key, request_hash, state, owner, lease_until, response_status, response_body, created_at, expires_at`

func (q *queries) StartIdempotentRequest(ctx context.Context, r IdempotencyRecord) (IdempotencyRecord, bool, error) {
	now := toUS(r.CreatedAt)
	for range 3 {
		// One statement: the row lock (PostgreSQL) or the single writer
		// (SQLite) decides which of two racing requests starts.
		got, err := scanIdempotency(q.w.queryRow(ctx, `INSERT INTO idempotency_keys (`+idempotencyColumns+`)
			VALUES ($1, $2, $3, 'in_flight', $4, $5, 0, '', $6, $7)
			ON CONFLICT (account_id, idem_key) DO UPDATE SET request_hash = excluded.request_hash,
				state = 'in_flight', owner = excluded.owner, lease_until = excluded.lease_until,
				response_status = 0, response_body = '', created_at = excluded.created_at, expires_at = excluded.expires_at
			WHERE idempotency_keys.expires_at <= $6
				OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.lease_until <= $6)
			RETURNING `+idempotencyColumns,
			r.AccountID, r.Key, r.RequestHash, r.Owner, toUS(r.LeaseUntil), now, toUS(r.ExpiresAt)))
		if err == nil {
			return got, true, nil
		}
		if !errors.Is(err, ErrNotFound) {
			return IdempotencyRecord{}, false, err
		}
		existing, err := scanIdempotency(q.w.queryRow(ctx, `SELECT `+idempotencyColumns+` FROM idempotency_keys
			WHERE account_id = $1 AND idem_key = $2`, r.AccountID, r.Key))
		if errors.Is(err, ErrNotFound) {
			continue // released between the two statements: try again
		}
		return existing, false, err
	}
	return IdempotencyRecord{}, false, ErrConflict
}

const completeIdempotentSQL = `UPDATE idempotency_keys SET state = 'completed', response_status = $4, response_body = $5
	WHERE account_id = $1 AND idem_key = $2 AND owner = $3 AND state = 'in_flight'`

func (q *queries) CompleteIdempotentRequest(ctx context.Context, accountID, key, owner string, status int, body []byte) error {
	err := affected(q.w.exec(ctx, completeIdempotentSQL,
		accountID, key, owner, status, string(body)))
	if errors.Is(err, ErrNotFound) {
		return ErrConflict
	}
	return err
}

func (q *queries) ReleaseIdempotentRequest(ctx context.Context, accountID, key, owner string) error {
	_, err := q.w.exec(ctx, `DELETE FROM idempotency_keys WHERE account_id = $1 AND idem_key = $2 AND owner = $3 AND state = 'in_flight'`,
		accountID, key, owner)
	return mapErr(err)
}

func scanIdempotency(row scanner) (IdempotencyRecord, error) {
	var r IdempotencyRecord
	var body string
	var lease, created, expires int64
	if err := row.Scan(&r.AccountID, &r.Key, &r.RequestHash, &r.State, &r.Owner, &lease, &r.ResponseStatus, &body,
		&created, &expires); err != nil {
		return IdempotencyRecord{}, mapErr(err)
	}
	r.LeaseUntil, r.CreatedAt, r.ExpiresAt = fromUS(lease), fromUS(created), fromUS(expires)
	if body != "" {
		r.ResponseBody = []byte(body)
	}
	return r, nil
}

// DentalClaims records accepted dental claim submissions.
type DentalClaims interface {
	InsertDentalClaim(ctx context.Context, c DentalClaim) error
	GetDentalClaim(ctx context.Context, accountID, id string) (DentalClaim, error)
}

// DentalClaim is one accepted submission: the claim reference and where its
// 837D went.
type DentalClaim struct {
	ID                   string // claimReference.correlationId
	AccountID            string
	Mode                 string
	PatientControlNumber string
	PayerID              string
	ChargeCents          int64
	ControlNumber        string // ISA13 of the 837D
	ExecutionID          string // the outbound execution
	TransactionID        string // the outbound transaction
	Response             []byte // the 200 body
	CreatedAt            time.Time
	// GroupControlNumber is the 837D's GS06 (how a 999 points back);
	// PatientName is the patient's name as the claim gives it.
	GroupControlNumber string
	PatientName        string
	// Answer is the latest outcome the payer sent (claimstatus.go), ""
	// until a 999, 277CA or 835 refers to the claim.
	Answer     string
	AnsweredAt time.Time
	// Lifecycle is the claim as the claims lifecycle API shows it
	// (claimlifecycle.go).
	Lifecycle ClaimLifecycle
}

const dentalClaimColumns = `id, account_id, mode, patient_control_number, payer_id, charge_cents, control_number,
	execution_id, transaction_id, response, created_at, group_control_number, patient_name, ` + lifecycleColumns

const insertDentalClaimSQL = `INSERT INTO dental_claims (` + dentalClaimColumns + `) VALUES ($1, $2, $3, $4, $5, $6, $7, $8,
	$9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21)`

func (q *queries) InsertDentalClaim(ctx context.Context, c DentalClaim) error {
	l := c.Lifecycle
	_, err := q.w.exec(ctx, insertDentalClaimSQL,
		c.ID, c.AccountID, c.Mode, c.PatientControlNumber, c.PayerID, c.ChargeCents, c.ControlNumber, c.ExecutionID,
		c.TransactionID, string(c.Response), toUS(c.CreatedAt), c.GroupControlNumber, c.PatientName,
		l.Type, l.Status, l.ReportedBy, l.PaidCents, boolInt(l.PaidKnown), l.ServiceStart, l.ServiceEnd, string(l.Patient))
	return mapErr(err)
}

func (q *queries) GetDentalClaim(ctx context.Context, accountID, id string) (DentalClaim, error) {
	return scanDentalClaim(q.r.queryRow(ctx, `SELECT `+dentalClaimColumns+`, answer, answered_at FROM dental_claims
		WHERE account_id = $1 AND id = $2`, accountID, id))
}

func scanDentalClaim(row scanner) (DentalClaim, error) {
	var c DentalClaim
	var resp, patient string
	var created, answered int64
	var paidKnown int
	l := &c.Lifecycle
	err := row.Scan(&c.ID, &c.AccountID, &c.Mode, &c.PatientControlNumber, &c.PayerID, &c.ChargeCents, &c.ControlNumber,
		&c.ExecutionID, &c.TransactionID, &resp, &created, &c.GroupControlNumber, &c.PatientName,
		&l.Type, &l.Status, &l.ReportedBy, &l.PaidCents, &paidKnown, &l.ServiceStart, &l.ServiceEnd, &patient,
		&c.Answer, &answered)
	if err != nil {
		return DentalClaim{}, mapErr(err)
	}
	c.Response, c.CreatedAt = []byte(resp), fromUS(created)
	l.PaidKnown, l.Patient = paidKnown != 0, bytesOrNil(patient)
	if answered != 0 {
		c.AnsweredAt = fromUS(answered)
	}
	return c, nil
}

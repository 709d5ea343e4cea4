package store

import (
	"context"
	"time"
)

// States of an upstream submission.
const (
	UpstreamSending     = "SENDING"
	UpstreamUnknown     = "UNKNOWN"
	UpstreamAccepted    = "ACCEPTED"
	UpstreamNotAccepted = "NOT_ACCEPTED"
)

// UpstreamSubmission is one route's part in delivering one outbound file
// to CLEARINGHOUSE_API upstreams (package upstream's claim failover).
type UpstreamSubmission struct {
	AccountID    string
	Mode         string
	ExecutionID  string
	ConnectionID string
	// State is UpstreamSending (about to be sent: a crash leaves it so),
	// UpstreamUnknown (sent, and no answer says whether the upstream took
	// it), UpstreamAccepted or UpstreamNotAccepted. SENDING and UNKNOWN pin
	// the file to this route.
	State string
	// Tries counts the requests sent through this route.
	Tries int
	// Message is the upstream's acceptance ("File was accepted by …") or
	// the error; never PHI.
	Message   string
	CreatedAt time.Time
	UpdatedAt time.Time
}

// UpstreamSubmissions stores them. Every call names the account and mode.
type UpstreamSubmissions interface {
	// MarkUpstreamSubmission creates or updates the row of (execution,
	// connection) with s's State, Message and UpdatedAt; a move to
	// UpstreamSending counts a try. A row already ACCEPTED never changes:
	// ErrConflict.
	MarkUpstreamSubmission(ctx context.Context, s UpstreamSubmission) error
	// ListUpstreamSubmissions lists an execution's rows, oldest first.
	ListUpstreamSubmissions(ctx context.Context, accountID, mode, executionID string) ([]UpstreamSubmission, error)
}

func (q *queries) MarkUpstreamSubmission(ctx context.Context, s UpstreamSubmission) error {
	try := 0
	if s.State == UpstreamSending {
		try = 1
	}
	res, err := q.w.exec(ctx, `INSERT INTO upstream_submissions (account_id, mode, execution_id, connection_id, state, tries,
		message, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)
		ON CONFLICT (account_id, mode, execution_id, connection_id) DO UPDATE SET state = $5,
		tries = upstream_submissions.tries + $6, message = $7, updated_at = $8
		WHERE upstream_submissions.state <> 'ACCEPTED'`,
		s.AccountID, s.Mode, s.ExecutionID, s.ConnectionID, s.State, try, s.Message, toUS(s.UpdatedAt))
	if err != nil {
		return mapErr(err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrConflict
	}
	return nil
}

func (q *queries) ListUpstreamSubmissions(ctx context.Context, accountID, mode, executionID string) ([]UpstreamSubmission, error) {
	rows, err := q.r.query(ctx, `SELECT connection_id, state, tries, message, created_at, updated_at FROM upstream_submissions
		WHERE account_id = $1 AND mode = $2 AND execution_id = $3 ORDER BY created_at, connection_id`, accountID, mode, executionID)
	if err != nil {
		return nil, mapErr(err)
	}
	return collect(rows, func(row scanner) (UpstreamSubmission, error) {
		s := UpstreamSubmission{AccountID: accountID, Mode: mode, ExecutionID: executionID}
		var created, updated int64
		if err := row.Scan(&s.ConnectionID, &s.State, &s.Tries, &s.Message, &created, &updated); err != nil {
			return UpstreamSubmission{}, mapErr(err)
		}
		s.CreatedAt, s.UpdatedAt = fromUS(created), fromUS(updated)
		return s, nil
	})
}

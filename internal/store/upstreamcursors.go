package store

import (
	"context"
	"time"
)

// UpstreamCursor is how far the answers of one CLEARINGHOUSE_API
// connection have been collected from its upstream's polling endpoint.
type UpstreamCursor struct {
	AccountID    string
	Mode         string
	ConnectionID string
	// After is the processedAt of the last upstream transaction handed to
	// our inbound path; the next poll asks for what came after it.
	After time.Time
	// JobID is the poll job that carries the connection now.
	JobID string
	// Ingested counts the upstream transactions received so far.
	Ingested  int64
	UpdatedAt time.Time
}

// UpstreamCursors stores the cursors. Every call names the account and the
// mode.
type UpstreamCursors interface {
	// CreateUpstreamCursor inserts c unless the connection has a cursor;
	// created says whether it did (then enqueue c.JobID in the same
	// transaction).
	CreateUpstreamCursor(ctx context.Context, c UpstreamCursor) (created bool, err error)
	// GetUpstreamCursor returns ErrNotFound when the connection has none.
	GetUpstreamCursor(ctx context.Context, accountID, mode, connectionID string) (UpstreamCursor, error)
	// SaveUpstreamCursor writes After, JobID, Ingested and UpdatedAt.
	SaveUpstreamCursor(ctx context.Context, c UpstreamCursor) error
}

func (q *queries) CreateUpstreamCursor(ctx context.Context, c UpstreamCursor) (bool, error) {
	n, err := q.w.exec(ctx, `INSERT INTO upstream_cursors (account_id, mode, connection_id, processed_after, job_id, ingested, updated_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (account_id, mode, connection_id) DO NOTHING`,
		c.AccountID, c.Mode, c.ConnectionID, toUS(c.After), c.JobID, c.Ingested, toUS(c.UpdatedAt))
	if err != nil {
		return false, mapErr(err)
	}
	rows, err := n.RowsAffected()
	return rows == 1, mapErr(err)
}

func (q *queries) GetUpstreamCursor(ctx context.Context, accountID, mode, connectionID string) (UpstreamCursor, error) {
	c := UpstreamCursor{AccountID: accountID, Mode: mode, ConnectionID: connectionID}
	var after, updated int64
	err := q.r.queryRow(ctx, `SELECT processed_after, job_id, ingested, updated_at FROM upstream_cursors
		WHERE account_id = $1 AND mode = $2 AND connection_id = $3`, accountID, mode, connectionID).
		Scan(&after, &c.JobID, &c.Ingested, &updated)
	if err != nil {
		return UpstreamCursor{}, mapErr(err)
	}
	c.After, c.UpdatedAt = fromUS(after), fromUS(updated)
	return c, nil
}

func (q *queries) SaveUpstreamCursor(ctx context.Context, c UpstreamCursor) error {
	res, err := q.w.exec(ctx, `UPDATE upstream_cursors SET processed_after = $4, job_id = $5, ingested = $6, updated_at = $7
		WHERE account_id = $1 AND mode = $2 AND connection_id = $3`,
		c.AccountID, c.Mode, c.ConnectionID, toUS(c.After), c.JobID, c.Ingested, toUS(c.UpdatedAt))
	if err != nil {
		return mapErr(err)
	}
	if n, err := res.RowsAffected(); err == nil && n == 0 {
		return ErrNotFound
	}
	return nil
}

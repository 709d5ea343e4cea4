package store

import (
	"context"
	"database/sql"
	"strconv"
	"strings"
	"time"
)

const deliveryColumns = `id, account_id, webhook_id, event_id, detail_type, status, attempts, round_attempts,
	next_attempt_type, next_attempt_at, job_id, inflight_until, waiting_since, last_status_code, last_error,
	created_at, updated_at, delivered_at`

// ON CONFLICT … DO NOTHING is spelled the same on SQLite (3.24+) and
// PostgreSQL.
const insertDeliverySQL = `INSERT INTO webhook_deliveries (` + deliveryColumns + `)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)
	ON CONFLICT (event_id, webhook_id) DO NOTHING`

const getDeliverySQL = `SELECT ` + deliveryColumns + ` FROM webhook_deliveries WHERE account_id = $1 AND id = $2`

const updateDeliverySQL = `UPDATE webhook_deliveries SET status = $1, attempts = $2, round_attempts = $3,
		next_attempt_type = $4, next_attempt_at = $5, job_id = $6, inflight_until = $7, waiting_since = $8,
		last_status_code = $9, last_error = $10, updated_at = $11, delivered_at = $12
	WHERE account_id = $13 AND id = $14`

const countInflightSQL = `SELECT COUNT(*) FROM webhook_deliveries WHERE webhook_id = $1 AND inflight_until > $2`

const wakeWaitingSQL = `UPDATE jobs SET run_at = $1
	WHERE state = 'available' AND run_at > $1 AND id = (
		SELECT job_id FROM webhook_deliveries
		WHERE webhook_id = $2 AND waiting_since IS NOT NULL AND status = 'PENDING'
		ORDER BY waiting_since, id LIMIT 1)`

const insertAttemptSQL = `INSERT INTO webhook_attempts (delivery_id, attempt, attempt_type, started_at, latency_us,
		status_code, response_excerpt, error, succeeded)
	VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`

// The delivery path runs these inside transactions: prepare them when the
// store opens (see stmtCache).
var webhookDeliveryStatements = []string{insertDeliverySQL, updateDeliverySQL, countInflightSQL,
	wakeWaitingSQL, insertAttemptSQL, lockWebhookSQL, setFailingSinceSQL, getDeliverySQL}

func (q *queries) InsertWebhookDelivery(ctx context.Context, d WebhookDelivery) (bool, error) {
	res, err := q.w.exec(ctx, insertDeliverySQL, deliveryArgs(d)...)
	if err != nil {
		return false, mapErr(err)
	}
	n, err := res.RowsAffected()
	return n == 1, err
}

func deliveryArgs(d WebhookDelivery) []any {
	return []any{d.ID, d.AccountID, d.WebhookID, d.EventID, d.DetailType, d.Status, d.Attempts, d.RoundAttempts,
		d.NextAttemptType, nullUS(d.NextAttemptAt), d.JobID, nullUS(d.InflightUntil), nullUS(d.WaitingSince),
		d.LastStatusCode, d.LastError, toUS(d.CreatedAt), toUS(d.UpdatedAt), nullUS(d.DeliveredAt)}
}

func (q *queries) GetWebhookDelivery(ctx context.Context, accountID, id string) (WebhookDelivery, error) {
	// Through the writer: the delivery path reads it inside its
	// transaction and must see its own writes.
	return scanDelivery(q.w.queryRow(ctx, getDeliverySQL, accountID, id))
}

func (q *queries) UpdateWebhookDelivery(ctx context.Context, d WebhookDelivery) error {
	res, err := q.w.exec(ctx, updateDeliverySQL, d.Status, d.Attempts, d.RoundAttempts, d.NextAttemptType,
		nullUS(d.NextAttemptAt), d.JobID, nullUS(d.InflightUntil), nullUS(d.WaitingSince), d.LastStatusCode,
		d.LastError, toUS(d.UpdatedAt), nullUS(d.DeliveredAt), d.AccountID, d.ID)
	return affectedOne(res, err)
}

func (q *queries) CountInflightWebhookDeliveries(ctx context.Context, webhookID string, now time.Time) (int, error) {
	var n int
	err := q.w.queryRow(ctx, countInflightSQL, webhookID, toUS(now)).Scan(&n)
	return n, err
}

func (q *queries) WakeWaitingWebhookDelivery(ctx context.Context, webhookID string, now time.Time) error {
	_, err := q.w.exec(ctx, wakeWaitingSQL, toUS(now), webhookID)
	return err
}

func (q *queries) ListWebhookDeliveries(ctx context.Context, accountID string, f WebhookDeliveryFilter) ([]WebhookDelivery, string, error) {
	conds := []string{"account_id = $1"}
	args := []any{accountID}
	add := func(cond string, v any) {
		args = append(args, v)
		conds = append(conds, strings.ReplaceAll(cond, "$?", "$"+strconv.Itoa(len(args))))
	}
	if f.WebhookID != "" {
		add("webhook_id = $?", f.WebhookID)
	}
	if f.EventID != "" {
		add("event_id = $?", f.EventID)
	}
	if f.Status != "" {
		add("status = $?", f.Status)
	}
	if f.Cursor != "" {
		at, id, err := decodeCursor(f.Cursor)
		if err != nil {
			return nil, "", err
		}
		args = append(args, at, id)
		n := len(args)
		conds = append(conds, "(created_at < $"+strconv.Itoa(n-1)+" OR (created_at = $"+strconv.Itoa(n-1)+" AND id < $"+strconv.Itoa(n)+"))")
	}
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	limit = min(limit, 500)
	args = append(args, limit+1)
	rows, err := q.r.query(ctx, `SELECT `+deliveryColumns+` FROM webhook_deliveries WHERE `+strings.Join(conds, " AND ")+`
		ORDER BY created_at DESC, id DESC LIMIT $`+strconv.Itoa(len(args)), args...)
	if err != nil {
		return nil, "", err
	}
	out, err := collect(rows, scanDelivery)
	if err != nil {
		return nil, "", err
	}
	next := ""
	if len(out) > limit {
		out = out[:limit]
		last := out[limit-1]
		next = encodeCursor(toUS(last.CreatedAt), last.ID)
	}
	return out, next, nil
}

func (q *queries) InsertWebhookAttempt(ctx context.Context, a WebhookAttempt) error {
	ok := 0
	if a.Succeeded {
		ok = 1
	}
	_, err := q.w.exec(ctx, insertAttemptSQL, a.DeliveryID, a.Attempt, a.AttemptType, toUS(a.StartedAt),
		a.Latency.Microseconds(), a.StatusCode, a.ResponseExcerpt, a.Error, ok)
	return mapErr(err)
}

func (q *queries) ListWebhookAttempts(ctx context.Context, accountID string, deliveryIDs ...string) ([]WebhookAttempt, error) {
	if len(deliveryIDs) == 0 {
		return nil, nil
	}
	args := []any{accountID}
	for _, id := range deliveryIDs {
		args = append(args, id)
	}
	rows, err := q.r.query(ctx, `SELECT a.delivery_id, a.attempt, a.attempt_type, a.started_at, a.latency_us,
			a.status_code, a.response_excerpt, a.error, a.succeeded
		FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id
		WHERE d.account_id = $1 AND a.delivery_id IN (`+placeholders(2, len(deliveryIDs))+`)
		ORDER BY a.delivery_id, a.attempt`, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (WebhookAttempt, error) {
		var a WebhookAttempt
		var started, latency int64
		var ok int
		err := row.Scan(&a.DeliveryID, &a.Attempt, &a.AttemptType, &started, &latency, &a.StatusCode,
			&a.ResponseExcerpt, &a.Error, &ok)
		a.StartedAt, a.Latency, a.Succeeded = fromUS(started), time.Duration(latency)*time.Microsecond, ok == 1
		return a, err
	})
}

func scanDelivery(row scanner) (WebhookDelivery, error) {
	var d WebhookDelivery
	var next, inflight, waiting, delivered sql.NullInt64
	var created, updated int64
	err := row.Scan(&d.ID, &d.AccountID, &d.WebhookID, &d.EventID, &d.DetailType, &d.Status, &d.Attempts,
		&d.RoundAttempts, &d.NextAttemptType, &next, &d.JobID, &inflight, &waiting, &d.LastStatusCode,
		&d.LastError, &created, &updated, &delivered)
	if err != nil {
		return WebhookDelivery{}, mapErr(err)
	}
	d.NextAttemptAt, d.InflightUntil, d.WaitingSince = fromNullUS(next), fromNullUS(inflight), fromNullUS(waiting)
	d.CreatedAt, d.UpdatedAt, d.DeliveredAt = fromUS(created), fromUS(updated), fromNullUS(delivered)
	return d, nil
}

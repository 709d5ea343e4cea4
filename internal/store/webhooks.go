package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"time"
)

// Webhooks keeps the account's webhooks, one delivery per event and
// webhook, and every attempt of each delivery (package webhooks drives
// them). Secrets and credentials arrive sealed; the store never sees them in
// the clear.
type Webhooks interface {
	CreateWebhook(ctx context.Context, w Webhook) error
	GetWebhook(ctx context.Context, accountID, id string) (Webhook, error)
	// LockWebhook is GetWebhook that, on PostgreSQL, also locks the row
	// until the transaction ends (SELECT … FOR UPDATE), so the workers of
	// every replica take a webhook's concurrency slots one at a time and an
	// edit never interleaves with another. Call it inside InTx.
	LockWebhook(ctx context.Context, accountID, id string) (Webhook, error)
	// ListWebhooks returns the account's webhooks of one mode (all modes
	// when mode is ""), oldest first.
	ListWebhooks(ctx context.Context, accountID, mode string) ([]Webhook, error)
	// UpdateWebhook saves every setting of w (not FailingSince, which only
	// SetWebhookFailingSince changes, nor CreatedAt).
	UpdateWebhook(ctx context.Context, w Webhook) error
	DeleteWebhook(ctx context.Context, accountID, id string) error
	// SetWebhookFailingSince records when the webhook's current run of
	// failed attempts began (zero: it is healthy).
	SetWebhookFailingSince(ctx context.Context, id string, since time.Time) error

	// InsertWebhookDelivery adds d unless the event already has a delivery
	// to that webhook; it reports whether it did (a dispatch that runs twice
	// creates nothing twice).
	InsertWebhookDelivery(ctx context.Context, d WebhookDelivery) (bool, error)
	GetWebhookDelivery(ctx context.Context, accountID, id string) (WebhookDelivery, error)
	// UpdateWebhookDelivery saves d's progress (everything but its ids,
	// event and creation time).
	UpdateWebhookDelivery(ctx context.Context, d WebhookDelivery) error
	// CountInflightWebhookDeliveries counts the webhook's deliveries being
	// sent right now (InflightUntil after now).
	CountInflightWebhookDeliveries(ctx context.Context, webhookID string, now time.Time) (int, error)
	// WakeWaitingWebhookDelivery makes the job of the webhook's longest
	// waiting delivery (WaitingSince set) due now: a slot has come free.
	WakeWaitingWebhookDelivery(ctx context.Context, webhookID string, now time.Time) error
	// ListWebhookDeliveries returns deliveries newest first, with the cursor
	// of the next page ("" on the last).
	ListWebhookDeliveries(ctx context.Context, accountID string, f WebhookDeliveryFilter) ([]WebhookDelivery, string, error)
	InsertWebhookAttempt(ctx context.Context, a WebhookAttempt) error
	// ListWebhookAttempts returns the attempts of the given deliveries of
	// the account, by delivery then attempt number.
	ListWebhookAttempts(ctx context.Context, accountID string, deliveryIDs ...string) ([]WebhookAttempt, error)
}

// Webhook states and delivery states.
const (
	WebhookEnabled  = "ENABLED"
	WebhookDisabled = "DISABLED"

	DeliveryPending   = "PENDING"
	DeliveryDelivered = "DELIVERED"
	DeliveryFailed    = "FAILED"

	AttemptAutomatic = "AUTOMATIC"
	AttemptManual    = "MANUAL"
)

// Webhook is where an account's events go.
type Webhook struct {
	ID          string
	AccountID   string
	Mode        string // the mode of the key that created it; it gets that mode's events
	URL         string
	Description string
	EventTypes  []string // detail-types; empty: all
	Filters     WebhookFilters
	Status      string // WebhookEnabled or WebhookDisabled
	// DisabledReason says why the service disabled it ("" when a user did).
	DisabledReason string
	Concurrency    int
	// Secret is the sealed signing secret; PreviousSecret the sealed one it
	// replaced, which also signs until PreviousSecretUntil.
	Secret              string
	PreviousSecret      string
	PreviousSecretUntil time.Time
	AuthType            string // "NONE", "API_KEY", "BASIC"
	Auth                string // sealed credentials ("" for NONE)
	FailingSince        time.Time
	CreatedAt           time.Time
	UpdatedAt           time.Time
}

// WebhookFilters narrow the events a webhook gets, as the hosted event
// bindings do. Empty fields do not filter.
type WebhookFilters struct {
	Direction                string `json:"direction,omitempty"`
	TransactionSetIdentifier string `json:"transactionSetIdentifier,omitempty"`
	PartnershipID            string `json:"partnershipId,omitempty"`
}

// WebhookDelivery is one event on its way to one webhook.
type WebhookDelivery struct {
	ID         string
	AccountID  string
	WebhookID  string
	EventID    string
	DetailType string
	Status     string // DeliveryPending, DeliveryDelivered, DeliveryFailed
	Attempts   int    // attempts made in all
	// RoundAttempts counts the attempts since the schedule last started
	// (a re-emit starts it again).
	RoundAttempts   int
	NextAttemptType string // AttemptAutomatic or AttemptManual
	NextAttemptAt   time.Time
	// JobID is the job that owns the next attempt; a job that finds another
	// id here has been superseded and does nothing.
	JobID          string
	InflightUntil  time.Time // a worker holds a concurrency slot until then
	WaitingSince   time.Time // waiting for a slot since then
	LastStatusCode int
	LastError      string
	CreatedAt      time.Time
	UpdatedAt      time.Time
	DeliveredAt    time.Time
}

// WebhookDeliveryFilter selects deliveries by webhook or event.
type WebhookDeliveryFilter struct {
	WebhookID string
	EventID   string
	Status    string
	Limit     int // default 50, at most 500
	Cursor    string
}

// WebhookAttempt is one HTTP call of a delivery.
type WebhookAttempt struct {
	DeliveryID      string
	Attempt         int
	AttemptType     string
	StartedAt       time.Time
	Latency         time.Duration
	StatusCode      int    // 0 when no answer came
	ResponseExcerpt string // first 1 KiB of the answer
	Error           string
	Succeeded       bool
}

const webhookColumns = `id, account_id, mode, url, description, event_types, filters, status, disabled_reason,
	concurrency, secret, previous_secret, previous_secret_until, auth_type, auth, failing_since, created_at, updated_at`

func (q *queries) CreateWebhook(ctx context.Context, w Webhook) error {
	types, filters, err := webhookJSON(w)
	if err != nil {
		return err
	}
	_, err = q.w.exec(ctx, `INSERT INTO webhooks (`+webhookColumns+`)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18)`,
		w.ID, w.AccountID, w.Mode, w.URL, w.Description, types, filters, w.Status, w.DisabledReason,
		w.Concurrency, w.Secret, w.PreviousSecret, nullUS(w.PreviousSecretUntil), w.AuthType, w.Auth,
		nullUS(w.FailingSince), toUS(w.CreatedAt), toUS(w.UpdatedAt))
	return mapErr(err)
}

func webhookJSON(w Webhook) (types, filters string, err error) {
	if w.EventTypes == nil {
		w.EventTypes = []string{}
	}
	t, err := json.Marshal(w.EventTypes)
	if err != nil {
		return "", "", err
	}
	f, err := json.Marshal(w.Filters)
	return string(t), string(f), err
}

func (q *queries) GetWebhook(ctx context.Context, accountID, id string) (Webhook, error) {
	return scanWebhook(q.r.queryRow(ctx, `SELECT `+webhookColumns+` FROM webhooks WHERE account_id = $1 AND id = $2`, accountID, id))
}

const lockWebhookSQL = `SELECT ` + webhookColumns + ` FROM webhooks WHERE account_id = $1 AND id = $2`

func (q *queries) LockWebhook(ctx context.Context, accountID, id string) (Webhook, error) {
	query := lockWebhookSQL
	if !q.w.sqlite {
		query += " FOR UPDATE" // SQLite's single writer already serializes
	}
	return scanWebhook(q.w.queryRow(ctx, query, accountID, id))
}

func (q *queries) ListWebhooks(ctx context.Context, accountID, mode string) ([]Webhook, error) {
	rows, err := q.r.query(ctx, `SELECT `+webhookColumns+` FROM webhooks
		WHERE account_id = $1 AND ($2 = '' OR mode = $2) ORDER BY created_at, id`, accountID, mode)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanWebhook)
}

func (q *queries) UpdateWebhook(ctx context.Context, w Webhook) error {
	types, filters, err := webhookJSON(w)
	if err != nil {
		return err
	}
	res, err := q.w.exec(ctx, `UPDATE webhooks SET url = $1, description = $2, event_types = $3, filters = $4,
			status = $5, disabled_reason = $6, concurrency = $7, secret = $8, previous_secret = $9,
			previous_secret_until = $10, auth_type = $11, auth = $12, updated_at = $13
		WHERE account_id = $14 AND id = $15`,
		w.URL, w.Description, types, filters, w.Status, w.DisabledReason, w.Concurrency, w.Secret,
		w.PreviousSecret, nullUS(w.PreviousSecretUntil), w.AuthType, w.Auth, toUS(w.UpdatedAt), w.AccountID, w.ID)
	return affectedOne(res, err)
}

func (q *queries) DeleteWebhook(ctx context.Context, accountID, id string) error {
	return q.atomic(ctx, func(q *queries) error {
		// Attempts and deliveries go with it (ON DELETE CASCADE on both
		// engines); their pending jobs find no delivery and do nothing.
		res, err := q.w.exec(ctx, `DELETE FROM webhooks WHERE account_id = $1 AND id = $2`, accountID, id)
		return affectedOne(res, err)
	})
}

const setFailingSinceSQL = `UPDATE webhooks SET failing_since = $1 WHERE id = $2`

func (q *queries) SetWebhookFailingSince(ctx context.Context, id string, since time.Time) error {
	_, err := q.w.exec(ctx, setFailingSinceSQL, nullUS(since), id)
	return err
}

// affectedOne turns "no row changed" into ErrNotFound.
func affectedOne(res sql.Result, err error) error {
	if err != nil {
		return mapErr(err)
	}
	if n, err := res.RowsAffected(); err != nil {
		return err
	} else if n == 0 {
		return ErrNotFound
	}
	return nil
}

func scanWebhook(row scanner) (Webhook, error) {
	var w Webhook
	var types, filters string
	var prevUntil, failing sql.NullInt64
	var created, updated int64
	err := row.Scan(&w.ID, &w.AccountID, &w.Mode, &w.URL, &w.Description, &types, &filters, &w.Status,
		&w.DisabledReason, &w.Concurrency, &w.Secret, &w.PreviousSecret, &prevUntil, &w.AuthType, &w.Auth,
		&failing, &created, &updated)
	if err != nil {
		return Webhook{}, mapErr(err)
	}
	if err := json.Unmarshal([]byte(types), &w.EventTypes); err != nil {
		return Webhook{}, fmt.Errorf("store: webhook %s event types: %w", w.ID, err)
	}
	if err := json.Unmarshal([]byte(filters), &w.Filters); err != nil {
		return Webhook{}, fmt.Errorf("store: webhook %s filters: %w", w.ID, err)
	}
	w.PreviousSecretUntil, w.FailingSince = fromNullUS(prevUntil), fromNullUS(failing)
	w.CreatedAt, w.UpdatedAt = fromUS(created), fromUS(updated)
	return w, nil
}

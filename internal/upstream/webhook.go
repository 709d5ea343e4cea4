package upstream

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Answers also come back by the upstream's webhooks: the upstream sends
// its events (Standard Webhooks, as Clearhouse's own) to
// WebhookPath + a token of the connection. The token is the connection's
// account, mode and id sealed with the server's secrets key: it names
// nothing another party can read or guess, and only this server can open
// it. The event's signature is checked with the connection's stored
// secret webhookSecret (the signing secret the upstream gave when the
// destination was made there). A transaction.processed.v2 of an inbound
// 999, 277 or 835 enqueues FetchKind, which takes the transaction exactly
// as a poll does: the same execution id, so an answer that arrives by
// webhook and by polling (or twice by webhook) is received once.

// WebhookPath is where upstream events are received (POST, no API key).
const WebhookPath = "/2023-08-01/upstream-webhooks/"

// FetchKind is the job that takes one upstream transaction named by a
// webhook.
const FetchKind = "upstream.fetch"

// MaxWebhookBody bounds one event (an event carries ids, not files).
const MaxWebhookBody = 256 << 10

// FieldWebhookSecret is the stored secret that signs the upstream's events.
const FieldWebhookSecret = "webhookSecret"

const webhookTokenContext = "upstream-webhook-token"

// WebhookToken is the path token of a stored connection's webhook URL.
func WebhookToken(box *secrets.Box, accountID, mode, connectionID string) (string, error) {
	if !box.Configured() {
		return "", secrets.ErrNoKey
	}
	sealed, err := box.SealString(accountID+"\x00"+mode+"\x00"+connectionID, webhookTokenContext)
	if err != nil {
		return "", err
	}
	return base64.RawURLEncoding.EncodeToString([]byte(sealed)), nil
}

func openWebhookToken(box *secrets.Box, token string) (accountID, mode, connectionID string, ok bool) {
	if !box.Configured() || len(token) > 1024 {
		return "", "", "", false
	}
	raw, err := base64.RawURLEncoding.DecodeString(token)
	if err != nil {
		return "", "", "", false
	}
	plain, err := box.OpenString(string(raw), webhookTokenContext)
	if err != nil {
		return "", "", "", false
	}
	parts := strings.Split(plain, "\x00")
	if len(parts) != 3 {
		return "", "", "", false
	}
	return parts[0], parts[1], parts[2], true
}

// Errors of Webhook.Receive, which the API answers with their status.
var (
	// ErrUnknownWebhook: the token opens to no CLEARINGHOUSE_API connection
	// with a webhookSecret (404: nothing tells a prober more).
	ErrUnknownWebhook = errors.New("no upstream webhook at this URL")
	// ErrWebhookSignature: the signature headers do not verify (401).
	ErrWebhookSignature = errors.New("the webhook's signature does not verify with the connection's webhookSecret")
)

// WebhookEventError is an event that cannot be read (400).
type WebhookEventError struct{ Message string }

func (e *WebhookEventError) Error() string { return e.Message }

// Webhook receives upstream events for every stored connection.
type Webhook struct {
	Poller *Poller
	Box    *secrets.Box
}

// Register adds FetchKind to the poller's queue.
func (w *Webhook) Register() {
	w.Poller.Jobs.Register(FetchKind, jobs.Policy{MaxAttempts: 5, Backoff: jobs.Fixed(time.Minute), Timeout: 5 * time.Minute,
		Lane: jobs.LaneOutbound}, w.fetch)
}

type fetchPayload struct {
	AccountID     string `json:"accountId"`
	Mode          string `json:"mode"`
	ConnectionID  string `json:"connectionId"`
	TransactionID string `json:"transactionId"`
	Set           string `json:"set"`
}

// Receive checks one event and, for an answer, enqueues its fetch; it
// returns once the job is committed. queued says whether a fetch was
// enqueued now (false: not an answer, or one queued before).
func (w *Webhook) Receive(ctx context.Context, token string, h http.Header, body []byte) (queued bool, err error) {
	account, mode, id, ok := openWebhookToken(w.Box, token)
	if !ok {
		return false, ErrUnknownWebhook
	}
	conn, err := w.Poller.Store.GetConnection(ctx, account, mode, id)
	if errors.Is(err, store.ErrNotFound) || (err == nil && (conn.Type != store.ConnectionClearinghouseAPI || conn.Mode != mode)) {
		return false, ErrUnknownWebhook
	}
	if err != nil {
		return false, err
	}
	sec, err := partners.OpenSecrets(w.Box, conn)
	if err != nil || sec[FieldWebhookSecret] == "" {
		return false, ErrUnknownWebhook
	}
	if err := webhooks.Verify(sec[FieldWebhookSecret], h, body, w.Poller.now()); err != nil {
		return false, fmt.Errorf("%w: %v", ErrWebhookSignature, err)
	}
	// The hosted API's deliveries (and Clearhouse's) wrap the envelope:
	// {"event": {...}}; a bare envelope is read too.
	type envelope struct {
		DetailType string            `json:"detail-type"`
		Detail     polledTransaction `json:"detail"`
	}
	var msg struct {
		Event *envelope `json:"event"`
		envelope
	}
	if err := json.Unmarshal(body, &msg); err != nil {
		return false, &WebhookEventError{Message: "the event is not a JSON event envelope: " + err.Error()}
	}
	ev := msg.envelope
	if msg.Event != nil {
		ev = *msg.Event
	}
	t := ev.Detail
	if ev.DetailType != "transaction.processed.v2" || t.Direction != store.DirectionInbound || !answerSets[t.set()] {
		return false, nil // not an answer (our own 837, a file event, a test event)
	}
	if t.TransactionID == "" || len(t.TransactionID) > 200 || strings.ContainsAny(t.TransactionID, "/?#") {
		return false, &WebhookEventError{Message: "detail.transactionId is missing or not an id"}
	}
	_, err = w.Poller.Jobs.Enqueue(ctx, w.Poller.Store, FetchKind,
		fetchPayload{AccountID: account, Mode: mode, ConnectionID: id, TransactionID: t.TransactionID, Set: t.set()},
		jobs.ForTenant(account, mode), jobs.WithID("upstream-fetch-"+answerExecutionID(conn, t.TransactionID)))
	if errors.Is(err, store.ErrConflict) {
		return false, nil // the upstream sent it again: one fetch is queued
	}
	return err == nil, err
}

// fetch takes one transaction a webhook named, unless taken before (by
// polling or another event).
func (w *Webhook) fetch(ctx context.Context, job store.Job) error {
	var p fetchPayload
	if err := jobs.Decode(job, &p); err != nil {
		return jobs.Permanent(err)
	}
	conn, err := w.Poller.Store.GetConnection(ctx, p.AccountID, p.Mode, p.ConnectionID)
	if errors.Is(err, store.ErrNotFound) {
		return nil
	}
	if err != nil {
		return err
	}
	c, err := w.Poller.Delivery.Client(delivery.File{Connection: conn})
	if err != nil {
		return err
	}
	if c.CoreURL == "" {
		return jobs.Permanent(&Error{Connection: c.ID, Op: "fetch", Message: "the connection has no coreUrl"})
	}
	t := polledTransaction{TransactionID: p.TransactionID, Direction: store.DirectionInbound}
	t.X12 = &polledX12{}
	t.X12.Metadata.Transaction = &polledSet{TransactionSetIdentifier: p.Set}
	n, err := w.Poller.take(ctx, c, conn, t)
	if err == nil && n > 0 {
		w.Poller.Logger.Info("upstream: answer taken by webhook", "connection_id", conn.ID, "account_id", conn.AccountID, "mode", conn.Mode)
	}
	return err
}

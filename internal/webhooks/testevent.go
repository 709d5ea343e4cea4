package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestEventType is the detail-type of a test event: it reports nothing
// that happened, and is sent to one webhook only, whatever its event types.
const TestEventType = "webhook.test.v1"

// ErrDisabled: a test event cannot go to a disabled webhook.
var ErrDisabled = errors.New("webhooks: the webhook is disabled; enable it to send it events")

// testDetail is a test event's detail: labelled as a test in two ways, so
// a receiver that routes on detail-type or on a field both see it.
type testDetail struct {
	Test      bool   `json:"test"`
	Message   string `json:"message"`
	WebhookID string `json:"webhookId"`
	Mode      string `json:"mode"`
}

// SendTest sends a test event to one of the caller's webhooks, now,
// through the normal signed delivery (the same headers, signature, retries
// and delivery log as any event), so an endpoint can be checked before any
// file arrives. The event is stored like any other (GET /events lists it)
// and is never sent to another webhook. A disabled webhook gets
// ErrDisabled: deliveries to it fail at once.
func (s *Service) SendTest(ctx context.Context, c Caller, webhookID string) (store.WebhookDelivery, error) {
	w, err := s.Get(ctx, c, webhookID)
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	if w.Status != store.WebhookEnabled {
		return store.WebhookDelivery{}, ErrDisabled
	}
	now := s.cfg.Clock.Now().UTC().Truncate(time.Microsecond)
	detail, err := json.Marshal(testDetail{Test: true, WebhookID: w.ID, Mode: c.Mode,
		Message: "A test event sent from Clearhouse to check this endpoint. It refers to no file or claim."})
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	env := events.Envelope{Version: events.Version, ID: store.NewUUID(), DetailType: TestEventType, Source: events.Source,
		Account: c.AccountID, Time: now.Format(time.RFC3339), Region: s.cfg.Emitter.Region(), Resources: []string{}, Detail: detail}
	body, err := json.Marshal(env)
	if err != nil {
		return store.WebhookDelivery{}, err
	}
	d := newDelivery(w, Event{ID: env.ID, DetailType: TestEventType}, now, store.AttemptManual)
	err = s.store.InTx(ctx, func(tx store.Queries) error {
		if err := tx.InsertEvent(ctx, store.Event{ID: env.ID, AccountID: c.AccountID, Mode: c.Mode, DetailType: TestEventType,
			Time: now, Envelope: body}); err != nil {
			return err
		}
		if _, err := tx.InsertWebhookDelivery(ctx, d); err != nil {
			return err
		}
		return s.enqueueAttempt(ctx, tx, d, w.Mode, now)
	})
	return d, err
}

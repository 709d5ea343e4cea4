package webhooks

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Reemit sends a stored event again, now, to every enabled webhook of the
// caller that it matches (spec §3, "retry of an event"; the console's
// Retry button). The event keeps its id, so receivers see the same
// webhook-id; the attempt is marked attempt-type MANUAL and, should it
// fail, the retry schedule starts over. A delivery already under way is
// taken over: its pending automatic attempt is dropped.
func (s *Service) Reemit(ctx context.Context, c Caller, eventID string) ([]store.WebhookDelivery, error) {
	ev, err := s.cfg.Events(ctx, c.AccountID, eventID)
	if err != nil {
		return nil, err
	}
	if ev.Mode != c.Mode {
		return nil, store.ErrNotFound
	}
	hooks, err := s.store.ListWebhooks(ctx, c.AccountID, c.Mode)
	if err != nil {
		return nil, err
	}
	existing, _, err := s.store.ListWebhookDeliveries(ctx, c.AccountID, store.WebhookDeliveryFilter{EventID: eventID, Limit: 500})
	if err != nil {
		return nil, err
	}
	byHook := map[string]string{}
	for _, d := range existing {
		byHook[d.WebhookID] = d.ID
	}
	m := matcherOf(ev)
	now := s.cfg.Clock.Now()
	var out []store.WebhookDelivery
	err = s.store.InTx(ctx, func(tx store.Queries) error {
		out = out[:0]
		for _, w := range hooks {
			if w.Status != store.WebhookEnabled || !m.matches(w) {
				continue
			}
			d := newDelivery(w, ev, now, store.AttemptManual)
			if id, ok := byHook[w.ID]; ok {
				prev, err := tx.GetWebhookDelivery(ctx, c.AccountID, id)
				if err != nil {
					return err
				}
				d.ID, d.CreatedAt, d.Attempts, d.InflightUntil = prev.ID, prev.CreatedAt, prev.Attempts, prev.InflightUntil
				d.LastStatusCode, d.LastError, d.DeliveredAt = prev.LastStatusCode, prev.LastError, prev.DeliveredAt
				if err := tx.UpdateWebhookDelivery(ctx, d); err != nil {
					return err
				}
			} else if inserted, err := tx.InsertWebhookDelivery(ctx, d); err != nil {
				return err
			} else if !inserted {
				continue // a dispatch created it a moment ago; it is on its way
			}
			if err := s.enqueueAttempt(ctx, tx, d, w.Mode, now); err != nil {
				return err
			}
			out = append(out, d)
		}
		return nil
	})
	return out, err
}

// Delivery is a delivery with its attempts, for the attempt log.
type Delivery struct {
	store.WebhookDelivery
	Log []store.WebhookAttempt
}

// Deliveries lists the caller's deliveries (of one webhook, or of one
// event), newest first, each with its attempts.
func (s *Service) Deliveries(ctx context.Context, c Caller, f store.WebhookDeliveryFilter) ([]Delivery, string, error) {
	if f.WebhookID != "" {
		if _, err := s.Get(ctx, c, f.WebhookID); err != nil {
			return nil, "", err
		}
	}
	if f.EventID != "" {
		ev, err := s.cfg.Events(ctx, c.AccountID, f.EventID)
		if err == nil && ev.Mode != c.Mode {
			err = store.ErrNotFound
		}
		if err != nil {
			return nil, "", err
		}
	}
	list, next, err := s.store.ListWebhookDeliveries(ctx, c.AccountID, f)
	if err != nil || len(list) == 0 {
		return nil, next, err
	}
	ids := make([]string, len(list))
	for i, d := range list {
		ids[i] = d.ID
	}
	attempts, err := s.store.ListWebhookAttempts(ctx, c.AccountID, ids...)
	if err != nil {
		return nil, "", err
	}
	byDelivery := map[string][]store.WebhookAttempt{}
	for _, a := range attempts {
		byDelivery[a.DeliveryID] = append(byDelivery[a.DeliveryID], a)
	}
	out := make([]Delivery, len(list))
	for i, d := range list {
		out[i] = Delivery{WebhookDelivery: d, Log: byDelivery[d.ID]}
	}
	return out, next, nil
}

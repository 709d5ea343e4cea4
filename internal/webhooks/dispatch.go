package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
)

type deliverPayload struct {
	DeliveryID string `json:"deliveryId"`
	EventID    string `json:"eventId"`
	AccountID  string `json:"accountId"`
}

// dispatch fans one event out to the account's matching webhooks: a
// delivery row and its first job each, in one transaction.
func (s *Service) dispatch(ctx context.Context, job store.Job) error {
	var p events.DispatchPayload
	if err := jobs.Decode(job, &p); err != nil {
		return jobs.Permanent(err)
	}
	ev, err := s.cfg.Events(ctx, p.AccountID, p.EventID)
	if errors.Is(err, store.ErrNotFound) {
		return jobs.Permanent(fmt.Errorf("event %s of account %s not found", p.EventID, p.AccountID))
	}
	if err != nil {
		return err
	}
	hooks, err := s.store.ListWebhooks(ctx, ev.AccountID, ev.Mode)
	if err != nil {
		return err
	}
	m := matcherOf(ev)
	now := s.cfg.Clock.Now()
	return s.store.InTx(ctx, func(tx store.Queries) error {
		for _, w := range hooks {
			if w.Status != store.WebhookEnabled || !m.matches(w) {
				continue
			}
			d := newDelivery(w, ev, now, store.AttemptAutomatic)
			inserted, err := tx.InsertWebhookDelivery(ctx, d)
			if err != nil {
				return err
			}
			if inserted {
				if err := s.enqueueAttempt(ctx, tx, d, now); err != nil {
					return err
				}
			}
		}
		return nil
	})
}

func newDelivery(w store.Webhook, ev Event, now time.Time, attemptType string) store.WebhookDelivery {
	return store.WebhookDelivery{
		ID: store.NewID(), AccountID: w.AccountID, WebhookID: w.ID, EventID: ev.ID, DetailType: ev.DetailType,
		Status: store.DeliveryPending, NextAttemptType: attemptType, NextAttemptAt: now, JobID: store.NewID(),
		CreatedAt: now, UpdatedAt: now,
	}
}

// enqueueAttempt adds the job d.JobID, due at d.NextAttemptAt.
func (s *Service) enqueueAttempt(ctx context.Context, tx store.Queries, d store.WebhookDelivery, now time.Time) error {
	_, err := s.queue.Enqueue(ctx, tx, DeliverKind,
		deliverPayload{DeliveryID: d.ID, EventID: d.EventID, AccountID: d.AccountID},
		jobs.ForAccount(d.AccountID), jobs.At(d.NextAttemptAt), withJobID(d.JobID))
	return err
}

func withJobID(id string) jobs.EnqueueOption { return func(n *store.NewJob) { n.ID = id } }

// matcher holds the fields of an event that webhooks filter on.
type matcher struct {
	detailType      string
	direction       string
	transactionSet  string
	partnershipID   string
	partnershipFlat string
}

func matcherOf(ev Event) matcher {
	var env struct {
		DetailType string `json:"detail-type"`
		Detail     struct {
			Direction     string `json:"direction"`
			PartnershipID string `json:"partnershipId"`
			Partnership   struct {
				PartnershipID string `json:"partnershipId"`
			} `json:"partnership"`
			X12 struct {
				Metadata struct {
					Transaction struct {
						TransactionSetIdentifier string `json:"transactionSetIdentifier"`
					} `json:"transaction"`
				} `json:"metadata"`
			} `json:"x12"`
		} `json:"detail"`
	}
	_ = json.Unmarshal(ev.Envelope, &env) // a damaged envelope matches only unfiltered webhooks
	m := matcher{
		detailType: ev.DetailType, direction: env.Detail.Direction,
		transactionSet: env.Detail.X12.Metadata.Transaction.TransactionSetIdentifier,
		partnershipID:  env.Detail.Partnership.PartnershipID, partnershipFlat: env.Detail.PartnershipID,
	}
	if m.detailType == "" {
		m.detailType = env.DetailType
	}
	if m.partnershipID == "" {
		m.partnershipID = m.partnershipFlat
	}
	return m
}

// matches: the event's type is one the webhook asks for (all when it names
// none), and every filter the webhook sets equals the event's field (an
// event without that field does not match).
func (m matcher) matches(w store.Webhook) bool {
	if len(w.EventTypes) > 0 && !slices.Contains(w.EventTypes, m.detailType) {
		return false
	}
	f := w.Filters
	return (f.Direction == "" || f.Direction == m.direction) &&
		(f.TransactionSetIdentifier == "" || f.TransactionSetIdentifier == m.transactionSet) &&
		(f.PartnershipID == "" || f.PartnershipID == m.partnershipID)
}

package webhooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
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

// dispatch fans one event out to the account's matching webhooks, one
// delivery row each, and makes the first attempts itself: where the
// webhook has a free concurrency slot, the delivery is owned by the
// dispatch job (its job_id), the slot is taken in the same transaction,
// and the attempt is made right after the commit, without a job of its
// own to enqueue, claim and complete. If this worker dies meanwhile, the
// dispatch job runs again once its lease expires and attempts the
// deliveries it still owns. A webhook with every slot taken gets a
// deliver job that waits for one (takeSlot).
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
	var firsts []firstAttempt
	err = s.store.GroupInTx(ctx, func(tx store.Queries) error {
		firsts = firsts[:0]
		for _, w := range hooks {
			if w.Status != store.WebhookEnabled || !m.matches(w) {
				continue
			}
			first, ok, err := s.fanOut(ctx, tx, job, w, ev, now, len(firsts) < MaxFirstAttempts)
			if err != nil {
				return err
			}
			if ok {
				firsts = append(firsts, first)
			}
		}
		if len(firsts) == 0 {
			return jobs.Complete(ctx, tx) // nothing left to do here
		}
		return nil
	})
	if err != nil || len(firsts) == 0 {
		return err
	}
	return s.attemptNow(ctx, job, ev, firsts)
}

// firstAttempt is a delivery whose first attempt the dispatch job makes,
// its slot taken.
type firstAttempt struct {
	d store.WebhookDelivery
	w store.Webhook
}

// fanOut adds the delivery of ev to w through tx. With a free slot (and
// take: the dispatch has fewer than MaxFirstAttempts) it takes it for the
// dispatch job and returns the attempt to make (ok); otherwise the
// delivery's own job waits its turn. A delivery that exists already (the
// dispatch runs again) is attempted only if the dispatch job still owns
// it: its worker died before recording the attempt.
func (s *Service) fanOut(ctx context.Context, tx store.Queries, job store.Job, w store.Webhook, ev Event, now time.Time, take bool) (f firstAttempt, ok bool, err error) {
	// The slots are counted under the webhook's lock, as in takeSlot, so
	// the limit holds across replicas.
	locked, err := tx.LockWebhook(ctx, w.AccountID, w.ID)
	if errors.Is(err, store.ErrNotFound) {
		return f, false, nil // deleted since it was listed
	} else if err != nil {
		return f, false, err
	}
	busy := 0
	if locked.Status == store.WebhookEnabled {
		if busy, err = tx.CountInflightWebhookDeliveries(ctx, w.ID, now); err != nil {
			return f, false, err
		}
	}
	free := func() bool { return take && locked.Status == store.WebhookEnabled && busy < locked.Concurrency }
	d := newDelivery(locked, ev, now, store.AttemptAutomatic)
	if free() {
		d.JobID, d.InflightUntil = job.ID, now.Add(s.cfg.Timeout+slotGrace)
	}
	inserted, err := tx.InsertWebhookDelivery(ctx, d)
	switch {
	case err != nil:
		return f, false, err
	case inserted && d.JobID == job.ID:
		return firstAttempt{d: d, w: locked}, true, nil
	case inserted:
		// Its own job takes a slot when one frees (or fails it, for a
		// webhook disabled meanwhile).
		return f, false, s.enqueueAttempt(ctx, tx, d, locked.Mode, now)
	}
	list, _, err := tx.ListWebhookDeliveries(ctx, w.AccountID, store.WebhookDeliveryFilter{WebhookID: w.ID, EventID: ev.ID, Limit: 1})
	if err != nil || len(list) == 0 || list[0].JobID != job.ID || list[0].Status != store.DeliveryPending {
		return f, false, err // done, or another job's now
	}
	d = list[0]
	if d.InflightUntil.After(now) {
		busy-- // its own slot, taken by the run that died
	}
	d.UpdatedAt = now
	if !free() {
		d.JobID, d.InflightUntil = store.NewID(), time.Time{}
		if err := tx.UpdateWebhookDelivery(ctx, d); err != nil {
			return f, false, err
		}
		return f, false, s.enqueueAttempt(ctx, tx, d, locked.Mode, now)
	}
	d.InflightUntil = now.Add(s.cfg.Timeout + slotGrace)
	return firstAttempt{d: d, w: locked}, true, tx.UpdateWebhookDelivery(ctx, d)
}

// attemptNow makes the first attempts of one event's deliveries, at once
// (one per webhook), and records each. With one delivery the dispatch job
// completes in the transaction of its record.
func (s *Service) attemptNow(ctx context.Context, job store.Job, ev Event, firsts []firstAttempt) error {
	if len(firsts) == 1 {
		f := firsts[0]
		return s.record(ctx, job, f.d, s.send(ctx, f.w, ev, f.d), true)
	}
	errs := make([]error, len(firsts))
	var wg sync.WaitGroup
	for i, f := range firsts {
		wg.Go(func() { errs[i] = s.record(ctx, job, f.d, s.send(ctx, f.w, ev, f.d), false) })
	}
	wg.Wait()
	return errors.Join(errs...)
}

func newDelivery(w store.Webhook, ev Event, now time.Time, attemptType string) store.WebhookDelivery {
	return store.WebhookDelivery{
		ID: store.NewID(), AccountID: w.AccountID, WebhookID: w.ID, EventID: ev.ID, DetailType: ev.DetailType,
		Status: store.DeliveryPending, NextAttemptType: attemptType, NextAttemptAt: now, JobID: store.NewID(),
		CreatedAt: now, UpdatedAt: now,
	}
}

// enqueueAttempt adds the job d.JobID, due at d.NextAttemptAt, in the mode
// of d's webhook (the outbound lane caps each account and mode).
func (s *Service) enqueueAttempt(ctx context.Context, tx store.Queries, d store.WebhookDelivery, mode string, now time.Time) error {
	_, err := s.queue.Enqueue(ctx, tx, DeliverKind,
		deliverPayload{DeliveryID: d.ID, EventID: d.EventID, AccountID: d.AccountID},
		jobs.ForTenant(d.AccountID, mode), jobs.At(d.NextAttemptAt), jobs.WithID(d.JobID))
	return err
}

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

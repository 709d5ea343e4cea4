package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/store"
)

func newWebhook(accountID string) store.Webhook {
	return store.Webhook{
		ID: store.NewID(), AccountID: accountID, Mode: store.ModeTest, URL: "https://example.com/hook",
		Description: "claims", EventTypes: []string{"transaction.processed.v2"},
		Filters: store.WebhookFilters{TransactionSetIdentifier: "277"}, Status: store.WebhookEnabled,
		Concurrency: 2, Secret: "v1:sealed", AuthType: "NONE", CreatedAt: t0, UpdatedAt: t0,
	}
}

func newDelivery(w store.Webhook, eventID string, at time.Time) store.WebhookDelivery {
	return store.WebhookDelivery{
		ID: store.NewID(), AccountID: w.AccountID, WebhookID: w.ID, EventID: eventID,
		DetailType: "transaction.processed.v2", Status: store.DeliveryPending, NextAttemptType: store.AttemptAutomatic,
		NextAttemptAt: at, JobID: store.NewID(), CreatedAt: at, UpdatedAt: at,
	}
}

// testWebhooksCRUD: a webhook round-trips, is scoped to its account, and
// updates and deletes touch only it.
func testWebhooksCRUD(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	b, _ := Seed(t, s, store.ModeTest)
	w := newWebhook(a.ID)
	w.PreviousSecret, w.PreviousSecretUntil = "v1:old", t0.Add(time.Hour)
	must(t, s.CreateWebhook(ctx, w))
	prod := newWebhook(a.ID)
	prod.Mode, prod.EventTypes, prod.Filters = store.ModeProduction, nil, store.WebhookFilters{}
	must(t, s.CreateWebhook(ctx, prod))

	got, err := s.GetWebhook(ctx, a.ID, w.ID)
	must(t, err)
	if diff := cmp.Diff(w, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	_, err = s.GetWebhook(ctx, b.ID, w.ID)
	wantErr(t, err, store.ErrNotFound)

	list, err := s.ListWebhooks(ctx, a.ID, store.ModeTest)
	must(t, err)
	if len(list) != 1 || list[0].ID != w.ID {
		t.Errorf("test-mode list = %v, want only %s", list, w.ID)
	}
	if all, _ := s.ListWebhooks(ctx, a.ID, ""); len(all) != 2 {
		t.Errorf("list of all modes has %d webhooks, want 2", len(all))
	}
	if other, _ := s.ListWebhooks(ctx, b.ID, ""); len(other) != 0 {
		t.Errorf("another account sees %d webhooks", len(other))
	}
	if got, _ := s.GetWebhook(ctx, a.ID, prod.ID); got.EventTypes == nil || len(got.EventTypes) != 0 {
		t.Errorf("empty event types read back as %#v, want []", got.EventTypes)
	}

	w.URL, w.Status, w.DisabledReason, w.Concurrency = "https://example.org/new", store.WebhookDisabled, "gone", 7
	w.EventTypes, w.Filters.Direction, w.UpdatedAt = []string{"file.failed.v2"}, "INBOUND", t0.Add(time.Minute)
	must(t, s.UpdateWebhook(ctx, w))
	must(t, s.SetWebhookFailingSince(ctx, w.ID, t0.Add(2*time.Minute)))
	got, _ = s.GetWebhook(ctx, a.ID, w.ID)
	want := w
	want.FailingSince = t0.Add(2 * time.Minute)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("after update (-want +got):\n%s", diff)
	}
	must(t, s.SetWebhookFailingSince(ctx, w.ID, time.Time{}))
	if got, _ := s.GetWebhook(ctx, a.ID, w.ID); !got.FailingSince.IsZero() {
		t.Errorf("failing since not cleared: %v", got.FailingSince)
	}
	other := w
	other.AccountID = b.ID
	wantErr(t, s.UpdateWebhook(ctx, other), store.ErrNotFound)
	wantErr(t, s.DeleteWebhook(ctx, b.ID, w.ID), store.ErrNotFound)

	must(t, s.InTx(ctx, func(tx store.Queries) error {
		locked, err := tx.LockWebhook(ctx, a.ID, w.ID)
		if err == nil && locked.URL != w.URL {
			err = fmt.Errorf("locked webhook has url %q", locked.URL)
		}
		return err
	}))
	d := newDelivery(w, store.NewID(), t0)
	if _, err := s.InsertWebhookDelivery(ctx, d); err != nil {
		t.Fatal(err)
	}
	must(t, s.InsertWebhookAttempt(ctx, store.WebhookAttempt{DeliveryID: d.ID, Attempt: 1, AttemptType: store.AttemptAutomatic, StartedAt: t0}))
	must(t, s.DeleteWebhook(ctx, a.ID, w.ID))
	_, err = s.GetWebhook(ctx, a.ID, w.ID)
	wantErr(t, err, store.ErrNotFound)
	_, err = s.GetWebhookDelivery(ctx, a.ID, d.ID)
	wantErr(t, err, store.ErrNotFound)
}

// testWebhookDeliveries: one delivery per (event, webhook) however often it
// is inserted, progress round-trips, attempts list in order, lists page and
// stay within the account.
func testWebhookDeliveries(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	b, _ := Seed(t, s, store.ModeTest)
	w := newWebhook(a.ID)
	must(t, s.CreateWebhook(ctx, w))
	event := store.NewID()
	d := newDelivery(w, event, t0)
	ok, err := s.InsertWebhookDelivery(ctx, d)
	must(t, err)
	if !ok {
		t.Fatal("first insert reported no insert")
	}
	again := newDelivery(w, event, t0.Add(time.Second))
	if ok, err := s.InsertWebhookDelivery(ctx, again); err != nil || ok {
		t.Fatalf("second delivery of the same event to the same webhook: inserted=%v err=%v", ok, err)
	}
	got, err := s.GetWebhookDelivery(ctx, a.ID, d.ID)
	must(t, err)
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("round trip (-want +got):\n%s", diff)
	}
	_, err = s.GetWebhookDelivery(ctx, b.ID, d.ID)
	wantErr(t, err, store.ErrNotFound)

	d.Status, d.Attempts, d.RoundAttempts, d.NextAttemptType = store.DeliveryDelivered, 2, 2, store.AttemptManual
	d.NextAttemptAt, d.JobID, d.LastStatusCode, d.LastError = time.Time{}, "", 204, ""
	d.UpdatedAt, d.DeliveredAt = t0.Add(time.Minute), t0.Add(time.Minute)
	must(t, s.UpdateWebhookDelivery(ctx, d))
	got, _ = s.GetWebhookDelivery(ctx, a.ID, d.ID)
	if diff := cmp.Diff(d, got); diff != "" {
		t.Errorf("after update (-want +got):\n%s", diff)
	}

	attempts := []store.WebhookAttempt{
		{DeliveryID: d.ID, Attempt: 1, AttemptType: store.AttemptAutomatic, StartedAt: t0, Latency: 1500 * time.Microsecond,
			StatusCode: 500, ResponseExcerpt: "down", Error: "HTTP 500"},
		{DeliveryID: d.ID, Attempt: 2, AttemptType: store.AttemptManual, StartedAt: t0.Add(time.Minute), Latency: time.Millisecond,
			StatusCode: 204, Succeeded: true},
	}
	for _, at := range []store.WebhookAttempt{attempts[1], attempts[0]} {
		must(t, s.InsertWebhookAttempt(ctx, at))
	}
	wantErr(t, s.InsertWebhookAttempt(ctx, attempts[0]), store.ErrConflict)
	gotAttempts, err := s.ListWebhookAttempts(ctx, a.ID, d.ID)
	must(t, err)
	if diff := cmp.Diff(attempts, gotAttempts); diff != "" {
		t.Errorf("attempts (-want +got):\n%s", diff)
	}
	if other, _ := s.ListWebhookAttempts(ctx, b.ID, d.ID); len(other) != 0 {
		t.Errorf("another account reads %d attempts", len(other))
	}

	// 5 more events: pages of 2, newest first; by event; by status.
	ids := []string{d.ID}
	for i := 1; i <= 5; i++ {
		di := newDelivery(w, store.NewID(), t0.Add(time.Duration(i)*time.Second))
		if _, err := s.InsertWebhookDelivery(ctx, di); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, di.ID)
	}
	var seen []string
	cursor := ""
	for page := 0; page < 5; page++ {
		list, next, err := s.ListWebhookDeliveries(ctx, a.ID, store.WebhookDeliveryFilter{WebhookID: w.ID, Limit: 2, Cursor: cursor})
		must(t, err)
		for _, x := range list {
			seen = append(seen, x.ID)
		}
		if cursor = next; cursor == "" {
			break
		}
	}
	if len(seen) != 6 || seen[0] != ids[5] || seen[5] != ids[0] {
		t.Errorf("paged list = %v, want newest first %v reversed", seen, ids)
	}
	byEvent, _, err := s.ListWebhookDeliveries(ctx, a.ID, store.WebhookDeliveryFilter{EventID: event})
	must(t, err)
	if len(byEvent) != 1 || byEvent[0].ID != d.ID {
		t.Errorf("by event = %v", byEvent)
	}
	delivered, _, _ := s.ListWebhookDeliveries(ctx, a.ID, store.WebhookDeliveryFilter{Status: store.DeliveryDelivered})
	if len(delivered) != 1 {
		t.Errorf("%d delivered, want 1", len(delivered))
	}
	if other, _, _ := s.ListWebhookDeliveries(ctx, b.ID, store.WebhookDeliveryFilter{}); len(other) != 0 {
		t.Errorf("another account lists %d deliveries", len(other))
	}
	_, _, err = s.ListWebhookDeliveries(ctx, a.ID, store.WebhookDeliveryFilter{Cursor: "!!"})
	wantErr(t, err, store.ErrBadCursor)
}

// testWebhookSlots: in-flight deliveries count until their lease ends, and
// freeing a slot makes the longest-waiting delivery's job due.
func testWebhookSlots(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	w := newWebhook(a.ID)
	must(t, s.CreateWebhook(ctx, w))
	var ds []store.WebhookDelivery
	for i := range 3 {
		d := newDelivery(w, store.NewID(), t0)
		job, err := s.EnqueueJob(ctx, store.NewJob{ID: d.JobID, Kind: "webhooks.deliver", MaxAttempts: 1, CreatedAt: t0, RunAt: t0.Add(time.Hour)})
		must(t, err)
		d.JobID = job.ID
		switch i {
		case 0:
			d.InflightUntil = t0.Add(30 * time.Second)
		case 1:
			d.WaitingSince = t0.Add(2 * time.Second)
		case 2:
			d.WaitingSince = t0.Add(time.Second)
		}
		if _, err := s.InsertWebhookDelivery(ctx, d); err != nil {
			t.Fatal(err)
		}
		ds = append(ds, d)
	}
	for _, c := range []struct {
		at   time.Time
		want int
	}{{t0, 1}, {t0.Add(30 * time.Second), 0}} {
		n, err := s.CountInflightWebhookDeliveries(ctx, w.ID, c.at)
		must(t, err)
		if n != c.want {
			t.Errorf("in flight at %v = %d, want %d", c.at, n, c.want)
		}
	}
	now := t0.Add(5 * time.Second)
	must(t, s.InTx(ctx, func(tx store.Queries) error { return tx.WakeWaitingWebhookDelivery(ctx, w.ID, now) }))
	for i, d := range ds {
		j, err := s.GetJob(ctx, d.JobID)
		must(t, err)
		woken := j.RunAt.Equal(now)
		if woken != (i == 2) {
			t.Errorf("delivery %d: job run_at %v (woken=%v); only the longest waiting (2) should be woken", i, j.RunAt, woken)
		}
	}
}

// testWebhookDispatchConcurrent: many workers inserting the deliveries of
// the same events (a dispatch job run twice at once) create each once.
func testWebhookDispatchConcurrent(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	w := newWebhook(a.ID)
	must(t, s.CreateWebhook(ctx, w))
	events := make([]string, 20)
	for i := range events {
		events[i] = store.NewID()
	}
	var inserted sync.Map
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for _, e := range events {
				err := s.InTx(context.Background(), func(tx store.Queries) error {
					ok, err := tx.InsertWebhookDelivery(ctx, newDelivery(w, e, t0))
					if ok {
						if _, dup := inserted.LoadOrStore(e, true); dup {
							t.Errorf("event %s inserted twice", e)
						}
					}
					return err
				})
				if err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
	list, _, err := s.ListWebhookDeliveries(ctx, a.ID, store.WebhookDeliveryFilter{WebhookID: w.ID, Limit: 100})
	must(t, err)
	if len(list) != len(events) {
		t.Errorf("%d deliveries, want %d", len(list), len(events))
	}
}

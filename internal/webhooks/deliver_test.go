package webhooks_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

var transactionDetail = map[string]any{
	"transactionId": "d303ce95-7533-4f18-916d-51b7e446c364", "direction": "INBOUND", "mode": "test",
	"partnership": map[string]any{"partnershipId": "clinic_uhc-dental", "partnershipType": "x12"},
	"x12":         map[string]any{"metadata": map[string]any{"transaction": map[string]any{"controlNumber": "0001", "transactionSetIdentifier": "277"}}},
}

// TestFailedFirstCallIsRetriedThenReemitted is the "done when": a
// receiver that fails its first call gets the event signed and wrapped, the
// retry carries the same webhook-id, the attempt log shows both attempts,
// and a re-emit arrives again as a manual attempt.
func TestFailedFirstCallIsRetriedThenReemitted(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	rcv := newReceiver(t, func(n int) int {
		if n == 1 {
			return 503
		}
		return 204
	})
	w, secret := e.create(t, rcv.URL+"/hooks", webhooks.Input{})
	if !strings.HasPrefix(secret, "whsec_") {
		t.Fatalf("secret %q does not start with whsec_", secret)
	}
	ref := reference(t, secret)
	ev := e.emit(t, "transaction.processed.v2", transactionDetail)

	first, second := rcv.next(t), rcv.next(t)
	for i, got := range []received{first, second} {
		if err := ref.Verify(got.body, got.header); err != nil {
			t.Errorf("call %d: the reference Standard Webhooks library rejects the signature: %v", i+1, err)
		}
		if id := got.header.Get("webhook-id"); id != ev.ID {
			t.Errorf("call %d: webhook-id %q, want the event id %q", i+1, id, ev.ID)
		}
		if ct := got.header.Get("Content-Type"); ct != "application/json" {
			t.Errorf("call %d: content-type %q", i+1, ct)
		}
		var body struct {
			Event json.RawMessage `json:"event"`
		}
		if err := json.Unmarshal(got.body, &body); err != nil || string(body.Event) != string(ev.Envelope) {
			t.Errorf("call %d: body %s is not {\"event\": <the stored envelope>}", i+1, got.body)
		}
		if at := got.header.Get("attempt-type"); at != "AUTOMATIC" {
			t.Errorf("call %d: attempt-type %q", i+1, at)
		}
	}
	if first.header.Get("attempt-number") != "1" || second.header.Get("attempt-number") != "2" {
		t.Errorf("attempt-number %q then %q, want 1 then 2", first.header.Get("attempt-number"), second.header.Get("attempt-number"))
	}

	ctx := context.Background()
	var log []webhooks.Delivery
	var err error
	waitFor(t, "the delivery to be DELIVERED", func() bool {
		log, _, err = e.svc.Deliveries(ctx, e.caller, store.WebhookDeliveryFilter{WebhookID: w.ID})
		return err == nil && len(log) == 1 && log[0].Status == store.DeliveryDelivered
	})
	d := log[0]
	if d.EventID != ev.ID || d.Attempts != 2 || len(d.Log) != 2 {
		t.Fatalf("delivery %+v, want 2 attempts of event %s", d, ev.ID)
	}
	a1, a2 := d.Log[0], d.Log[1]
	if a1.Succeeded || a1.StatusCode != 503 || a1.Error != "HTTP 503" || a1.ResponseExcerpt != "receiver says no" {
		t.Errorf("attempt 1 = %+v, want a failed 503 with the answer's text", a1)
	}
	if !a2.Succeeded || a2.StatusCode != 204 || a2.Latency <= 0 || a2.AttemptType != store.AttemptAutomatic {
		t.Errorf("attempt 2 = %+v, want a succeeded 204", a2)
	}

	// Re-emit: the same event id, a manual attempt, logged as a third.
	again, err := e.svc.Reemit(ctx, e.caller, ev.ID)
	if err != nil || len(again) != 1 || again[0].ID != d.ID {
		t.Fatalf("Reemit = %+v, %v; want the one delivery %s again", again, err, d.ID)
	}
	third := rcv.next(t)
	if err := ref.Verify(third.body, third.header); err != nil {
		t.Errorf("re-emit: signature rejected: %v", err)
	}
	if third.header.Get("webhook-id") != ev.ID || third.header.Get("attempt-type") != "MANUAL" || third.header.Get("attempt-number") != "3" {
		t.Errorf("re-emit headers id=%q type=%q number=%q", third.header.Get("webhook-id"), third.header.Get("attempt-type"), third.header.Get("attempt-number"))
	}
	waitFor(t, "the re-emit to be logged", func() bool {
		log, _, _ = e.svc.Deliveries(ctx, e.caller, store.WebhookDeliveryFilter{EventID: ev.ID})
		return len(log) == 1 && len(log[0].Log) == 3 && log[0].Status == store.DeliveryDelivered
	})
	if a3 := log[0].Log[2]; a3.AttemptType != store.AttemptManual || !a3.Succeeded {
		t.Errorf("attempt 3 = %+v, want a succeeded MANUAL attempt", a3)
	}
	time.Sleep(100 * time.Millisecond)
	if n := rcv.count(); n != 3 {
		t.Errorf("receiver got %d calls, want exactly 3", n)
	}
}

// TestDispatchMatchesFiltersOnce: each event reaches exactly the webhooks
// whose types and filters it matches, once, even when its dispatch job
// runs twice.
func TestDispatchMatchesFiltersOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{})
	rcv := newReceiver(t, always(200))
	all, _ := e.create(t, rcv.URL+"/all", webhooks.Input{})
	only277, _ := e.create(t, rcv.URL+"/277", webhooks.Input{Filters: &webhooks.Filters{TransactionSetIdentifier: "277", Direction: "INBOUND", PartnershipID: "clinic_uhc-dental"}})
	only835, _ := e.create(t, rcv.URL+"/835", webhooks.Input{Filters: &webhooks.Filters{TransactionSetIdentifier: "835"}})
	failedOnly, _ := e.create(t, rcv.URL+"/failed", webhooks.Input{EventTypes: &[]string{"file.failed.v2"}})
	off, _ := e.create(t, rcv.URL+"/off", webhooks.Input{Status: ptr(store.WebhookDisabled)})

	ev := e.emit(t, "transaction.processed.v2", transactionDetail)
	waitFor(t, "two deliveries", func() bool { return rcv.count() >= 2 })
	time.Sleep(100 * time.Millisecond)
	for range 2 {
		got := rcv.next(t)
		var body struct {
			Event struct {
				ID string `json:"id"`
			} `json:"event"`
		}
		json.Unmarshal(got.body, &body)
		if body.Event.ID != ev.ID {
			t.Errorf("delivered event %q", body.Event.ID)
		}
	}
	if rcv.count() != 2 {
		t.Errorf("receiver got %d calls, want 2 (all, 277)", rcv.count())
	}
	ctx := context.Background()
	for _, c := range []struct {
		w    store.Webhook
		want int
	}{{all, 1}, {only277, 1}, {only835, 0}, {failedOnly, 0}, {off, 0}} {
		got, _, err := e.svc.Deliveries(ctx, e.caller, store.WebhookDeliveryFilter{WebhookID: c.w.ID})
		if err != nil || len(got) != c.want {
			t.Errorf("webhook %s: %d deliveries (%v), want %d", c.w.URL, len(got), err, c.want)
		}
	}

	// The same dispatch job again (a worker died after its commit): nothing new.
	payload, _ := json.Marshal(map[string]string{"eventId": ev.ID, "accountId": e.caller.AccountID})
	if _, err := e.st.EnqueueJob(ctx, store.NewJob{Kind: webhooks.DispatchKind, AccountID: e.caller.AccountID, Payload: payload, MaxAttempts: 1}); err != nil {
		t.Fatal(err)
	}
	time.Sleep(200 * time.Millisecond)
	if rcv.count() != 2 {
		t.Errorf("a second dispatch of the same event sent %d more calls", rcv.count()-2)
	}
}

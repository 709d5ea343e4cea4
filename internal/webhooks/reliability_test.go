package webhooks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// attemptsMade sums the attempts of every delivery of webhook w.
func attemptsMade(t testing.TB, e *env, w store.Webhook) (attempts, delivered, total int) {
	t.Helper()
	list, _, err := e.st.ListWebhookDeliveries(context.Background(), e.caller.AccountID, store.WebhookDeliveryFilter{WebhookID: w.ID, Limit: 500})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range list {
		attempts += d.Attempts
		if d.Status == store.DeliveryDelivered {
			delivered++
		}
	}
	return attempts, delivered, len(list)
}

// TestReceiverDownForAnHour: on the Standard Webhooks schedule (0, 5 s,
// 5 min, 30 min, 2 h, …) a receiver that is down for the first simulated
// hour gets every event afterwards, each exactly once, after exactly the
// scheduled attempts; time is a fake clock, so the hour takes a moment.
func TestReceiverDownForAnHour(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clk := clock.NewFake(t0)
	e := newEnv(t, envOptions{clock: clk, schedule: webhooks.DefaultSchedule})
	var down atomic.Bool
	down.Store(true)
	rcv := newReceiver(t, func(int) int {
		if down.Load() {
			return 503
		}
		return 200
	})
	w, secret := e.create(t, rcv.URL, webhooks.Input{})
	ref := reference(t, secret)
	const n = 25
	sent := map[string]bool{}
	for range n {
		sent[e.emit(t, "file.processed.v2", map[string]any{"fileExecutionId": store.NewUUID()}).ID] = true
	}
	// Each step: move the clock to the next scheduled attempt and wait
	// until every delivery has made it.
	steps := []struct {
		advance time.Duration
		up      bool
	}{{0, false}, {5 * time.Second, false}, {5 * time.Minute, false}, {30 * time.Minute, false}, {2 * time.Hour, true}}
	for i, step := range steps {
		clk.Advance(step.advance)
		if step.up {
			down.Store(false) // the receiver is back, an hour after the events
		}
		e.queue.Notify()
		waitFor(t, "attempt round", func() bool { a, _, d := attemptsMade(t, e, w); return d == n && a == n*(i+1) })
	}
	if clk.Now().Sub(t0) < time.Hour {
		t.Fatalf("the receiver came back after %s, want over an hour", clk.Now().Sub(t0))
	}
	_, delivered, _ := attemptsMade(t, e, w)
	if delivered != n {
		t.Fatalf("%d of %d delivered", delivered, n)
	}
	// Nothing more is due, ever: a day later the receiver has seen
	// exactly 5 attempts per event, the last one successful.
	clk.Advance(48 * time.Hour)
	e.queue.Notify()
	time.Sleep(200 * time.Millisecond)
	rcv.mu.Lock()
	defer rcv.mu.Unlock()
	if len(rcv.calls) != 5*n {
		t.Fatalf("receiver got %d calls, want %d (5 scheduled attempts × %d events)", len(rcv.calls), 5*n, n)
	}
	okByEvent := map[string]int{}
	for i, c := range rcv.calls {
		if err := ref.VerifyIgnoringTimestamp(c.body, c.header); err != nil { // signed at fake times
			t.Fatalf("call %d: signature: %v", i, err)
		}
		if i >= 4*n { // the fifth round, after the receiver came back
			okByEvent[c.header.Get("webhook-id")]++
		}
	}
	for id := range sent {
		if okByEvent[id] != 1 {
			t.Errorf("event %s delivered %d times after the outage, want 1", id, okByEvent[id])
		}
	}
}

// TestConcurrencyHeldAcrossReplicas: two queues (two replicas) with 6
// workers each send to a webhook of concurrency 2: the receiver never has
// more than 2 requests in flight, and every event arrives.
func TestConcurrencyHeldAcrossReplicas(t *testing.T) {
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		e := newEnv(t, envOptions{open: open, workers: 6})
		// A second replica: its own queue and service on the same database.
		q2 := jobs.New(e.st, jobs.Options{Logger: quiet, PollInterval: 20 * time.Millisecond, Concurrency: 6})
		if _, err := webhooks.New(webhooks.Config{Store: e.st, Queue: q2, Events: webhooks.StoreEvents(e.st), Secrets: e.box,
			Guard: e.guard, Logger: quiet, Schedule: []time.Duration{0, 10 * time.Millisecond}}); err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { q2.Run(ctx); close(done) }()
		defer func() { cancel(); <-done }()

		var inflight, peak atomic.Int32
		var mu sync.Mutex
		seen := map[string]int{}
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			now := inflight.Add(1)
			for {
				p := peak.Load()
				if now <= p || peak.CompareAndSwap(p, now) {
					break
				}
			}
			time.Sleep(15 * time.Millisecond)
			mu.Lock()
			seen[r.Header.Get("webhook-id")]++
			mu.Unlock()
			inflight.Add(-1)
		}))
		defer srv.Close()
		w, _ := e.create(t, srv.URL, webhooks.Input{Concurrency: ptr(2)})
		const n = 40
		for range n {
			e.emit(t, "file.processed.v2", map[string]any{})
		}
		waitFor(t, "every event delivered", func() bool { _, d, _ := attemptsMade(t, e, w); return d == n })
		if p := peak.Load(); p > 2 {
			t.Errorf("the receiver had %d requests in flight; the webhook's concurrency is 2", p)
		} else if p < 2 {
			t.Logf("peak in flight %d (the slots were never both used)", p)
		}
		mu.Lock()
		defer mu.Unlock()
		for id, c := range seen {
			if c != 1 {
				t.Errorf("event %s arrived %d times", id, c)
			}
		}
		if len(seen) != n {
			t.Errorf("%d events arrived, want %d", len(seen), n)
		}
	})
}

// TestFailingForDaysDisables: after every attempt failed for longer than
// DisableAfter the webhook is disabled with its reason; a 410 disables at
// once. New events then reach it no more, and the deliveries stay listed.
func TestFailingForDaysDisables(t *testing.T) {
	t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
	clk := clock.NewFake(t0)
	e := newEnv(t, envOptions{clock: clk, schedule: []time.Duration{0, 24 * time.Hour, 24 * time.Hour, 24 * time.Hour}, disableAfer: 48 * time.Hour})
	rcv := newReceiver(t, always(500))
	w, _ := e.create(t, rcv.URL, webhooks.Input{})
	e.emit(t, "file.failed.v2", map[string]any{"direction": "INBOUND"})
	ctx := context.Background()
	for day := 0; day <= 2; day++ {
		if day > 0 {
			clk.Advance(24 * time.Hour)
			e.queue.Notify()
		}
		waitFor(t, "the day's attempt", func() bool { a, _, _ := attemptsMade(t, e, w); return a == day+1 })
	}
	waitFor(t, "the webhook to be disabled", func() bool {
		got, _ := e.svc.Get(ctx, e.caller, w.ID)
		return got.Status == store.WebhookDisabled
	})
	got, _ := e.svc.Get(ctx, e.caller, w.ID)
	if got.DisabledReason == "" || !strings.Contains(got.DisabledReason, "every attempt since 2026-11-23T09:00:00Z failed (last: HTTP 500)") {
		t.Errorf("disabled reason %q", got.DisabledReason)
	}
	// The pending delivery ends FAILED, saying why; a new event is not sent.
	clk.Advance(24 * time.Hour)
	e.queue.Notify()
	e.emit(t, "file.failed.v2", map[string]any{})
	waitFor(t, "the delivery to fail", func() bool {
		list, _, _ := e.svc.Deliveries(ctx, e.caller, store.WebhookDeliveryFilter{WebhookID: w.ID})
		return len(list) == 1 && list[0].Status == store.DeliveryFailed
	})
	list, _, _ := e.svc.Deliveries(ctx, e.caller, store.WebhookDeliveryFilter{WebhookID: w.ID})
	if !strings.Contains(list[0].LastError, "webhook disabled: every attempt since") || len(list[0].Log) != 3 {
		t.Errorf("delivery after disabling: %+v", list[0])
	}
	if rcv.count() != 3 {
		t.Errorf("receiver got %d calls, want 3", rcv.count())
	}

	// Enabling again clears the reason; a 410 Gone disables at once.
	gone := newReceiver(t, always(410))
	enabled, err := e.svc.Update(ctx, e.caller, w.ID, webhooks.Input{Status: ptr(store.WebhookEnabled), URL: ptr(gone.URL)})
	if err != nil || enabled.DisabledReason != "" || enabled.Status != store.WebhookEnabled {
		t.Fatalf("re-enable: %+v %v", enabled, err)
	}
	e.emit(t, "file.failed.v2", map[string]any{})
	waitFor(t, "410 to disable", func() bool {
		got, _ := e.svc.Get(ctx, e.caller, w.ID)
		return got.Status == store.WebhookDisabled && got.DisabledReason == "the receiver answered 410 Gone"
	})
}

// TestSSRFGuardBlocksPrivateAddresses: without --webhooks-allow-private a
// webhook URL that resolves to loopback is refused at dial time, and the
// attempt log says why.
func TestSSRFGuardBlocksPrivateAddresses(t *testing.T) {
	e := newEnv(t, envOptions{guardPrivate: true, schedule: []time.Duration{0}})
	rcv := newReceiver(t, always(200))
	// A literal loopback address is refused when the webhook is created.
	if _, _, err := e.svc.Create(context.Background(), e.caller, webhooks.Input{URL: ptr(rcv.URL)}); err == nil {
		t.Fatal("a webhook to 127.0.0.1 was accepted")
	} else if inv, ok := problem.AsInvalid(err); !ok || !strings.Contains(inv.Fields[0].Message, "private address") {
		t.Fatalf("error %v", err)
	}
	// A URL whose name resolves to a private address later (DNS
	// rebinding) is refused at dial time: stand it in by writing the
	// loopback URL straight into the store.
	w, _ := e.create(t, "http://example.com/hook", webhooks.Input{})
	w.URL = rcv.URL + "/hook"
	if err := e.st.UpdateWebhook(context.Background(), w); err != nil {
		t.Fatal(err)
	}
	e.emit(t, "file.processed.v2", map[string]any{})
	var list []webhooks.Delivery
	waitFor(t, "the attempt to fail", func() bool {
		list, _, _ = e.svc.Deliveries(context.Background(), e.caller, store.WebhookDeliveryFilter{WebhookID: w.ID})
		return len(list) == 1 && list[0].Status == store.DeliveryFailed
	})
	if a := list[0].Log[0]; !strings.Contains(a.Error, "blocked by the SSRF guard") || a.StatusCode != 0 {
		t.Errorf("attempt %+v, want an SSRF refusal", a)
	}
	if rcv.count() != 0 {
		t.Errorf("the private receiver was called %d times", rcv.count())
	}
}

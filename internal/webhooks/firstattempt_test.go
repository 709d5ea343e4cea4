package webhooks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// TestStalledFirstAttemptIsMadeAgain: the dispatch job makes a delivery's
// first attempt itself. When its worker stalls mid-attempt (as if killed)
// past the job's lease, the dispatch runs again and attempts the delivery
// it still owns, once, with the same webhook-id; the stalled worker's late
// answer is not recorded, since its job is another worker's by then.
func TestStalledFirstAttemptIsMadeAgain(t *testing.T) {
	t.Parallel()
	storetest.ForEachEngine(t, func(t *testing.T, open storetest.Opener) {
		t0 := time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)
		clk := clock.NewFake(t0)
		e := newEnv(t, envOptions{open: open, clock: clk})
		var calls atomic.Int32
		ids := make(chan string, 4)
		release := make(chan struct{})
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ids <- r.Header.Get("webhook-id")
			if calls.Add(1) == 1 {
				<-release // the first attempt's worker hangs here
			}
			w.WriteHeader(204)
		}))
		defer srv.Close()
		defer close(release)
		w, _ := e.create(t, srv.URL, webhooks.Input{})
		ev := e.emit(t, "file.processed.v2", map[string]any{})
		first := <-ids

		clk.Advance(2 * time.Minute) // past the dispatch job's lease
		e.queue.Notify()
		var second string
		select {
		case second = <-ids:
		case <-time.After(30 * time.Second):
			t.Fatal("the stalled first attempt was not made again")
		}
		if first != ev.ID || second != ev.ID {
			t.Errorf("webhook-ids %q and %q, want the event id %q on both", first, second, ev.ID)
		}
		waitFor(t, "the delivery recorded", func() bool { _, d, _ := attemptsMade(t, e, w); return d == 1 })
		release <- struct{}{} // the stalled worker gets its answer late
		time.Sleep(100 * time.Millisecond)
		attempts, delivered, total := attemptsMade(t, e, w)
		if attempts != 1 || delivered != 1 || total != 1 {
			t.Errorf("%d deliveries, %d delivered, %d attempts recorded; want 1, 1, 1", total, delivered, attempts)
		}
		list, _, err := e.st.ListWebhookDeliveries(context.Background(), e.caller.AccountID, store.WebhookDeliveryFilter{WebhookID: w.ID, Limit: 5})
		if err != nil || len(list) != 1 || list[0].InflightUntil.After(clk.Now()) {
			t.Errorf("delivery %+v (%v): its slot should be free", list, err)
		}
		if n := calls.Load(); n != 2 {
			t.Errorf("receiver got %d calls, want 2", n)
		}
	})
}

package webhooks_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// TestOneEventToManyWebhooksKeepsToTheAccountsShare: an event to six
// webhooks of one account whose receivers hang makes at most
// MaxFirstAttempts calls at once from its dispatch; the other deliveries
// wait, as jobs, for the account's share of the outbound lane (here one
// job) instead of being called from the same worker. All six are delivered
// once the receivers answer.
func TestOneEventToManyWebhooksKeepsToTheAccountsShare(t *testing.T) {
	t.Parallel()
	e := newEnv(t, envOptions{lanes: map[string]jobs.Lane{jobs.LaneOutbound: {Concurrency: 8, PerAccount: 1}}})
	release := make(chan struct{})
	var mu sync.Mutex
	inflight, most := 0, 0
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		readAllBody(r)
		mu.Lock()
		inflight++
		most = max(most, inflight)
		mu.Unlock()
		select {
		case <-release:
		case <-r.Context().Done():
		}
		mu.Lock()
		inflight--
		mu.Unlock()
	}))
	defer slow.Close()
	var hooks []store.Webhook
	for range 6 {
		w, _ := e.create(t, slow.URL, webhooks.Input{})
		hooks = append(hooks, w)
	}
	e.emit(t, "file.processed.v2", map[string]any{"n": 1})
	waitFor(t, "the dispatch's first attempts", func() bool {
		mu.Lock()
		defer mu.Unlock()
		return inflight >= webhooks.MaxFirstAttempts
	})
	time.Sleep(300 * time.Millisecond) // a call past the share would arrive now
	mu.Lock()
	peak := most
	mu.Unlock()
	close(release)
	if peak > webhooks.MaxFirstAttempts {
		t.Errorf("%d calls at once for one account with a share of one job, want at most %d", peak, webhooks.MaxFirstAttempts)
	}
	for _, w := range hooks {
		waitFor(t, "every delivery", func() bool {
			list, _, err := e.st.ListWebhookDeliveries(context.Background(), w.AccountID, store.WebhookDeliveryFilter{WebhookID: w.ID, Limit: 10})
			return err == nil && len(list) == 1 && list[0].Status == store.DeliveryDelivered
		})
	}
}

func readAllBody(r *http.Request) {
	buf := make([]byte, 4096)
	for {
		if _, err := r.Body.Read(buf); err != nil {
			return
		}
	}
}

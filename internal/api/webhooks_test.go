package api_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	standardwebhooks "github.com/standard-webhooks/standard-webhooks/libraries/go"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// hookCall is one request a test receiver got.
type hookCall struct {
	header http.Header
	body   []byte
}

// hookReceiver answers 503 to its first call and 204 after, and keeps
// every call.
type hookReceiver struct {
	*httptest.Server
	mu    sync.Mutex
	calls []hookCall
}

func newHookReceiver(t *testing.T) *hookReceiver {
	r := &hookReceiver{}
	r.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.calls = append(r.calls, hookCall{req.Header.Clone(), body})
		first := len(r.calls) == 1
		r.mu.Unlock()
		if first {
			http.Error(w, "warming up", http.StatusServiceUnavailable)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(r.Close)
	return r
}

func (r *hookReceiver) snapshot() []hookCall {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]hookCall(nil), r.calls...)
}

// newWebhooksServer is newFilesServer with webhook delivery: a secrets key
// and an SSRF guard that lets the test reach its loopback receiver.
func newWebhooksServer(t *testing.T) *filesServer {
	t.Helper()
	ctx := context.Background()
	st := storetest.SQLite(t)
	hs := apptest.New(t, apptest.Options{Store: st, Workers: true, Secrets: true,
		Webhooks: webhooks.Config{Schedule: []time.Duration{0, 50 * time.Millisecond, time.Hour}}})
	f := &filesServer{t: t, url: hs.URL, store: st}
	var rec store.APIKey
	var err error
	if f.key, rec, err = auth.CreateKey(ctx, st, "Clinic", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	if _, err := coretest.SetupPartners(ctx, st, rec.AccountID, store.ModeTest); err != nil {
		t.Fatal(err)
	}
	if f.otherKey, _, err = auth.CreateKey(ctx, st, "Other", auth.ModeProduction, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	return f
}

type webhookBody struct {
	ID             string         `json:"id"`
	URL            string         `json:"url"`
	Secret         string         `json:"secret"`
	Status         string         `json:"status"`
	EventTypes     []string       `json:"eventTypes"`
	Concurrency    int            `json:"concurrency"`
	Authentication map[string]any `json:"authentication"`
}

type deliveryPage struct {
	Items []struct {
		DeliveryID   string `json:"deliveryId"`
		EventID      string `json:"eventId"`
		DetailType   string `json:"detail-type"`
		Status       string `json:"status"`
		AttemptCount int    `json:"attemptCount"`
		Attempts     []struct {
			AttemptNumber int    `json:"attemptNumber"`
			AttemptType   string `json:"attemptType"`
			StatusCode    int    `json:"statusCode"`
			ResponseBody  string `json:"responseBody"`
			Error         string `json:"error"`
			Succeeded     bool   `json:"succeeded"`
		} `json:"attempts"`
	} `json:"items"`
	NextPageToken string `json:"nextPageToken"`
}

// TestWebhooksDoneWhen is the "done when" over HTTP: with a test
// key and a local receiver that fails its first call, a processed file's
// events arrive wrapped and signed, the failed attempt is retried with the
// same webhook-id, the attempt log shows both, and a re-emit from the API
// arrives again.
func TestWebhooksDoneWhen(t *testing.T) {
	t.Parallel()
	f := newWebhooksServer(t)
	rcv := newHookReceiver(t)
	var hook webhookBody
	f.json("POST", "/2023-08-01/webhooks", `{"url": "`+rcv.URL+`/edi", "description": "ERAs", "eventTypes": ["transaction.processed.v2", "file.processed.v2"]}`, 201, &hook)
	if !strings.HasPrefix(hook.Secret, "whsec_") || hook.Status != "ENABLED" || hook.Concurrency != 5 {
		t.Fatalf("created %+v", hook)
	}
	ref := reference(t, hook.Secret)

	ex := f.upload("era-0001.x12", coretest.Gen835([]int{2, 1}, 3, 0))
	var evs eventList
	f.json("GET", "/2023-08-01/events?executionId="+ex["executionId"].(string), "", 200, &evs)
	counts := map[string]int{}
	for _, ev := range evs.Items {
		counts[ev.DetailType]++
	}
	if counts["file.processed.v2"] != 1 || counts["transaction.processed.v2"] != 3 {
		t.Fatalf("events of the file %v, want 1 file.processed.v2 and 3 transaction.processed.v2", counts)
	}
	var page deliveryPage
	waitUntil(t, "4 deliveries DELIVERED", func() bool {
		f.json("GET", "/2023-08-01/webhooks/"+hook.ID+"/deliveries", "", 200, &page)
		n := 0
		for _, d := range page.Items {
			if d.Status == "DELIVERED" {
				n++
			}
		}
		return n == 4
	})
	calls := rcv.snapshot()
	if len(calls) != 5 {
		t.Fatalf("receiver got %d calls, want 5 (4 events, the first retried once)", len(calls))
	}
	byID := map[string][]hookCall{}
	for i, c := range calls {
		if err := ref.Verify(c.body, c.header); err != nil {
			t.Errorf("call %d: signature: %v", i, err)
		}
		var wrapped struct {
			Event events.Envelope `json:"event"`
		}
		if err := json.Unmarshal(c.body, &wrapped); err != nil || wrapped.Event.ID != c.header.Get("webhook-id") {
			t.Errorf("call %d: body %s is not {\"event\": envelope} with the webhook-id", i, c.body)
		}
		byID[c.header.Get("webhook-id")] = append(byID[c.header.Get("webhook-id")], c)
	}
	firstID := calls[0].header.Get("webhook-id")
	if len(byID[firstID]) != 2 || len(byID) != 4 {
		t.Errorf("event %s arrived %d times (want 2: failed, then retried with the same webhook-id); %d distinct events", firstID, len(byID[firstID]), len(byID))
	}
	var log deliveryPage
	f.json("GET", "/2023-08-01/events/"+firstID+"/deliveries", "", 200, &log)
	if len(log.Items) != 1 || len(log.Items[0].Attempts) != 2 {
		t.Fatalf("event's attempt log %+v", log)
	}
	a1, a2 := log.Items[0].Attempts[0], log.Items[0].Attempts[1]
	if a1.Succeeded || a1.StatusCode != 503 || !strings.Contains(a1.ResponseBody, "warming up") || !a2.Succeeded || a2.StatusCode != 204 {
		t.Errorf("attempts %+v then %+v", a1, a2)
	}

	// Re-emit from the API: the same event again, as a manual attempt.
	var retried struct {
		EventID    string `json:"eventId"`
		Deliveries []struct{ DeliveryID, WebhookID, Status string }
	}
	f.json("POST", "/2023-08-01/events/"+firstID+"/retry", "", 202, &retried)
	if retried.EventID != firstID || len(retried.Deliveries) != 1 || retried.Deliveries[0].WebhookID != hook.ID {
		t.Fatalf("retry answer %+v", retried)
	}
	waitUntil(t, "the re-emit", func() bool { return len(rcv.snapshot()) == 6 })
	last := rcv.snapshot()[5]
	if last.header.Get("webhook-id") != firstID || last.header.Get("attempt-type") != "MANUAL" || ref.Verify(last.body, last.header) != nil {
		t.Errorf("re-emitted call: id %q type %q", last.header.Get("webhook-id"), last.header.Get("attempt-type"))
	}
	waitUntil(t, "the re-emit logged", func() bool {
		f.json("GET", "/2023-08-01/events/"+firstID+"/deliveries", "", 200, &log)
		return len(log.Items[0].Attempts) == 3 && log.Items[0].Status == "DELIVERED"
	})
	if a3 := log.Items[0].Attempts[2]; a3.AttemptType != "MANUAL" || !a3.Succeeded || a3.AttemptNumber != 3 {
		t.Errorf("attempt 3 %+v", a3)
	}
}

// TestWebhooksAPI: the CRUD routes, the secret and its rotation, errors in
// the contract's format, and account and mode isolation.
func TestWebhooksAPI(t *testing.T) {
	t.Parallel()
	f := newWebhooksServer(t)
	var hook webhookBody
	f.json("POST", "/2023-08-01/webhooks", `{"url": "https://example.com/hooks", "authentication": {"type": "API_KEY", "headerName": "x-api-key", "value": "k-1"}}`, 201, &hook)
	var got webhookBody
	f.json("GET", "/2023-08-01/webhooks/"+hook.ID, "", 200, &got)
	if got.Secret != "" || got.Authentication["value"] != nil || got.Authentication["headerName"] != "x-api-key" || got.EventTypes == nil {
		t.Errorf("GET shows %+v", got)
	}
	var list struct{ Items []webhookBody }
	f.json("GET", "/2023-08-01/webhooks", "", 200, &list)
	if len(list.Items) != 1 || list.Items[0].ID != hook.ID || list.Items[0].Secret != "" {
		t.Errorf("list %+v", list)
	}
	var secret struct{ Secret string }
	f.json("GET", "/2023-08-01/webhooks/"+hook.ID+"/secret", "", 200, &secret)
	if secret.Secret != hook.Secret {
		t.Errorf("secret %q, want the one created", secret.Secret)
	}
	var rotated struct {
		Secret                  string
		PreviousSecretExpiresAt time.Time
	}
	f.json("POST", "/2023-08-01/webhooks/"+hook.ID+"/secret/rotate", "", 200, &rotated)
	if rotated.Secret == hook.Secret || !strings.HasPrefix(rotated.Secret, "whsec_") || time.Until(rotated.PreviousSecretExpiresAt) < 23*time.Hour {
		t.Errorf("rotate %+v", rotated)
	}
	f.json("PATCH", "/2023-08-01/webhooks/"+hook.ID, `{"status": "DISABLED", "concurrency": 2, "filters": {"transactionSetIdentifier": "835"}}`, 200, &got)
	if got.Status != "DISABLED" || got.Concurrency != 2 || got.URL != "https://example.com/hooks" {
		t.Errorf("after PATCH %+v", got)
	}

	resp, body := f.call("PATCH", "/2023-08-01/webhooks/"+hook.ID, f.key, `{"url": "http://", "concurrency": 99}`, false)
	var e api.Error
	json.Unmarshal(body, &e)
	if resp.StatusCode != 400 || e.Code != "VALIDATION_ERROR" || len(e.FieldList) != 2 || e.FieldList[0].Path != "/url" || e.FieldList[1].Path != "/concurrency" {
		t.Errorf("bad PATCH: %d %s", resp.StatusCode, body)
	}
	for _, c := range []struct{ method, path, key string }{
		{"GET", "/2023-08-01/webhooks/" + hook.ID, f.otherKey},
		{"GET", "/2023-08-01/webhooks/" + hook.ID + "/secret", f.otherKey},
		{"GET", "/2023-08-01/webhooks/" + hook.ID + "/deliveries", f.otherKey},
		{"DELETE", "/2023-08-01/webhooks/" + hook.ID, f.otherKey},
		{"POST", "/2023-08-01/events/" + store.NewUUID() + "/retry", f.key},
		{"GET", "/2023-08-01/events/" + store.NewUUID() + "/deliveries", f.key},
	} {
		resp, body := f.call(c.method, c.path, c.key, "", false)
		if resp.StatusCode != 404 || !strings.Contains(string(body), `"NOT_FOUND"`) {
			t.Errorf("%s %s: %d %s, want 404", c.method, c.path, resp.StatusCode, body)
		}
	}
	if resp, body := f.call("GET", "/2023-08-01/webhooks/"+hook.ID+"/deliveries?pageSize=0&status=LOST", f.key, "", false); resp.StatusCode != 400 || !strings.Contains(string(body), "/query/pageSize") {
		t.Errorf("bad query: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.call("DELETE", "/2023-08-01/webhooks/"+hook.ID, f.key, "", false); resp.StatusCode != 204 {
		t.Errorf("DELETE %d", resp.StatusCode)
	}
	if resp, _ := f.call("GET", "/2023-08-01/webhooks/"+hook.ID, f.key, "", false); resp.StatusCode != 404 {
		t.Errorf("GET after DELETE %d", resp.StatusCode)
	}
}

// TestWebhooksWithoutSecretsKey: a server without --secrets-key says so
// instead of storing a secret in the clear.
func TestWebhooksWithoutSecretsKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{})
	rec := f.do("POST", "/2023-08-01/webhooks", f.keyA, strings.NewReader(`{"url": "https://example.com/"}`))
	e := wantError(t, rec, 503, "SERVICE_UNAVAILABLE")
	if !strings.Contains(e.Message, "--secrets-key") {
		t.Errorf("message %q does not say how to fix it", e.Message)
	}
}

func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// reference returns the Standard Webhooks reference library's verifier
// for secret (a test-only dependency).
func reference(t *testing.T, secret string) interface {
	Verify(payload []byte, h http.Header) error
} {
	t.Helper()
	w, err := standardwebhooks.NewWebhook(secret)
	if err != nil {
		t.Fatal(err)
	}
	return w
}

package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// TestWebhookAndPollingTakeAnAnswerOnce: a signed event of the upstream
// queues the fetch of its answer (once, however often it is sent), the
// fetch receives it into the real inbound path, and a poll that lists the
// same transaction afterwards takes nothing more. Unsigned, wrongly
// signed, foreign and forged-token events are refused.
func TestWebhookAndPollingTakeAnAnswerOnce(t *testing.T) {
	ctx := context.Background()
	ack, err := os.ReadFile("../../x12/testdata/corpus/999/5010_ims_999_accepted.txt")
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	fetches := 0
	up := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.URL.Path == "/2023-08-01/polling/transactions":
			w.Write([]byte(`{"items":[{"transactionId":"up-tx-1","direction":"INBOUND","processedAt":"2026-11-26T07:00:00Z",` +
				`"x12":{"metadata":{"transaction":{"transactionSetIdentifier":"999"}}}}]}`))
		case r.URL.Path == "/2023-08-01/transactions/up-tx-1/input":
			mu.Lock()
			fetches++
			mu.Unlock()
			w.Write(ack)
		default:
			http.NotFound(w, r)
		}
	}))
	defer up.Close()

	w := newClaimWorld(t)
	files, err := blob.Open(ctx, "", t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	q := jobs.New(w.st, jobs.Options{})
	co, err := core.New(core.Options{Store: w.st, Blob: files, Jobs: q})
	if err != nil {
		t.Fatal(err)
	}
	poller := &Poller{Store: w.st, Jobs: q, Receive: co.Receive, Delivery: w.d, Logger: slog.New(slog.DiscardHandler)}
	poller.Register()
	hook := &Webhook{Poller: poller, Box: w.box}
	hook.Register()

	const signing = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw"
	conn := store.Connection{ID: "up-b", AccountID: w.account, Mode: store.ModeProduction, Type: store.ConnectionClearinghouseAPI,
		Settings: []byte(`{"url":"` + up.URL + `/2024-04-01","coreUrl":"` + up.URL + `/2023-08-01"}`), CreatedAt: time.Now(), UpdatedAt: time.Now()}
	sealStoredSecrets(t, w, &conn, map[string]string{"apiKey": "k", FieldWebhookSecret: signing})
	if err := w.st.CreateConnection(ctx, conn); err != nil {
		t.Fatal(err)
	}
	token, err := WebhookToken(w.box, w.account, store.ModeProduction, "up-b")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(token, w.account) || strings.Contains(token, "up-b") {
		t.Fatalf("the token shows what it names: %s", token)
	}
	event := func(set string) []byte {
		b, _ := json.Marshal(map[string]any{"event": map[string]any{"detail-type": "transaction.processed.v2", "detail": map[string]any{
			"transactionId": "up-tx-1", "direction": "INBOUND", "x12": map[string]any{"metadata": map[string]any{
				"transaction": map[string]any{"transactionSetIdentifier": set}}}}}})
		return b
	}
	signed := func(body []byte, secret string) http.Header {
		now := time.Now()
		sig, err := webhooks.Sign("evt-1", now, body, secret)
		if err != nil {
			t.Fatal(err)
		}
		return http.Header{"Webhook-Id": {"evt-1"}, "Webhook-Timestamp": {jsonInt(now.Unix())}, "Webhook-Signature": {sig}}
	}

	// Refusals first: nothing is queued.
	otherToken, _ := WebhookToken(w.box, "another-account", store.ModeProduction, "up-b")
	testToken, _ := WebhookToken(w.box, w.account, store.ModeTest, "up-b")
	for name, c := range map[string]struct {
		token  string
		header http.Header
		want   error
	}{
		"no signature":            {token, http.Header{}, ErrWebhookSignature},
		"another secret":          {token, signed(event("999"), "whsec_b3RoZXItc2VjcmV0LW90aGVyLXNlY3JldA=="), ErrWebhookSignature},
		"another account's token": {otherToken, signed(event("999"), signing), ErrUnknownWebhook},
		"the other mode's token":  {testToken, signed(event("999"), signing), ErrUnknownWebhook},
		"a forged token":          {token[:len(token)-4] + "AAAA", signed(event("999"), signing), ErrUnknownWebhook},
		"no token":                {"", signed(event("999"), signing), ErrUnknownWebhook},
	} {
		if _, err := hook.Receive(ctx, c.token, c.header, event("999")); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", name, err, c.want)
		}
	}
	// Our own 837 at the upstream is no answer: accepted, nothing queued.
	if queued, err := hook.Receive(ctx, token, signed(event("837"), signing), event("837")); err != nil || queued {
		t.Errorf("an 837 event: queued %v, %v", queued, err)
	}
	// The answer: queued once, however often the upstream sends it.
	for i, want := range []bool{true, false, false} {
		queued, err := hook.Receive(ctx, token, signed(event("999"), signing), event("999"))
		if err != nil || queued != want {
			t.Fatalf("event #%d: queued %v, %v; want %v", i+1, queued, err, want)
		}
	}
	job, err := w.st.GetJob(ctx, "upstream-fetch-"+answerExecutionID(conn, "up-tx-1"))
	if err != nil {
		t.Fatal(err)
	}
	if err := hook.fetch(ctx, job); err != nil {
		t.Fatal(err)
	}
	e, err := w.st.GetExecution(ctx, w.account, answerExecutionID(conn, "up-tx-1"))
	if err != nil || e.SourceName != "upstream-999-up-tx-1.x12" || e.Mode != store.ModeProduction || e.ConnectionID != "up-b" {
		t.Fatalf("the answer in the inbound path: %+v, %v", e, err)
	}
	// The job again (a lease expired) and a poll that lists it: nothing more.
	if err := hook.fetch(ctx, job); err != nil {
		t.Fatal(err)
	}
	cur := store.UpstreamCursor{AccountID: w.account, Mode: store.ModeProduction, ConnectionID: "up-b", JobID: "j", UpdatedAt: time.Now()}
	if _, err := w.st.CreateUpstreamCursor(ctx, cur); err != nil {
		t.Fatal(err)
	}
	taken, err := poller.poll(ctx, conn, &cur)
	if err != nil || taken != 0 {
		t.Errorf("the poll after the webhook took %d, %v; want 0", taken, err)
	}
	execs, _, err := w.st.ListExecutions(ctx, w.account, store.ExecutionFilter{})
	if err != nil || len(execs) != 1 || fetches != 1 {
		t.Errorf("%d executions, %d fetches of the input (%v); want 1 and 1", len(execs), fetches, err)
	}
}

func jsonInt(n int64) string { b, _ := json.Marshal(n); return string(b) }

// sealStoredSecrets seals c's secrets as package partners stores them.
func sealStoredSecrets(t *testing.T, w *claimWorld, c *store.Connection, values map[string]string) {
	t.Helper()
	out := map[string]string{}
	for name, v := range values {
		s, err := w.box.SealString(v, store.ConnectionSecretsContext(c.AccountID, c.Mode, c.ID)+":"+name)
		if err != nil {
			t.Fatal(err)
		}
		out[name] = s
	}
	b, _ := json.Marshal(out)
	c.SealedSecrets = string(b)
}

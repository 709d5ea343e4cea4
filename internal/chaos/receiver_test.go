package chaos

import (
	"bytes"
	"crypto/hmac"
	"crypto/sha256"
	"database/sql"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// receiver is the webhook endpoint of the run: it checks every signature
// (Standard Webhooks, computed here independently of the service's signer),
// fails one call in ten with a 500 so retries happen, and counts what it
// accepted by webhook-id.
type receiver struct {
	url    string
	secret string

	mu       sync.Mutex
	accepted map[string]int // webhook-id → accepted deliveries
	problems []string
}

func newReceiver(t *testing.T) *receiver {
	r := &receiver{accepted: map[string]int{}}
	srv := httptest.NewServer(http.HandlerFunc(r.serve))
	t.Cleanup(srv.Close)
	r.url = srv.URL + "/hooks"
	return r
}

func (r *receiver) serve(w http.ResponseWriter, req *http.Request) {
	body, _ := io.ReadAll(req.Body)
	id, ts := req.Header.Get("webhook-id"), req.Header.Get("webhook-timestamp")
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.signedBy(id, ts, body, req.Header.Get("webhook-signature")) {
		r.problems = append(r.problems, fmt.Sprintf("delivery %s: bad signature", id))
		w.WriteHeader(http.StatusUnauthorized)
		return
	}
	var env struct {
		Event struct {
			ID         string `json:"id"`
			DetailType string `json:"detail-type"`
		} `json:"event"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Event.ID != id {
		r.problems = append(r.problems, fmt.Sprintf("delivery %s: body event id %q (%v)", id, env.Event.ID, err))
	}
	if rand.IntN(10) == 0 {
		w.WriteHeader(http.StatusInternalServerError)
		return
	}
	r.accepted[id]++
	w.WriteHeader(http.StatusNoContent)
}

func (r *receiver) signedBy(id, ts string, body []byte, header string) bool {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(r.secret, "whsec_"))
	if err != nil || r.secret == "" {
		return false
	}
	mac := hmac.New(sha256.New, key)
	fmt.Fprintf(mac, "%s.%s.", id, ts)
	mac.Write(body)
	want := "v1," + base64.StdEncoding.EncodeToString(mac.Sum(nil))
	for _, sig := range strings.Fields(header) {
		if hmac.Equal([]byte(sig), []byte(want)) {
			return true
		}
	}
	return false
}

// createWebhook subscribes url to every event type and returns its secret.
func createWebhook(t *testing.T, base, key, url string) string {
	t.Helper()
	body, _ := json.Marshal(map[string]any{"url": url, "description": "chaos receiver"})
	req, _ := http.NewRequest("POST", base+"/2023-08-01/webhooks", bytes.NewReader(body))
	req.Header.Set("Authorization", "Key "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var v struct{ Secret string }
	if resp.StatusCode/100 != 2 || json.Unmarshal(b, &v) != nil || v.Secret == "" {
		t.Fatalf("create webhook: %d %s", resp.StatusCode, b)
	}
	return v.Secret
}

// verifyWebhooks: every stored event reached the receiver at least once,
// under its own id, and nothing else did.
func verifyWebhooks(t *testing.T, db *sql.DB, r *receiver) {
	t.Helper()
	rows, err := db.Query(`SELECT id, detail_type FROM events`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	r.mu.Lock()
	defer r.mu.Unlock()
	problems := append([]string(nil), r.problems...)
	stored := map[string]bool{}
	extra := 0
	for rows.Next() {
		var id, kind string
		rows.Scan(&id, &kind)
		stored[id] = true
		switch n := r.accepted[id]; {
		case n == 0:
			problems = append(problems, fmt.Sprintf("event %s (%s) never reached the webhook", id, kind))
		case n > 1:
			extra += n - 1
		}
	}
	for id := range r.accepted {
		if !stored[id] {
			problems = append(problems, fmt.Sprintf("the webhook got %s, which is no stored event", id))
		}
	}
	t.Logf("webhooks: %d events stored, %d delivered, %d delivered again after a lost answer", len(stored), len(r.accepted), extra)
	if len(problems) > 0 {
		if len(problems) > 30 {
			problems = append(problems[:30], fmt.Sprintf("… and %d more", len(problems)-30))
		}
		t.Fatalf("webhook problems:\n%s", joinLines(problems))
	}
}

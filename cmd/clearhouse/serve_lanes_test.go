package main

import (
	"context"
	"encoding/json"
	"flag"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestSlowReceiverDoesNotDelayOtherAccounts reproduces the attack of
// issue 20 item 4: account A points a webhook at a receiver that never
// answers and sends it 40 test events; account B uploads a file. B's file
// is processed, and its event reaches B's own receiver, within ~2 s, while
// A's attempts wait their turn: never more than A's share of outbound
// workers at once. Before the outbound lane, every attempt held one of the
// 4 workers for the 5 s timeout and B's file waited ~50 s.
func TestSlowReceiverDoesNotDelayOtherAccounts(t *testing.T) {
	t.Run(store.EngineSQLite, func(t *testing.T) { slowReceiverAttack(t, "") })
	t.Run(store.EnginePostgres, func(t *testing.T) { slowReceiverAttack(t, storetest.PostgresSchemaURL(t)) })
}

// slowReceiverAttack runs the attack on the database at databaseURL (""
// for SQLite in the data directory).
func slowReceiverAttack(t *testing.T, databaseURL string) {
	ctx := context.Background()
	data := t.TempDir()
	st, err := store.Open(ctx, data, databaseURL, store.PostgresTimeouts{})
	if err != nil {
		t.Fatal(err)
	}
	keyA, _, err := auth.CreateKey(ctx, st, "Slow Receiver Co", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	keyB, recB, err := auth.CreateKey(ctx, st, "Clinic", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := coretest.SetupPartners(ctx, st, recB.AccountID, store.ModeTest); err != nil {
		t.Fatal(err)
	}
	st.Close()

	release := make(chan struct{})
	var mu sync.Mutex
	inflight, most, calls := 0, 0, 0
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		readBody(r) // so that the server sees the caller hang up
		mu.Lock()
		inflight++
		calls++
		most = max(most, inflight)
		mu.Unlock()
		select { // never answers (the attempt times out first)
		case <-r.Context().Done():
		case <-release:
		}
		mu.Lock()
		inflight--
		mu.Unlock()
	}))
	defer silent.Close()
	defer close(release)
	received := make(chan time.Time, 16)
	fast := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.Contains(readBody(r), "file.processed.v2") {
			received <- time.Now()
		}
	}))
	defer fast.Close()

	base, _ := startServe(t, data, func(c *serveConfig) {
		c.secrets.key, c.webhooks.allowPrivate, c.workers, c.databaseURL = secrets.NewKey(), true, 4, databaseURL
		c.writeTimeout = 20 * time.Second
	})
	hookA := createWebhook(t, base, keyA, silent.URL)
	createWebhook(t, base, keyB, fast.URL)
	for range 40 {
		if code, body := call(t, "POST", base+"/2023-08-01/webhooks/"+hookA+"/test", keyA, ""); code >= 300 {
			t.Fatalf("test event: %d %s", code, body)
		}
	}
	// A's attempts have taken their workers.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		mu.Lock()
		busy := inflight
		mu.Unlock()
		if busy >= 4 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the silent receiver has %d calls in flight, want 4", busy)
		}
	}

	start := time.Now()
	req, _ := http.NewRequest("POST", base+"/2023-08-01/files/inbound?name=era.x12", strings.NewReader(coretest.Gen835([]int{1}, 2, 0)))
	req.Header.Set("Authorization", "Key "+keyB)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	var accepted struct{ ExecutionID string }
	json.NewDecoder(resp.Body).Decode(&accepted)
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted || accepted.ExecutionID == "" {
		t.Fatalf("upload: %d %+v", resp.StatusCode, accepted)
	}
	// Wait long enough to measure the old behaviour (~50 s), judge at 2 s.
	var processed time.Duration
	for deadline := start.Add(90 * time.Second); processed == 0; time.Sleep(20 * time.Millisecond) {
		_, body := get(t, base+"/2023-08-01/executions/"+accepted.ExecutionID, keyB)
		var ex struct{ Status string }
		json.Unmarshal([]byte(body), &ex)
		if ex.Status != "RECEIVED" && ex.Status != "PROCESSING" {
			processed = time.Since(start)
		} else if time.Now().After(deadline) {
			t.Fatalf("B's file not processed in %s", time.Since(start))
		}
	}
	var delivered time.Duration
	select {
	case at := <-received:
		delivered = at.Sub(start)
	case <-time.After(90 * time.Second):
		t.Fatal("B's event never reached B's receiver")
	}
	// A's next attempts, once the first ones time out, keep to its share.
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		mu.Lock()
		n := calls
		mu.Unlock()
		if n >= 2*defaultOutboundPerAccount+1 || time.Now().After(deadline) {
			break
		}
	}
	mu.Lock()
	peak := most
	mu.Unlock()
	t.Logf("B's file processed in %s, its event delivered in %s; A's receiver peaked at %d calls at once", processed, delivered, peak)
	if processed > 2*time.Second {
		t.Errorf("B's file took %s to process behind A's silent webhook, want < 2s", processed)
	}
	if delivered > 2*time.Second {
		t.Errorf("B's event took %s to reach B's receiver behind A's silent webhook, want < 2s", delivered)
	}
	if peak > defaultOutboundPerAccount {
		t.Errorf("A's receiver had %d calls at once, want at most the account's share %d", peak, defaultOutboundPerAccount)
	}
}

// createWebhook registers url for every event of the key's account and
// returns the webhook's id.
func createWebhook(t *testing.T, base, key, url string) string {
	t.Helper()
	code, body := call(t, "POST", base+"/2023-08-01/webhooks", key, `{"url":"`+url+`"}`)
	var hook struct{ ID string }
	if json.Unmarshal([]byte(body), &hook); code != http.StatusCreated || hook.ID == "" {
		t.Fatalf("create webhook: %d %s", code, body)
	}
	return hook.ID
}

func readBody(r *http.Request) string {
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := r.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil || b.Len() > 1<<20 {
			return b.String()
		}
	}
}

func TestLaneFlags(t *testing.T) {
	cases := []struct {
		args               []string
		outbound, fileLane jobs.Lane
	}{
		{nil, jobs.Lane{Concurrency: 16, PerAccount: 4}, jobs.Lane{}},
		{[]string{"--outbound-workers", "8", "--outbound-per-account", "0", "--workers-per-account", "3"},
			jobs.Lane{Concurrency: 8}, jobs.Lane{PerAccount: 3}},
		{[]string{"--outbound-workers", "0"}, jobs.Lane{Concurrency: 16, PerAccount: 4}, jobs.Lane{}},
	}
	for _, c := range cases {
		var f laneFlags
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		f.register(fs)
		if err := fs.Parse(c.args); err != nil {
			t.Fatal(err)
		}
		lanes := f.lanes()
		if lanes[jobs.LaneOutbound] != c.outbound || lanes[jobs.LaneDefault] != c.fileLane {
			t.Errorf("%v: outbound %+v, files %+v; want %+v, %+v", c.args, lanes[jobs.LaneOutbound], lanes[jobs.LaneDefault], c.outbound, c.fileLane)
		}
	}
}

package web

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// ediServer is 'clearhouse serve' in small: the API server with the
// console, the EDI core and webhooks over SQLite and a blob directory, its
// job queue running.
type ediServer struct {
	*testServer
	Core     *core.Service
	Webhooks *webhooks.Service
}

func newEDIServer(t testing.TB) *ediServer {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	st, err := store.OpenSQLite(ctx, filepath.Join(dir, "clearhouse.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	blobs, err := blob.Open(ctx, "", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { blobs.Close() })
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	queue := jobs.New(st, jobs.Options{Logger: logger, PollInterval: 20 * time.Millisecond, Concurrency: 4})
	cs, err := core.New(core.Options{Store: st, Blob: blobs, Jobs: queue, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	key, _ := secrets.ParseKey(secrets.NewKey())
	box, _ := secrets.New(key)
	hooks, err := webhooks.New(webhooks.Config{Store: st, Queue: queue, Events: webhooks.StoreEvents(st), Secrets: box,
		Guard: netguard.New(netguard.Options{AllowPrivate: true}), Logger: logger,
		Schedule: []time.Duration{0, time.Hour}, Jitter: -1})
	if err != nil {
		t.Fatal(err)
	}
	pdir := payers.Default()
	router, err := payers.NewRouter(pdir, mockpayer.New(mockpayer.WithDirectory(pdir)), nil)
	if err != nil {
		t.Fatal(err)
	}
	checks, err := eligibility.NewService(eligibility.Config{Router: router, History: st, Logger: logger})
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 32)
	rand.Read(secret)
	fake := clock.NewFake(time.Now())
	console, err := New(Config{Store: st, Eligibility: checks, Payers: pdir, Secret: secret, Clock: fake, Logger: logger,
		Core: cs, Webhooks: hooks})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Env{Store: st, Blob: blobs, Logger: logger, Jobs: queue, Core: cs, Webhooks: hooks, Secrets: box,
		OnClaims: console.UseClaims},
		api.Options{ExtraRoutes: console.Routes()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	runCtx, stop := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { queue.Run(runCtx); close(done) }()
	t.Cleanup(func() { stop(); <-done })
	return &ediServer{testServer: &testServer{URL: ts.URL, Store: st, Clock: fake}, Core: cs, Webhooks: hooks}
}

// partneredKey issues a test key whose account has the coretest trading
// partners, so generated 835 files process.
func (s *ediServer) partneredKey(t testing.TB, account string) (string, store.APIKey) {
	t.Helper()
	plain, rec := s.key(t, account, store.ModeTest)
	if _, err := coretest.SetupPartners(context.Background(), s.Store, rec.AccountID, store.ModeTest); err != nil {
		t.Fatal(err)
	}
	return plain, rec
}

// receiver is a webhook endpoint that records the webhook-id of each call
// and answers with status.
type receiver struct {
	URL    string
	mu     sync.Mutex
	ids    []string
	status int
}

func newReceiver(t testing.TB) *receiver {
	rc := &receiver{status: http.StatusOK}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		rc.mu.Lock()
		rc.ids = append(rc.ids, r.Header.Get("webhook-id"))
		status := rc.status
		rc.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, `{"received":true}`)
	}))
	t.Cleanup(ts.Close)
	rc.URL = ts.URL + "/hook"
	return rc
}

func (rc *receiver) calls(id string) int {
	rc.mu.Lock()
	defer rc.mu.Unlock()
	n := 0
	for _, got := range rc.ids {
		if got == id {
			n++
		}
	}
	return n
}

// waitFor polls cond for up to 15 seconds.
func waitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(15 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

package web

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// ediServer is 'clearhouse serve' in small: the API server with the
// console, the EDI core and webhooks over SQLite and a blob directory, its
// job queue running.
type ediServer struct {
	*testServer
	Core          *core.Service
	Webhooks      *webhooks.Service
	StatusInquiry *statusinquiry.Service
}

func newEDIServer(t testing.TB) *ediServer {
	t.Helper()
	return newEDIServerWith(t, serverOptions{})
}

// newEDIServerRemit is newEDIServer whose mock payer pays remitDelay after
// its 277CA.
func newEDIServerRemit(t testing.TB, remitDelay time.Duration) *ediServer {
	t.Helper()
	return newEDIServerWith(t, serverOptions{RemitDelay: remitDelay})
}

// newEDIServerWith is newEDIServer with options (EDI is implied).
func newEDIServerWith(t testing.TB, o serverOptions) *ediServer {
	t.Helper()
	o.EDI = true
	s, svc := newServerWith(t, o)
	return &ediServer{testServer: s, Core: svc.Core, Webhooks: svc.Webhooks, StatusInquiry: svc.StatusInquiry}
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

package web

import (
	"context"
	"crypto/rand"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"net/url"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// testServer is the real API server with the console mounted, on a
// loopback port, over a SQLite store in a temporary directory: the same
// composition as 'clearhouse serve'.
type testServer struct {
	URL   string
	Store store.Store
	Clock *clock.Fake // the console's clock (sessions)
}

func newTestServer(t testing.TB) *testServer {
	s, _ := newServer(t, false)
	return s
}

// newServer is 'clearhouse serve' in small, built as app.New builds it (the
// console cannot import app): the services over SQLite and a blob
// directory, the console beside the API. With edi the console opens its
// files, transactions, webhooks and claims pages and the job queue runs.
func newServer(t testing.TB, edi bool) (*testServer, *services.Set) {
	t.Helper()
	return newServerRemit(t, edi, 0)
}

// newServerRemit is newServer whose mock payer sends its 835 remitDelay
// after the 277CA (services' default when 0), as serve --mock-remit-delay.
func newServerRemit(t testing.TB, edi bool, remitDelay time.Duration) (*testServer, *services.Set) {
	t.Helper()
	return newServerWith(t, serverOptions{EDI: edi, RemitDelay: remitDelay})
}

// serverOptions shape a test server: EDI and RemitDelay as newServerRemit,
// Payers the payer directory (serve's --payer-directory and --payers
// joined; the shipped one when nil), DecisionPoll the console's
// Config.DecisionPoll (its default when 0).
type serverOptions struct {
	EDI          bool
	RemitDelay   time.Duration
	Payers       *payers.Directory
	DecisionPoll time.Duration
}

// newServerWith is newServer with options.
func newServerWith(t testing.TB, o serverOptions) (*testServer, *services.Set) {
	edi, remitDelay := o.EDI, o.RemitDelay
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
	key, _ := secrets.ParseKey(secrets.NewKey())
	box, _ := secrets.New(key)
	svc, err := services.New(services.Config{Store: st, Blob: blobs, Secrets: box, Logger: logger,
		Jobs: jobs.Options{PollInterval: 20 * time.Millisecond, Concurrency: 4},
		Webhooks: webhooks.Config{Guard: netguard.New(netguard.Options{AllowPrivate: true}),
			Schedule: []time.Duration{0, time.Hour}, Jitter: -1}, MockRemitDelay: remitDelay, Payers: o.Payers})
	if err != nil {
		t.Fatal(err)
	}
	secret := make([]byte, 32)
	rand.Read(secret)
	fake := clock.NewFake(time.Now())
	cfg := Config{Store: st, Eligibility: svc.Eligibility, Payers: svc.Payers, MockRequests: services.MockExamples(),
		MockClaims: MockClaims{RejectMemberID: mockpayer.ClaimRejectMemberID, UnreachablePayerID: mockpayer.UnreachablePayerID,
			UnreachablePayerName: services.UnreachablePayerName, PartialMemberID: mockpayer.RemitMember(mockpayer.RemitPartial),
			DeniedMemberID: mockpayer.RemitMember(mockpayer.RemitDenied), ReversalMemberID: mockpayer.RemitMember(mockpayer.RemitReverse)},
		Secret: secret, Clock: fake, Logger: logger, DecisionPoll: o.DecisionPoll}
	if edi {
		cfg.Core, cfg.Webhooks, cfg.Claims = svc.Core, svc.Webhooks, svc.Claims
	}
	console, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	srv, err := api.New(api.Services{Store: st, Clock: svc.Clock, Logger: logger, Metrics: svc.Metrics, Secrets: box,
		Core: svc.Core, Eligibility: svc.Eligibility, Payers: svc.Payers, Claims: svc.Claims,
		StatusInquiry: svc.StatusInquiry, Webhooks: svc.Webhooks, Events: svc.Events}, api.Options{ExtraRoutes: console.Routes()})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	if edi {
		runCtx, stop := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() { svc.Jobs.Run(runCtx); close(done) }()
		t.Cleanup(func() { stop(); <-done })
	}
	return &testServer{URL: ts.URL, Store: st, Clock: fake}, svc
}

// key issues a real API key through the auth package.
func (s *testServer) key(t testing.TB, account, mode string) (string, store.APIKey) {
	t.Helper()
	plain, rec, err := auth.CreateKey(context.Background(), s.Store, account, mode, "console test", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return plain, rec
}

// browser is a cookie-keeping HTTP client that does not follow redirects,
// so tests see each answer.
type browser struct {
	t    testing.TB
	base string
	c    *http.Client
}

func (s *testServer) browser(t testing.TB) *browser {
	jar, _ := cookiejar.New(nil)
	return &browser{t: t, base: s.URL, c: &http.Client{Jar: jar, CheckRedirect: func(*http.Request, []*http.Request) error {
		return http.ErrUseLastResponse
	}}}
}

type response struct {
	*http.Response
	Body string
}

func (b *browser) do(req *http.Request) response {
	b.t.Helper()
	resp, err := b.c.Do(req)
	if err != nil {
		b.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	return response{resp, string(body)}
}

func (b *browser) get(path string) response {
	b.t.Helper()
	req, _ := http.NewRequest("GET", b.base+path, nil)
	return b.do(req)
}

// post sends a form the way a browser does from our own page.
func (b *browser) post(path string, form url.Values, header ...string) response {
	b.t.Helper()
	req, _ := http.NewRequest("POST", b.base+path, strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.Header.Set("Origin", b.base)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return b.do(req)
}

var csrfInput = regexp.MustCompile(`name="csrf" value="([^"]+)"`)

// csrf reads the CSRF token from a page.
func (b *browser) csrf(page string) string {
	b.t.Helper()
	m := csrfInput.FindStringSubmatch(page)
	if m == nil {
		b.t.Fatalf("no CSRF token in the page:\n%.400s", page)
	}
	return m[1]
}

// signIn signs in with key and fails the test unless it works.
func (b *browser) signIn(key string) {
	b.t.Helper()
	page := b.get("/signin")
	resp := b.post("/signin", url.Values{"csrf": {b.csrf(page.Body)}, "key": {key}})
	if resp.StatusCode != http.StatusSeeOther || resp.Header.Get("Location") != "/checks/new" {
		b.t.Fatalf("sign in: %d %s\n%.600s", resp.StatusCode, resp.Header.Get("Location"), resp.Body)
	}
}

// formFor returns the posted form of a mock request, with the page's token.
func (b *browser) formFor(mockName string) url.Values {
	b.t.Helper()
	page := b.get("/checks/new?mock=" + mockName)
	if page.StatusCode != 200 {
		b.t.Fatalf("new check page: %d", page.StatusCode)
	}
	for _, m := range services.MockExamples() {
		if m.Name == mockName {
			v := url.Values{"csrf": {b.csrf(page.Body)}, "mock": {mockName}}
			for name, value := range formFromMock(m).Values {
				v.Set(name, value)
			}
			return v
		}
	}
	b.t.Fatalf("no mock request %q", mockName)
	return nil
}

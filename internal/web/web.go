// Package web is Clearhouse's browser console: server-rendered pages for
// the people at a front desk who check coverage in a browser. They sign in
// with an API key, run eligibility checks through a form (with the mock
// requests one click away in test mode), read the result the way benefits
// are read — status and plan first, then cost sharing grouped by service
// type — and look back through their account's history.
//
// Everything is embedded in the binary: html/template pages and a vendored
// htmx (static/VENDOR.md). Pages work without JavaScript; htmx only swaps
// results in place and narrows the payer list as one types.
//
// The console plugs into the API server as public routes (Routes), so it
// shares its request ids, access log, metrics and body limit. Checks run
// through the same eligibility.Service as the API and land in the same
// history.
package web

import (
	"context"
	"errors"
	"html/template"
	"log/slog"
	"net/http"
	"time"
	_ "time/tzdata" // the history's day filters in the viewer's zone, on hosts without a zone database

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Checker runs an eligibility check; *eligibility.Service is one.
type Checker interface {
	Check(ctx context.Context, caller eligibility.Caller, req *eligibility.Request) (*eligibility.Result, error)
}

// Config wires the console.
type Config struct {
	// Store holds accounts, keys and the check history. Required.
	Store store.Store
	// Eligibility runs the checks. Required.
	Eligibility Checker
	// Payers is the directory behind the payer picker (default payers.Default()).
	Payers *payers.Directory
	// MockRequests fill the check form in test mode, and MockClaims are the
	// mock payer's claim rules the test-mode claim samples follow; the
	// composition root gives internal/mockpayer's (none by default).
	MockRequests []eligibility.Example
	MockClaims   MockClaims
	// Secret signs the session cookies: at least 32 random bytes, the same
	// on every replica (see LoadOrCreateSecret). Required.
	Secret []byte
	// SessionTTL is how long a sign-in lasts (default 12 hours, one shift).
	SessionTTL time.Duration
	// Clock dates sessions (default the system clock).
	Clock clock.Clock
	// DecisionPoll is how often a claim's page, or the claims list, asks
	// again while the payer decides an accepted claim (default a minute:
	// a payment shows within a minute of arriving, and a page left open
	// for the days a payer takes costs one small request a minute).
	DecisionPoll time.Duration
	// Logger receives operational events, never PHI (default slog.Default()).
	Logger *slog.Logger
	// Core, when set, opens the files and transactions pages (edi.go).
	Core *core.Service
	// Webhooks, when set, opens the webhook pages and the events' Retry.
	Webhooks *webhooks.Service
	// Claims, when set, opens the claim form (the API's claims service).
	Claims ClaimSubmitter
}

// DefaultSessionTTL is how long a sign-in lasts unless Config says otherwise.
const DefaultSessionTTL = 12 * time.Hour

// Console serves the console's pages.
type Console struct {
	cfg      Config
	pages    map[string]*template.Template
	sessions *sessions
	mocks    []eligibility.Example
	samples  []claimSample
	origin   *http.CrossOriginProtection
	// signInFailures limits the keys that were not accepted, per address.
	signInFailures *httpkit.AuthFailures
	// recorder keeps the access audit of the pages in consoleAuditRules.
	recorder *audit.Recorder
}

// New checks cfg, fills its defaults and parses the templates.
func New(cfg Config) (*Console, error) {
	if cfg.Store == nil || cfg.Eligibility == nil {
		return nil, errors.New("web: Config.Store and Config.Eligibility are required")
	}
	if len(cfg.Secret) < 32 {
		return nil, errors.New("web: Config.Secret must hold at least 32 bytes")
	}
	if cfg.Payers == nil {
		cfg.Payers = payers.Default()
	}
	if cfg.SessionTTL <= 0 {
		cfg.SessionTTL = DefaultSessionTTL
	}
	if cfg.DecisionPoll <= 0 {
		cfg.DecisionPoll = time.Minute
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	pages, err := parsePages()
	if err != nil {
		return nil, err
	}
	return &Console{
		cfg:            cfg,
		pages:          pages,
		sessions:       newSessions(cfg.Secret, cfg.Clock),
		mocks:          cfg.MockRequests,
		samples:        cfg.MockClaims.samples(),
		origin:         http.NewCrossOriginProtection(),
		signInFailures: httpkit.NewAuthFailures(),
		recorder:       audit.New(cfg.Store, cfg.Clock),
	}, nil
}

// Routes are the console's endpoints, for the API server's ExtraRoutes. They
// are public as far as the API is concerned: the console authenticates
// with its own session cookie.
func (c *Console) Routes() []httpkit.Route {
	signedIn := func(h http.HandlerFunc) http.Handler { return c.secure(c.requireSession(h)) }
	posted := func(h http.HandlerFunc) http.Handler { return c.secure(c.requireSession(c.checkCSRF(h))) }
	routes := []struct {
		pattern string
		handler http.Handler
	}{
		{"GET /{$}", c.secure(http.HandlerFunc(c.home))},
		{"GET /signin", c.secure(http.HandlerFunc(c.signInPage))},
		{"POST /signin", c.secure(http.HandlerFunc(c.signIn))},
		{"POST /signout", posted(c.signOut)},
		{"GET /checks/new", signedIn(c.newCheckPage)},
		{"POST /checks", posted(c.runCheck)},
		{"GET /checks", signedIn(c.historyPage)},
		{"GET /checks/{id}", signedIn(c.resultPage)},
		{"GET /checks/{id}/pdf", signedIn(c.resultPDF)},
		{"GET /payers/search", signedIn(c.payerSearch)},
		{"GET /static/{file}", http.HandlerFunc(serveStatic)},
		{"GET /favicon.ico", http.HandlerFunc(serveFavicon)},
	}
	out := make([]httpkit.Route, len(routes))
	for i, r := range routes {
		out[i] = httpkit.Route{Pattern: r.pattern, Handler: r.handler, Public: true}
	}
	return append(out, c.ediRoutes()...)
}

// home sends signed-in people to a new check and everyone else to sign in.
func (c *Console) home(w http.ResponseWriter, r *http.Request) {
	if _, err := c.session(r); err == nil {
		http.Redirect(w, r, "/checks/new", http.StatusSeeOther)
		return
	}
	http.Redirect(w, r, "/signin", http.StatusSeeOther)
}

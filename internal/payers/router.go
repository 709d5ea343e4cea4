package payers

import (
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"
)

// Mode is the API key's mode.
type Mode string

// The modes a principal can be in.
const (
	ModeTest       Mode = "test"
	ModeProduction Mode = "production"
)

// MockConnectionName is the name a test-mode Route reports.
const MockConnectionName = "mock"

// ErrNotConfigured: the payer id is unknown, or no production connection
// reaches it. Errors returned by Router.Route wrap it with the payer id.
var ErrNotConfigured = errors.New("payer is not configured")

// ErrNoMockMatch is a test-mode payer's refusal of a 270 that matches none
// of its published mock requests (test mode answers only those; callers
// answer 403). Package mockpayer returns it; it lives here, with the
// connection contract, so callers need not import the mock.
var ErrNoMockMatch = errors.New("no mock request matches")

// ErrInvalidInquiry is a test-mode payer's refusal of a request that is
// not a 270 it can answer (callers answer 400).
var ErrInvalidInquiry = errors.New("mockpayer: not an answerable 270")

// ErrTransactionNotSupported: the payer is known but does not exchange the
// requested transaction electronically.
var ErrTransactionNotSupported = errors.New("payer connection does not support the transaction")

// NotConfiguredError says which payer is not configured and why. Its text
// only names the id the caller sent.
type NotConfiguredError struct {
	PayerID string
	Reason  string
}

func (e *NotConfiguredError) Error() string {
	return fmt.Sprintf("Payer %s is not configured: %s", e.PayerID, e.Reason)
}

// Unwrap makes errors.Is(err, ErrNotConfigured) hold.
func (e *NotConfiguredError) Unwrap() error { return ErrNotConfigured }

// UnsupportedTransactionError names the payer and the transaction code.
type UnsupportedTransactionError struct {
	PayerID     string
	Transaction string
}

// Error uses the wording of the contract ("Payer connection does not
// support 270").
func (e *UnsupportedTransactionError) Error() string {
	return "Payer connection does not support " + e.Transaction
}

// Unwrap makes errors.Is(err, ErrTransactionNotSupported) hold.
func (e *UnsupportedTransactionError) Unwrap() error { return ErrTransactionNotSupported }

// Route is the outcome of routing: the payer's directory entry and the
// connection to use.
type Route struct {
	Payer          Payer
	ConnectionName string
	Connection     Connection
}

// Router picks the connection for (mode, payer). It is immutable and safe
// for concurrent use.
type Router struct {
	dir        *Directory
	mock       Connection
	production map[string]Connection
	breakers   *breakerSet // by account, mode and connection name
	observe    func(RouteEvent)
	now        func() time.Time
}

// RouterOptions tune the failover between a payer's routes.
type RouterOptions struct {
	// Breakers sets a connection's breaker (failures in a row, open
	// time); connections not listed get the defaults.
	Breakers map[string]BreakerSettings
	// Observe is told every attempt of a routed exchange (metrics).
	Observe func(RouteEvent)
	// Now is the breakers' clock (tests); time.Now by default.
	Now func() time.Time
}

// BreakerSettings are one connection's breaker thresholds.
type BreakerSettings struct {
	Failures int
	OpenFor  time.Duration
}

// NewRouter builds a router over dir. mock answers every test-mode
// exchange; production maps connection names (Payer.Connection) to the
// connections that reach real payers. A production connection that is
// TestOnly, or registered under the mock's name, is refused.
func NewRouter(dir *Directory, mock Connection, production map[string]Connection) (*Router, error) {
	return NewRouterWith(dir, mock, production, RouterOptions{})
}

// NewRouterWith is NewRouter with failover settings.
func NewRouterWith(dir *Directory, mock Connection, production map[string]Connection, opts RouterOptions) (*Router, error) {
	if dir == nil {
		return nil, errors.New("payers: router needs a directory")
	}
	if mock == nil {
		return nil, errors.New("payers: router needs the mock connection for test mode")
	}
	prod := make(map[string]Connection, len(production))
	for name, c := range production {
		switch {
		case name == "" || strings.EqualFold(name, MockConnectionName):
			return nil, fmt.Errorf("payers: production connection name %q is reserved", name)
		case c == nil:
			return nil, fmt.Errorf("payers: production connection %q is nil", name)
		case isTestOnly(c):
			return nil, fmt.Errorf("payers: production connection %q is a test-only connection", name)
		}
		prod[name] = c
	}
	r := &Router{dir: dir, mock: mock, production: prod, breakers: newBreakerSet(opts.Breakers),
		observe: opts.Observe, now: opts.Now}
	if r.observe == nil {
		r.observe = func(RouteEvent) {}
	}
	if r.now == nil {
		r.now = time.Now
	}
	return r, nil
}

// BreakerState reports the state of a connection's breaker as the caller
// (an account in a mode) sees it ("" when the router has no such
// connection). Each caller has its own breaker per connection.
func (r *Router) BreakerState(caller Caller, name string) string {
	if _, ok := r.production[name]; !ok {
		return ""
	}
	return r.breakers.state(caller, name, r.now())
}

// Directory returns the directory the router consults.
func (r *Router) Directory() *Directory { return r.dir }

// ConnectionNames lists the registered production connection names.
func (r *Router) ConnectionNames() []string {
	names := make([]string, 0, len(r.production))
	for n := range r.production {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// Route resolves the payer for a transaction (Eligibility, ...) in a mode.
// Test mode always gets the mock connection; production never does.
// Unknown payers and payers without a usable production connection give a
// *NotConfiguredError; a payer that does not list the transaction gives an
// *UnsupportedTransactionError.
func (r *Router) Route(mode Mode, tradingPartnerServiceID, transaction string) (Route, error) {
	id := strings.TrimSpace(tradingPartnerServiceID)
	p, ok := r.dir.Lookup(id)
	if !ok {
		return Route{}, &NotConfiguredError{PayerID: id, Reason: "unknown payer id; check the payer directory for the id to use"}
	}
	return r.route(mode, id, p, transaction)
}

// RouteFound is Route for a payer the caller has already looked up in the
// router's Directory: p is what Lookup(tradingPartnerServiceID) returned.
// The route or error is Route's, without a second lookup and copy of the
// entry (an eligibility check looks its payer up for validation first).
func (r *Router) RouteFound(mode Mode, tradingPartnerServiceID string, p Payer, transaction string) (Route, error) {
	return r.route(mode, strings.TrimSpace(tradingPartnerServiceID), p, transaction)
}

// route is Route once the payer is found: id is the trimmed id asked for.
func (r *Router) route(mode Mode, id string, p Payer, transaction string) (Route, error) {
	if !p.Supports(transaction) {
		return Route{}, &UnsupportedTransactionError{PayerID: p.ID, Transaction: transaction}
	}
	switch mode {
	case ModeTest:
		return Route{Payer: p, ConnectionName: MockConnectionName, Connection: r.mock}, nil
	case ModeProduction:
		names := p.RoutesFor(transaction)
		if len(names) == 0 {
			return Route{}, &NotConfiguredError{PayerID: id, Reason: "no production connection is configured for this payer"}
		}
		conns := make([]Connection, len(names))
		for i, name := range names {
			c, ok := r.production[name]
			if !ok {
				return Route{}, &NotConfiguredError{PayerID: id, Reason: fmt.Sprintf("its connection %q is not available on this server", name)}
			}
			conns[i] = c
		}
		if len(names) == 1 {
			return Route{Payer: p, ConnectionName: names[0], Connection: conns[0]}, nil
		}
		return Route{Payer: p, ConnectionName: strings.Join(names, ","), Connection: &failover{
			transaction: transaction, names: names, conns: conns, breakers: r.breakers, observe: r.observe, now: r.now,
		}}, nil
	default:
		return Route{}, fmt.Errorf("payers: unknown mode %q", mode)
	}
}

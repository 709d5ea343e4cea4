package payers

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"
)

// RouteRecord is what a routed exchange reports back through its context:
// the route that answered, the routes tried before it, and how many times
// the exchange moved on. The eligibility service stores Answered in the
// check's history.
type RouteRecord struct {
	mu        sync.Mutex
	Answered  string
	Tried     []string
	Failovers int
}

// WithRouteRecord returns ctx carrying a fresh record for one exchange.
func WithRouteRecord(ctx context.Context) (context.Context, *RouteRecord) {
	rec := &RouteRecord{}
	return with(ctx, func(v *exchangeValues) { v.record = rec }), rec
}

func routeRecordFrom(ctx context.Context) *RouteRecord {
	if v := exchangeFrom(ctx); v != nil {
		return v.record
	}
	return nil
}

func (r *RouteRecord) tried(name string, answered bool) {
	if r == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.Tried = append(r.Tried, name)
	if answered {
		r.Answered = name
	} else {
		r.Failovers++
	}
}

// Answer returns the answering route and the failover count.
func (r *RouteRecord) Answer() (string, int) {
	if r == nil {
		return "", 0
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.Answered, r.Failovers
}

// FailOverer is implemented by connection errors that know whether another
// route may take the request (package upstream: unreachable, time limit,
// 5xx yes; a refused key or request no).
type FailOverer interface {
	FailOver() bool
}

// RouteEvent is reported to the router's observer after each attempt.
type RouteEvent struct {
	Transaction string
	Connection  string
	// Outcome: "answered", "failover" (an outage; the next route is
	// tried), "refused" (an error no other route is tried for),
	// "skipped" (the route's breaker is open).
	Outcome     string
	BreakerOpen bool // this attempt opened the route's breaker
}

// failover is the Connection a production Route hands out when a payer
// names routes: it tries them in order.
type failover struct {
	transaction string
	names       []string
	conns       []Connection
	breakers    *breakerSet
	observe     func(RouteEvent)
	now         func() time.Time
}

// ErrAllRoutesOpen: every route's breaker is open, so nothing was sent.
var ErrAllRoutesOpen = errors.New("every route to the payer is open after repeated failures")

// routesOpenError is ErrAllRoutesOpen as an ExchangeError, so callers
// answer it like a payer that cannot respond.
type routesOpenError struct{ names []string }

func (e *routesOpenError) Error() string {
	return fmt.Sprintf("%v (%s); nothing was sent, retry shortly", ErrAllRoutesOpen, strings.Join(e.names, ", "))
}
func (e *routesOpenError) Unwrap() error     { return ErrAllRoutesOpen }
func (e *routesOpenError) ErrorCode() string { return "CircuitOpen" }
func (e *routesOpenError) Timeout() bool     { return false }

// Exchange tries each route whose breaker lets it: an outage (connection
// error, time limit, 5xx, a 271 whose AAA says 42 "unable to respond")
// moves on to the next; an answer or a refusal ends the exchange. When
// every tried route failed, the last outage is returned (a 271 with AAA
// 42 as the answer, so the caller maps the payer's own words).
func (f *failover) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	rec := routeRecordFrom(ctx)
	// The caller's own breakers: another account's (or this account's
	// other mode's) outages never skip a route for this one.
	caller, _ := CallerFrom(ctx)
	var lastErr error
	var lastAnswer []byte
	tried := 0
	for i, c := range f.conns {
		name := f.names[i]
		b := f.breakers.get(caller, name)
		if !b.allow(f.now()) {
			f.observe(RouteEvent{Transaction: f.transaction, Connection: name, Outcome: "skipped"})
			continue
		}
		tried++
		answer, err := c.Exchange(ctx, request)
		if err == nil && !UnableToRespond(answer) {
			b.success()
			rec.tried(name, true)
			f.observe(RouteEvent{Transaction: f.transaction, Connection: name, Outcome: "answered"})
			return answer, nil
		}
		if ctx.Err() != nil || (err != nil && !failsOver(err)) {
			b.release()
			rec.tried(name, true)
			f.observe(RouteEvent{Transaction: f.transaction, Connection: name, Outcome: "refused"})
			return nil, err
		}
		opened := b.failure(f.now())
		rec.tried(name, false)
		f.observe(RouteEvent{Transaction: f.transaction, Connection: name, Outcome: "failover", BreakerOpen: opened})
		lastErr, lastAnswer = err, answer
	}
	if tried == 0 {
		return nil, &routesOpenError{names: f.names}
	}
	if rec != nil && len(rec.Tried) > 0 {
		rec.mu.Lock()
		rec.Answered = rec.Tried[len(rec.Tried)-1]
		rec.mu.Unlock()
	}
	if lastAnswer != nil {
		return lastAnswer, nil
	}
	return nil, lastErr
}

// failsOver reports whether err is an outage another route may cure.
func failsOver(err error) bool {
	var fo FailOverer
	if errors.As(err, &fo) {
		return fo.FailOver()
	}
	var coded ExchangeError
	if errors.As(err, &coded) {
		// A payer connection with its own codes (CAQH CORE): a refused
		// payload or key is no outage.
		switch coded.ErrorCode() {
		case "PayloadIllegal", "UnAuthorized", "VersionMismatch":
			return false
		}
		return true
	}
	// Connections without codes: errors of the network or the time limit.
	return !errors.Is(err, ErrNoMockMatch) && !errors.Is(err, ErrInvalidInquiry)
}

// UnableToRespond reports whether an X12 answer holds an AAA segment with
// reject reason 42 ("Unable to Respond at Current Time"): the payer, or
// the way to it, is down, and another route may answer.
func UnableToRespond(answer []byte) bool {
	if len(answer) < 106 || !bytes.HasPrefix(answer, []byte("ISA")) {
		return false
	}
	el, term := answer[3], answer[105]
	for _, seg := range bytes.Split(answer, []byte{term}) {
		seg = bytes.TrimSpace(seg)
		if !bytes.HasPrefix(seg, []byte{'A', 'A', 'A', el}) {
			continue
		}
		if f := bytes.Split(seg, []byte{el}); len(f) > 3 && string(f[3]) == "42" {
			return true
		}
	}
	return false
}

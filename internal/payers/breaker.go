package payers

import (
	"sync"
	"time"
)

// Breaker is the circuit breaker of one route (one connection) for one
// tenant (account and mode; see breakerSet): after
// Failures outages in a row it opens and the route is skipped for OpenFor;
// then one request probes it (half-open): success closes it, failure opens
// it again. Safe for concurrent use.
type Breaker struct {
	Failures int
	OpenFor  time.Duration

	mu          sync.Mutex
	consecutive int
	openUntil   time.Time
	open        bool
	probing     bool
}

// Breaker defaults: three outages in a row open a route for 30 seconds.
const (
	DefaultBreakerFailures = 3
	DefaultBreakerOpenFor  = 30 * time.Second
)

// Breaker states, as State reports them (and metrics label them).
const (
	BreakerClosed   = "closed"
	BreakerOpen     = "open"
	BreakerHalfOpen = "half-open"
)

// allow reports whether a request may use the route now; an open breaker
// whose time is up lets exactly one probe through.
func (b *Breaker) allow(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case !b.open:
		return true
	case now.Before(b.openUntil) || b.probing:
		return false
	}
	b.probing = true
	return true
}

func (b *Breaker) success() {
	b.mu.Lock()
	b.consecutive, b.open, b.probing = 0, false, false
	b.mu.Unlock()
}

// failure counts an outage; it reports whether the breaker opened now.
func (b *Breaker) failure(now time.Time) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.consecutive++
	limit := b.Failures
	if limit <= 0 {
		limit = DefaultBreakerFailures
	}
	if !b.probing && b.consecutive < limit {
		return false
	}
	openFor := b.OpenFor
	if openFor <= 0 {
		openFor = DefaultBreakerOpenFor
	}
	wasOpen := b.open && !b.probing
	b.open, b.probing, b.openUntil = true, false, now.Add(openFor)
	return !wasOpen
}

// release gives back a probe that ended in neither success nor outage
// (the request was refused, or the caller went away).
func (b *Breaker) release() {
	b.mu.Lock()
	b.probing = false
	b.mu.Unlock()
}

// State is closed, open or half-open (open, but its time is up).
func (b *Breaker) State(now time.Time) string {
	b.mu.Lock()
	defer b.mu.Unlock()
	switch {
	case !b.open:
		return BreakerClosed
	case now.Before(b.openUntil) && !b.probing:
		return BreakerOpen
	}
	return BreakerHalfOpen
}

// breakerSet holds the breakers of a router's connections, one per
// (account, mode, connection): a route's outages as one tenant sees them
// open it for that tenant only. A tenant whose requests make an upstream
// fail (or whose own stored connection of that name is down) must not
// stop another tenant's checks, even over a connection the operator's
// --payers file shares between them; the price is that a real outage is
// learned by each tenant with its own few failures.
type breakerSet struct {
	settings map[string]BreakerSettings

	mu sync.Mutex
	m  map[breakerKey]*Breaker
}

type breakerKey struct {
	account string
	mode    Mode
	name    string
}

// maxIdleBreakers bounds the set: past it, breakers that hold nothing
// (closed, no outage counted) are dropped when a new one is made, so
// accounts that come and go do not grow it without end.
const maxIdleBreakers = 4096

func newBreakerSet(settings map[string]BreakerSettings) *breakerSet {
	return &breakerSet{settings: settings, m: map[breakerKey]*Breaker{}}
}

// get returns the caller's breaker of connection name, made on first use.
// An exchange without a caller (no account: tools, tests) shares the
// breaker of the empty caller.
func (s *breakerSet) get(c Caller, name string) *Breaker {
	k := breakerKey{c.AccountID, c.Mode, name}
	s.mu.Lock()
	defer s.mu.Unlock()
	if b, ok := s.m[k]; ok {
		return b
	}
	if len(s.m) >= maxIdleBreakers {
		for key, b := range s.m {
			if b.idle() {
				delete(s.m, key)
			}
		}
	}
	set := s.settings[name]
	b := &Breaker{Failures: set.Failures, OpenFor: set.OpenFor}
	s.m[k] = b
	return b
}

// state is the caller's breaker state for name, closed when it has none.
func (s *breakerSet) state(c Caller, name string, now time.Time) string {
	s.mu.Lock()
	b, ok := s.m[breakerKey{c.AccountID, c.Mode, name}]
	s.mu.Unlock()
	if !ok {
		return BreakerClosed
	}
	return b.State(now)
}

// idle reports whether the breaker holds no state (closed, nothing
// counted), so dropping it changes nothing.
func (b *Breaker) idle() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return !b.open && !b.probing && b.consecutive == 0
}

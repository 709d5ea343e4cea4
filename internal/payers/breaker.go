package payers

import (
	"sync"
	"time"
)

// Breaker is the circuit breaker of one route (one connection): after
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

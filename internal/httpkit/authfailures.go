package httpkit

import (
	"math"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Failed authentications (a missing, malformed, unknown or revoked key)
// allowed per source address: a burst, then a steady rate. Past them the
// address is answered 429 before any key is looked at, so guessing keys,
// or a flood of made-up ones, costs the server little and gets nowhere.
const (
	authFailureBurst = 30
	authFailureRate  = 2.0 // per second
	// maxFailureAddresses bounds the table; addresses whose budget has
	// refilled are dropped first.
	maxFailureAddresses = 100_000
)

// budget is one address's failures left, refilled over time.
type budget struct {
	tokens float64
	last   time.Time
}

// AuthFailures is a token bucket per source address (IPv6 by /64: one
// host holds a whole /64), spent by failed authentications only. The API
// has one; the console's sign-in form another.
type AuthFailures struct {
	mu      sync.Mutex
	buckets map[string]*budget
}

// NewAuthFailures makes an empty table.
func NewAuthFailures() *AuthFailures { return &AuthFailures{buckets: map[string]*budget{}} }

// SourceOf is the address a request's failures are counted against: the
// peer's IP (a proxy's forwarding headers can be forged, so they are not
// read), an IPv6 one cut to its /64.
func SourceOf(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	ip := net.ParseIP(host)
	if ip == nil {
		return host
	}
	if ip.To4() == nil {
		return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
	}
	if strings.IndexByte(host, ':') < 0 {
		// A dotted quad ParseIP takes (no leading zeros, no other form)
		// is already what String would make of it: no copy.
		return host
	}
	return ip.String()
}

// refill brings b up to now.
func (b *budget) refill(now time.Time) {
	b.tokens = math.Min(authFailureBurst, b.tokens+now.Sub(b.last).Seconds()*authFailureRate)
	b.last = now
}

// Blocked says whether addr has spent its failures, and for how long.
func (l *AuthFailures) Blocked(addr string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[addr]
	if !ok {
		return false, 0
	}
	b.refill(now)
	if b.tokens >= 1 {
		return false, 0
	}
	return true, time.Duration((1 - b.tokens) / authFailureRate * float64(time.Second))
}

// Failed spends one of addr's failures.
func (l *AuthFailures) Failed(addr string, now time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[addr]
	if !ok {
		if len(l.buckets) >= maxFailureAddresses {
			for a, old := range l.buckets {
				if old.refill(now); old.tokens >= authFailureBurst {
					delete(l.buckets, a)
				}
			}
		}
		if len(l.buckets) >= maxFailureAddresses {
			return // full of addresses failing right now: this one goes uncounted
		}
		b = &budget{tokens: authFailureBurst, last: now}
		l.buckets[addr] = b
	}
	b.refill(now)
	b.tokens = math.Max(b.tokens-1, 0)
}

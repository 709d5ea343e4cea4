package api

import (
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// keyLimiter is a token bucket per API key: each key may make rate
// requests per second on average and burst at once. Limits are per
// process: behind N replicas a key gets up to N times the rate.
type keyLimiter struct {
	rate, burst float64
	mu          sync.Mutex
	buckets     map[string]*bucket // by key id; bounded by the keys that exist
}

type bucket struct {
	tokens float64
	last   time.Time
}

func newKeyLimiter(rate float64, burst int) *keyLimiter {
	if rate <= 0 {
		return nil
	}
	return &keyLimiter{rate: rate, burst: math.Max(float64(burst), 1), buckets: map[string]*bucket{}}
}

// allow takes a token for key, or says how long until one is available.
func (l *keyLimiter) allow(key string, now time.Time) (bool, time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.buckets[key]
	if !ok {
		b = &bucket{tokens: l.burst, last: now}
		l.buckets[key] = b
	}
	b.tokens = math.Min(l.burst, b.tokens+now.Sub(b.last).Seconds()*l.rate)
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / l.rate * float64(time.Second))
}

// tooManyRequests answers 429 with Retry-After in whole seconds.
func tooManyRequests(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	secs := int(math.Ceil(wait.Seconds()))
	w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	WriteError(w, r, Errorf(http.StatusTooManyRequests, CodeTooManyRequests,
		"Too many requests for this API key; retry after %d s.", max(secs, 1)))
}

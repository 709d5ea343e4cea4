package api_test

import (
	"net/http"
	"testing"

	"github.com/clearhouse/clearhouse/internal/api"
)

// TestRateLimitPerKey: past its burst a key gets 429 TOO_MANY_REQUESTS with
// Retry-After, while another key is unaffected. Before, nothing limited a key.
func TestRateLimitPerKey(t *testing.T) {
	t.Parallel()
	f := newFixture(t, api.Options{RateLimit: 0.5, RateBurst: 2})
	for i := range 2 {
		if rec := f.do("GET", "/2024-04-01/usage", f.keyA, nil); rec.Code != 200 {
			t.Fatalf("request %d within the burst: %d %s", i+1, rec.Code, rec.Body)
		}
	}
	rec := f.do("GET", "/2024-04-01/usage", f.keyA, nil)
	wantError(t, rec, http.StatusTooManyRequests, api.CodeTooManyRequests)
	if ra := rec.Header().Get("Retry-After"); ra != "2" {
		t.Errorf("Retry-After %q, want 2 (one token at 0.5/s)", ra)
	}
	if rec := f.do("GET", "/2024-04-01/usage", f.keyB, nil); rec.Code != 200 {
		t.Errorf("another key: %d", rec.Code)
	}
	off := newFixture(t, api.Options{})
	for range 5 {
		if rec := off.do("GET", "/2024-04-01/usage", off.keyA, nil); rec.Code != 200 {
			t.Fatalf("no limit configured: %d", rec.Code)
		}
	}
}

package api_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestUnknownKeysAreRateLimitedPerAddress: an address sending made-up keys
// gets 401s for a burst, then 429 with Retry-After for every request
// (before, every made-up key was answered 401 at full speed, each a
// database read); other addresses are not affected.
func TestUnknownKeysAreRateLimitedPerAddress(t *testing.T) {
	t.Parallel()
	st := storetest.SQLite(t)
	key, _, err := auth.CreateKey(context.Background(), st, "Acme", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	srv := apptest.New(t, apptest.Options{Store: st}).API
	call := func(addr, key string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("GET", "/2023-08-01/executions", nil)
		req.RemoteAddr = addr
		req.Header.Set("Authorization", key)
		w := httptest.NewRecorder()
		srv.ServeHTTP(w, req)
		return w
	}
	const attacker, neighbour = "198.51.100.7:4000", "[2001:db8::1]:4000"
	made := "test_01m8aaaaaaaaaaaaaaaaaaaaaa_" + "x0x0x0x0x0x0x0x0x0x0x0x0x0x0x0x0"
	statuses := map[int]int{}
	for range 100 {
		statuses[call(attacker, made).Code]++
	}
	if statuses[401] < 20 || statuses[401] > 40 || statuses[429] < 60 {
		t.Fatalf("100 made-up keys from one address: %v; want a burst of 401s, then 429s", statuses)
	}
	w := call(attacker, key)
	if w.Code != http.StatusTooManyRequests || w.Header().Get("Retry-After") == "" {
		t.Errorf("a valid key from the blocked address: %d %s", w.Code, w.Body)
	}
	if w := call("198.51.100.8:4000", key); w.Code != 200 {
		t.Errorf("a valid key from another address: %d %s", w.Code, w.Body)
	}
	// IPv6 addresses count by /64.
	for range 40 {
		call(neighbour, "Key nope")
	}
	if w := call("[2001:db8::2]:5000", key); w.Code != http.StatusTooManyRequests {
		t.Errorf("a valid key from the same /64: %d", w.Code)
	}
}

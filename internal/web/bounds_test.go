package web

import (
	"net/http"
	"strings"
	"testing"
)

// TestQueryValuesAreBounded: a list filter's value is shown back in the
// page's form, so a crafted link could make a page echo hundreds of
// kilobytes; a value past the bound is refused in plain words, without the
// value, and one within it still filters.
func TestQueryValuesAreBounded(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.partneredKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)
	huge := strings.Repeat("A", 300<<10)
	for _, tc := range []struct {
		path   string
		status int
	}{
		{"/files?name=" + huge, http.StatusBadRequest},
		{"/checks?payer=" + huge, http.StatusBadRequest},
		{"/files?name=" + strings.Repeat("A", 2100), http.StatusBadRequest},
		{"/files?" + strings.Repeat("status=&", 1200), http.StatusBadRequest}, // short values, a long address
		{"/files?name=" + strings.Repeat("A", 150), http.StatusOK},
		{"/files?name=0102", http.StatusOK},
	} {
		resp := b.get(tc.path)
		name := tc.path[:min(len(tc.path), 40)]
		if resp.StatusCode != tc.status {
			t.Errorf("%s… (%d bytes): %d, want %d", name, len(tc.path), resp.StatusCode, tc.status)
			continue
		}
		if tc.status == http.StatusBadRequest {
			if len(resp.Body) > 64<<10 || strings.Contains(resp.Body, strings.Repeat("A", 100)) {
				t.Errorf("%s…: the refusal echoes the value (%d bytes)", name, len(resp.Body))
			}
			wantContains(t, name, visible(resp.Body), "too long", "Shorten it")
		}
	}
}

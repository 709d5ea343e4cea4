package web

import (
	"net/http"
	"net/url"
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

// TestUploadNameWithControlCharacter: a file name with a NUL makes the
// form's part header unreadable (Go's MIME reader refuses it), and with it
// the form's token; the upload is refused for its name, not as an expired
// form.
func TestUploadNameWithControlCharacter(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.partneredKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)
	for _, name := range []string{"remit\x00.x12", "remit\x01.x12"} {
		page := b.get("/files/upload")
		resp := b.postFile(b.csrf(page.Body), name, "ISA*00*")
		if resp.StatusCode != http.StatusBadRequest {
			t.Errorf("%q: %d, want 400", name, resp.StatusCode)
		}
		text := visible(resp.Body)
		wantContains(t, url.QueryEscape(name), text, "name contains a character that cannot be sent", "Rename the file")
		if strings.Contains(text, "expired") {
			t.Errorf("%q: refused as an expired form:\n%s", name, text)
		}
	}
}

package api_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// TestDownloadsAreInert: an upload whose name makes it markup (.xml, .html,
// .svg) is served by its signed link as a sandboxed attachment of a type
// from the fixed list, never as markup a browser would run.
func TestDownloadsAreInert(t *testing.T) {
	t.Parallel()
	f := newFilesServer(t)
	script := `<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><script>fetch("/checks")</script></html>`
	for _, tc := range []struct{ name, wantType string }{
		{"evil.xml", "application/octet-stream"},
		{"evil.html", "application/edi-x12"}, // unknown extensions are X12 files
		{"evil.svg", "application/edi-x12"},
		{"remit.csv", "text/csv"},
		{"data.json", "application/json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ex := f.upload(tc.name, script)
			id := ex["executionId"].(string)
			resp, body := f.call("GET", "/2023-08-01/executions/"+id+"/input", f.key, "", false)
			var redirect struct {
				URL string `json:"documentDownloadUrl"`
			}
			if resp.StatusCode != http.StatusFound || json.Unmarshal(body, &redirect) != nil {
				t.Fatalf("input: %d %s", resp.StatusCode, body)
			}
			resp, body = f.call("GET", strings.TrimPrefix(redirect.URL, f.url), "", "", false)
			if resp.StatusCode != 200 || string(body) != script {
				t.Fatalf("download: %d %q", resp.StatusCode, body)
			}
			h := resp.Header
			for name, want := range map[string]string{
				"Content-Type":            tc.wantType,
				"X-Content-Type-Options":  "nosniff",
				"Content-Security-Policy": "sandbox; default-src 'none'",
			} {
				if got := h.Get(name); got != want {
					t.Errorf("%s: %q, want %q", name, got, want)
				}
			}
			if cd := h.Get("Content-Disposition"); !strings.HasPrefix(cd, `attachment; filename="executions-`+id+`-input.`) {
				t.Errorf("Content-Disposition: %q", cd)
			}
		})
	}
}

// TestSecurityHeadersOnEveryAnswer: API answers (success, error, 404, the
// public health check) carry nosniff and a CSP that runs and frames nothing.
func TestSecurityHeadersOnEveryAnswer(t *testing.T) {
	t.Parallel()
	f := newFilesServer(t)
	for _, tc := range []struct{ method, path, key string }{
		{"GET", "/2023-08-01/executions", f.key},
		{"GET", "/2023-08-01/executions/nope", f.key},
		{"GET", "/2023-08-01/executions", ""},
		{"GET", "/no/such/route", ""},
		{"GET", "/healthz", ""},
		{"GET", "/downloads/forged.token", ""},
	} {
		resp, _ := f.call(tc.method, tc.path, tc.key, "", false)
		csp := resp.Header.Get("Content-Security-Policy")
		if resp.Header.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(csp, "default-src 'none'") ||
			!strings.Contains(csp, "frame-ancestors 'none'") {
			t.Errorf("%s %s (%d): nosniff %q, CSP %q", tc.method, tc.path, resp.StatusCode,
				resp.Header.Get("X-Content-Type-Options"), csp)
		}
	}
}

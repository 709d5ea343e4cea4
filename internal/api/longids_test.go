package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestLongIDsAreEchoedBriefly: a 404 names the id it could not find, and
// an id in the path may be most of a megabyte (the header limit). Before,
// the answer echoed all of it (600 KB for a partnership's setting, whose
// two ids are both echoed); now a message is at most 2 KiB.
func TestLongIDsAreEchoedBriefly(t *testing.T) {
	t.Parallel()
	srv, key := testKeyAPI(t)
	long := strings.Repeat("é", 150_000) // 300 KB, cut inside a character
	for _, path := range []string{
		"/2023-08-01/events/" + long,
		"/2023-08-01/webhooks/" + long,
		"/2023-08-01/transactions/" + long,
		"/2023-08-01/executions/" + long + "/input",
		"/2024-04-01/eligibility-checks/" + long,
		"/2024-04-01/practice/billing-providers/" + long,
		"/2023-08-01/x12/profiles/" + long,
		"/2023-08-01/x12/partnerships/" + long + "/inbound-transactions/" + long,
		"/2024-04-01/change/medicalnetwork/reports/v2/" + long + "/835",
	} {
		req := httptest.NewRequest("GET", "/", nil)
		req.URL.Path = path
		req.Header.Set("Authorization", key)
		rec := httptest.NewRecorder()
		srv.ServeHTTP(rec, req)
		var out struct{ Code, Message string }
		if err := json.Unmarshal(rec.Body.Bytes(), &out); err != nil {
			t.Fatalf("%.60s: %d: %v", path, rec.Code, err)
		}
		if rec.Code != 404 || out.Code != "NOT_FOUND" {
			t.Errorf("%.60s: %d %s, want 404 NOT_FOUND", path, rec.Code, out.Code)
		}
		if len(out.Message) > 2048 || !strings.HasSuffix(out.Message, "…") || !strings.Contains(out.Message, "éé") {
			t.Errorf("%.60s: message of %d bytes: %.100s…", path, len(out.Message), out.Message)
		}
		if rec.Body.Len() > 4096 {
			t.Errorf("%.60s: answer of %d bytes", path, rec.Body.Len())
		}
	}
}

// testKeyAPI is the API on SQLite and a test key of a new account.
func testKeyAPI(t *testing.T) (http.Handler, string) {
	t.Helper()
	st := storetest.SQLite(t)
	key, _, err := auth.CreateKey(context.Background(), st, "Acme", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	return apptest.New(t, apptest.Options{Store: st, Secrets: true}).API, key
}

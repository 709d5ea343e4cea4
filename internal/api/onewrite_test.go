package api_test

import (
	"context"
	"io"
	"net/http"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestCheckAnswerIsOneWrite: through the whole middleware (request id,
// key, audit, access log), a check's 12–16 KB answer leaves the server in
// one write(2) — not net/http's two (its 4 KB connection buffer, then the
// rest) — and so does a short error answer. A route on the same
// keep-alive connection reads the connection's count before and after.
func TestCheckAnswerIsOneWrite(t *testing.T) {
	st := storetest.SQLite(t)
	ctx := context.Background()
	key, rec, err := auth.CreateKey(ctx, st, "Acme", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := claimstest.SetupMockPartners(ctx, st, rec.AccountID, store.ModeTest, "52133", "62308", "87726"); err != nil {
		t.Fatal(err)
	}
	writes := api.Route{Pattern: "GET /test/conn-writes", Public: true, Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, ok := httpkit.ConnWrites(r)
		if !ok {
			n = -1
		}
		w.Write([]byte(strconv.Itoa(n)))
	})}
	hs := apptest.New(t, apptest.Options{Store: st, API: api.Options{ExtraRoutes: []api.Route{writes}}})
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	defer client.CloseIdleConnections()
	do := func(req *http.Request) (int, []byte) {
		t.Helper()
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		return resp.StatusCode, body
	}
	count := func() int {
		t.Helper()
		req, _ := http.NewRequest("GET", hs.URL+"/test/conn-writes", nil)
		_, body := do(req)
		n, err := strconv.Atoi(string(body))
		if err != nil || n < 0 {
			t.Fatalf("conn-writes answered %q: the server's connections are not one-write", body)
		}
		return n
	}
	type call struct {
		name   string
		body   []byte
		status int
	}
	var calls []call
	for _, m := range mockpayer.Requests() {
		if slices.Contains(benchMocks, m.Name) {
			calls = append(calls, call{m.Name, m.RequestJSON(), http.StatusOK})
		}
	}
	calls = append(calls, call{"not JSON (an error answer)", []byte("{"), http.StatusBadRequest})
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			before := count() // also opens the connection the check reuses
			status, body := do(jsonRequest(hs.URL+eligibilityPath, key, c.body))
			if status != c.status {
				t.Fatalf("status %d: %s", status, body)
			}
			// count()'s own answer is one write, made after it counted.
			if n := count() - before - 1; n != 1 {
				t.Errorf("a %d-byte answer took %d write(2) calls, want 1", len(body), n)
			}
		})
	}
}

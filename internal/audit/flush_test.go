package audit_test

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// noFlush wraps a ResponseWriter as the API's access-log writer does: no
// Flush of its own, only Unwrap (http.ResponseController goes through it).
type noFlush struct{ http.ResponseWriter }

func (n noFlush) Unwrap() http.ResponseWriter { return n.ResponseWriter }

// TestFlushReachesTheConnection: a handler's flush through
// http.ResponseController commits the entry, then sends what was written
// so far down to net/http's writer, also through a wrapper that has no
// Flush itself (the API's access-log writer). Before, Flush stopped at
// that wrapper and nothing was sent until the handler returned.
func TestFlushReachesTheConnection(t *testing.T) {
	st := storetest.SQLite(t)
	rec := audit.New(st, nil)
	for _, tc := range []struct {
		name string
		rule audit.Rule
	}{
		{"id from a header", audit.Rule{Action: audit.ActionCreate, ResourceType: audit.ResourceEligibilityCheck, IDHeader: "X-Id"}},
		{"id from the body (held until the entry commits)", audit.Rule{Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true}},
		{"a list", audit.Rule{Action: audit.ActionList, ResourceType: audit.ResourceClaim}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			acct, _ := storetest.Seed(t, st, store.ModeTest)
			caller := func(*http.Request) (string, string, string, string, bool) {
				return acct.ID, store.ModeTest, audit.ActorAPIKey, "k1", true
			}
			out := httptest.NewRecorder()
			var flushed bool
			var sent string
			var entries int
			h := rec.Wrap(tc.rule, caller, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) },
				http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("X-Id", "c1")
					w.WriteHeader(http.StatusOK)
					w.Write([]byte(`{"id":"c1"`))
					if err := http.NewResponseController(w).Flush(); err != nil {
						t.Errorf("flush: %v", err)
					}
					flushed, sent = out.Flushed, out.Body.String()
					events, _, err := st.ListAuditEvents(context.Background(), acct.ID, store.AuditFilter{})
					if err != nil {
						t.Fatal(err)
					}
					entries = len(events)
					w.Write([]byte(`}`))
				}))
			h.ServeHTTP(noFlush{out}, httptest.NewRequest("GET", "/x", nil))
			if !flushed || sent != `{"id":"c1"` || entries != 1 {
				t.Errorf("at the flush: flushed %v, sent %q, %d entries; want true, the bytes so far, 1", flushed, sent, entries)
			}
			if out.Code != http.StatusOK || out.Body.String() != `{"id":"c1"}` {
				t.Errorf("answer %d %q", out.Code, out.Body.String())
			}
		})
	}
}

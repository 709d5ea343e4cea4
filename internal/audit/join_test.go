package audit_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// TestJoinRecordsOnce: an entry the handler commits in its own transaction
// (audit.Join) is not recorded again by Wrap; one whose transaction rolled
// back, or whose answer differs from what was recorded, is recorded by
// Wrap as usual, so no answer leaves without its entry.
func TestJoinRecordsOnce(t *testing.T) {
	st := storetest.SQLite(t)
	rec := audit.New(st, nil)
	rule := audit.Rule{Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true}
	fail := errors.New("rolled back")
	cases := []struct {
		name     string
		commit   error // what the handler's transaction returns
		recorded int   // the status the handler's transaction records
		answer   int   // the status the handler answers
		want     []int // the statuses of the entries, oldest first
	}{
		{"committed with the claim", nil, 200, 200, []int{200}},
		{"rolled back, answered 503", fail, 200, 503, []int{503}},
		{"committed, then answered otherwise", nil, 200, 500, []int{200, 500}},
	}
	for i, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			id := "claim-" + string(rune('a'+i))
			acct, _ := storetest.Seed(t, st, store.ModeTest) // one account (one chain) per case
			caller := func(*http.Request) (string, string, string, string, bool) {
				return acct.ID, store.ModeTest, audit.ActorAPIKey, "k1", true
			}
			h := rec.Wrap(rule, caller, func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(503) },
				http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					j := audit.Join(r.Context())
					if j == nil {
						t.Fatal("no audit entry to join")
					}
					err := st.GroupInTx(r.Context(), func(tx store.Queries) error {
						if err := j.Record(r.Context(), tx, tc.recorded, id); err != nil {
							return err
						}
						return tc.commit
					})
					j.Committed(err == nil)
					w.WriteHeader(tc.answer)
					w.Write([]byte(`{"claimReference":{"correlationId":"` + id + `"}}`))
				}))
			h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("POST", "/claims", nil))
			events, _, err := st.ListAuditEvents(context.Background(), acct.ID, store.AuditFilter{})
			if err != nil {
				t.Fatal(err)
			}
			var got []int
			for i := len(events) - 1; i >= 0; i-- {
				got = append(got, events[i].Status)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("entries with statuses %v, want %v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("entries with statuses %v, want %v", got, tc.want)
				}
			}
			if _, err := audit.Verify(context.Background(), st, acct.ID); err != nil {
				t.Fatal(err)
			}
		})
	}
}

package api

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// BenchmarkCheckKeyAndAudit is what an eligibility check pays in the API's
// wrappers and /healthz does not: the API key check (its cache, the
// failure table, the key's last use, a rate limit) and the audit
// recorder's wrapping of the handler, around a handler that records the
// entry as the check's transaction does (Join: the entry is built and
// hashed, its two statements are left out) and answers with a header and
// a status only.
func BenchmarkCheckKeyAndAudit(b *testing.B) {
	st := storetest.SQLite(b)
	srv := newInternalServer(b, st)
	srv.limiter = newKeyLimiter(1e9, 1e9)
	key, _, err := auth.CreateKey(context.Background(), st, "Bench", auth.ModeTest, "", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	const eligibilityCheckPath = "/2024-04-01/change/medicalnetwork/eligibility/v3"
	rule := auditRules["POST "+eligibilityCheckPath]
	h := srv.requireKey(srv.recorder.Wrap(rule, apiCaller, auditUnavailable, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		j := audit.Join(r.Context())
		if err := j.Record(r.Context(), noAuditSQL{}, 200, "check-1"); err != nil {
			b.Fatal(err)
		}
		j.Committed(true)
		w.Header().Set("X-Eligibility-Check-Id", "check-1")
		w.WriteHeader(200)
	})))
	r := httptest.NewRequest("POST", eligibilityCheckPath, nil)
	r.Header.Set("Authorization", "Key "+key)
	r = r.WithContext(httpkit.WithInfo(r.Context(), &httpkit.Info{ID: "req"}))
	w := httptest.NewRecorder()
	b.ReportAllocs()
	for b.Loop() {
		clear(w.Header())
		h.ServeHTTP(w, r)
	}
	if w.Code != 200 {
		b.Fatal(w.Code, w.Body.String())
	}
}

// noAuditSQL is a transaction whose audit statements do nothing.
type noAuditSQL struct{ store.Queries }

func (noAuditSQL) LockAuditChain(context.Context, string) (int64, string, error) { return 0, "", nil }
func (noAuditSQL) AppendAuditEvent(context.Context, store.AuditEvent) error      { return nil }

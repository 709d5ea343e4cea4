package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// phiWords are a member's data that a failing upstream echoes (phiEcho).
var phiWords = []string{"PHIMEMBER77", "Phiona", "Secretson", "19710101"}

// phiEcho is an upstream that fails and, as real ones do, quotes the
// request's member back in its error message and body.
func phiEcho(code int) func(http.ResponseWriter, *http.Request) {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(code)
		w.Write([]byte(`{"code":"X","message":"subscriber Phiona Secretson (member PHIMEMBER77, born 19710101) was not found",` +
			`"x12":"NM1*IL*1*SECRETSON*PHIONA****MI*PHIMEMBER77~DMG*D8*19710101~"}`))
	}
}

// TestFailingUpstreamLogsNoPHI drives each path that logs an upstream's
// failure — a claim failing over, a claim whose outcome is unknown, a
// poll, a routed eligibility check, and what the delivery job logs of the
// error it is handed — against an upstream that echoes a member's data in
// its error, and checks the log names the connection, the step and the
// status but holds none of that data.
func TestFailingUpstreamLogsNoPHI(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name string
		code int
		run  func(t *testing.T, w *claimWorld, up *fakeUpstream, conn store.Connection, log *slog.Logger) string
		want []string // in the log
	}{
		{"claim fails over", http.StatusInternalServerError, func(t *testing.T, w *claimWorld, up *fakeUpstream, conn store.Connection, log *slog.Logger) string {
			w.d.Logger = log
			w.connect(t, w.account, "up-c", newFakeUpstream(t), "2s")
			w.routes = []string{"up-b", "up-c"}
			if _, via, err := w.d.DeliverRouted(ctx, w.file(conn, "ex-phi-1")); err != nil || via.ID != "up-c" {
				t.Fatalf("via %q, %v", via.ID, err)
			}
			return ""
		}, []string{"claim not accepted", `"connection":"up-b"`, "ServerError (HTTP 500)", `"execution":"ex-phi-1"`}},
		{"claim outcome unknown", http.StatusGatewayTimeout, func(t *testing.T, w *claimWorld, up *fakeUpstream, conn store.Connection, log *slog.Logger) string {
			w.d.Logger = log
			_, _, err := w.d.DeliverRouted(ctx, w.file(conn, "ex-phi-2"))
			if err == nil || !strings.Contains(err.Error(), "PHIMEMBER77") {
				// The error itself (stored on the file for its own account)
				// keeps the upstream's words; only the log must not.
				t.Fatalf("err = %v, want the upstream's message in the error", err)
			}
			// What the delivery job logs of the error it gets back.
			log.Warn("delivery: attempt failed; trying again", logsafe.Error(err))
			return ""
		}, []string{"outcome unknown", "HTTP 504"}},
		{"poll", http.StatusBadGateway, func(t *testing.T, w *claimWorld, up *fakeUpstream, conn store.Connection, log *slog.Logger) string {
			q := jobs.New(w.st, jobs.Options{})
			p := &Poller{Store: w.st, Jobs: q, Delivery: w.d, Logger: log, Now: time.Now}
			p.Register()
			if err := p.Ensure(ctx); err != nil {
				t.Fatal(err)
			}
			cur, err := w.st.GetUpstreamCursor(ctx, w.account, store.ModeProduction, conn.ID)
			if err != nil {
				t.Fatal(err)
			}
			job, err := w.st.GetJob(ctx, cur.JobID)
			if err != nil {
				t.Fatal(err)
			}
			// Run outside the queue, the job cannot complete itself; the
			// poll and its log line come first.
			_ = p.handle(ctx, job)
			return ""
		}, []string{"poll failed", "upstream connection up-b: poll: ServerError (HTTP 502)"}},
		{"eligibility check over two routes", http.StatusServiceUnavailable, func(t *testing.T, w *claimWorld, up *fakeUpstream, conn store.Connection, log *slog.Logger) string {
			dir, _ := payers.Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["up-b", "up-c"]}}]}`))
			w.connect(t, w.account, "up-c", up, "2s") // the same upstream: the last error quotes the member too
			r, err := payers.NewRouter(dir, payers.ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return nil, nil }),
				map[string]payers.Connection{"up-b": &AccountRoute{Name: "up-b", Delivery: w.d}, "up-c": &AccountRoute{Name: "up-c", Delivery: w.d}})
			if err != nil {
				t.Fatal(err)
			}
			route, _ := r.Route(payers.ModeProduction, "87726", payers.Eligibility)
			_, err = route.Connection.Exchange(payers.WithCaller(ctx, payers.Caller{AccountID: w.account, Mode: payers.ModeProduction}), []byte("ST*270*"))
			if err == nil {
				t.Fatal("no error from two failing routes")
			}
			// What the eligibility and claim status services log of it.
			log.Warn("eligibility: payer connection gave no answer", "payer", "87726", logsafe.Error(err))
			return ""
		}, []string{"gave no answer", "upstream connection up-c: eligibility: ServerError (HTTP 503)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newClaimWorld(t)
			up := newFakeUpstream(t)
			up.set(phiEcho(tt.code))
			settings, _ := json.Marshal(StoredSettings{URL: up.srv.URL + "/2024-04-01", CoreURL: up.srv.URL + "/2023-08-01", Timeout: "2s"})
			conn := store.Connection{ID: "up-b", AccountID: w.account, Mode: store.ModeProduction, Type: store.ConnectionClearinghouseAPI,
				Settings: settings, CreatedAt: time.Now(), UpdatedAt: time.Now()}
			sealStoredSecrets(t, w, &conn, map[string]string{"apiKey": "key-up-b-secret"})
			if err := w.st.CreateConnection(ctx, conn); err != nil {
				t.Fatal(err)
			}
			var logs bytes.Buffer
			tt.run(t, w, up, conn, slog.New(slog.NewJSONHandler(&logs, nil)))
			got := logs.String()
			for _, want := range tt.want {
				if !strings.Contains(got, want) {
					t.Errorf("log lacks %q:\n%s", want, got)
				}
			}
			for _, bad := range append(phiWords, strings.ToUpper(phiWords[1]), "key-up-b-secret", "was not found") {
				if strings.Contains(got, bad) {
					t.Errorf("log holds %q:\n%s", bad, got)
				}
			}
		})
	}
}

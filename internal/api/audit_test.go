package api

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// routesWithoutPHI are the authenticated routes that need no audit entry:
// they serve configuration and usage counts, never patient data. A route
// that is neither here nor in auditRules fails TestEveryPHIRouteIsAudited.
var routesWithoutPHI = []string{
	"GET /2024-04-01/usage",
	"GET /2023-08-01/events/{eventId}/deliveries",
	"/2023-08-01/webhooks",    // prefix: webhooks, their secrets and attempt logs
	"/2023-08-01/x12/",        // prefix: trading partners
	"/2023-08-01/connections", // prefix, should connection routes move
	"/2024-04-01/mock-payer/", // prefix: test-mode mock payer scenarios (settings, no patient data)
	"/2024-04-01/practice/",   // prefix: the practice's providers (settings, no patient data)
	"/2024-04-01/payer",       // prefix: the payer directory (/payers, /payer/{id}; no patient data)
}

type auditServer struct {
	t       *testing.T
	srv     *Server
	url     string
	store   store.Store
	key     string
	account string
	keyID   string
}

func newAuditServer(t *testing.T) *auditServer {
	t.Helper()
	ctx := context.Background()
	st := storetest.SQLite(t)
	srv := newInternalServer(t, st)
	var err error
	hs := httptest.NewServer(srv)
	t.Cleanup(hs.Close)
	a := &auditServer{t: t, srv: srv, url: hs.URL, store: st}
	var rec store.APIKey
	if a.key, rec, err = auth.CreateKey(ctx, st, "Clinic", auth.ModeTest, "", time.Now()); err != nil {
		t.Fatal(err)
	}
	a.account, a.keyID = rec.AccountID, rec.ID
	if err := claimstest.SetupMockPartners(ctx, st, rec.AccountID, store.ModeTest, "52133"); err != nil {
		t.Fatal(err)
	}
	return a
}

func (a *auditServer) do(method, path, key, body string) (*http.Response, []byte) {
	a.t.Helper()
	req, _ := http.NewRequest(method, a.url+path, strings.NewReader(body))
	req.Header.Set("Authorization", "Key "+key)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		a.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, b
}

// events returns the account's audit events about route, oldest first.
func (a *auditServer) events(route string) []store.AuditEvent {
	a.t.Helper()
	var out []store.AuditEvent
	err := a.store.ScanAuditChain(context.Background(), a.account, func(e store.AuditEvent) error {
		if route == "" || e.Route == route {
			out = append(out, e)
		}
		return nil
	})
	if err != nil {
		a.t.Fatal(err)
	}
	return out
}

// TestEveryPHIRouteIsAudited calls every route of auditRules (with ids
// that match nothing: the attempt is what must be on record) and finds its
// entry; every other authenticated route must be listed as without PHI.
func TestEveryPHIRouteIsAudited(t *testing.T) {
	t.Parallel()
	a := newAuditServer(t)
	placeholder := regexp.MustCompile(`\{[^}]+\}`)
	for _, ri := range a.srv.Routes() {
		rule, audited := auditRule(ri.Pattern)
		if !audited {
			if !ri.Public && !slices.ContainsFunc(routesWithoutPHI, func(p string) bool {
				return p == ri.Pattern || strings.HasPrefix(p, "/") && strings.Contains(ri.Pattern, " "+p)
			}) {
				t.Errorf("route %s is neither audited (auditRules in audit.go) nor listed as without PHI (routesWithoutPHI)", ri.Pattern)
			}
			continue
		}
		if ri.Public {
			t.Errorf("route %s is public: nobody to record", ri.Pattern)
			continue
		}
		method, path, _ := strings.Cut(ri.Pattern, " ")
		path = placeholder.ReplaceAllStringFunc(path, func(p string) string {
			if p == "{fragmentIndex}" {
				return "0"
			}
			return "no-such-" + strings.Trim(p, "{}")
		})
		resp, _ := a.do(method, path, a.key, "{}")
		got := a.events(ri.Pattern)
		if len(got) != 1 {
			t.Errorf("%s %s answered %d and left %d audit entries, want 1", method, path, resp.StatusCode, len(got))
			continue
		}
		e := got[0]
		wantID := ""
		switch {
		case rule.IDParam != "":
			wantID = "no-such-" + rule.IDParam
		case rule.IDHeader != "":
			wantID = resp.Header.Get(rule.IDHeader) // a refused check is in the history too
		}
		if e.Action != rule.Action || e.ResourceType != rule.ResourceType || e.ResourceID != wantID || e.Status != resp.StatusCode ||
			e.ActorType != audit.ActorAPIKey || e.ActorID != a.keyID || e.Mode != store.ModeTest || e.RemoteAddr == "" {
			t.Errorf("%s %s: entry %+v, want %s %s %q status %d by key %s", method, path, e, rule.Action, rule.ResourceType, wantID, resp.StatusCode, a.keyID)
		}
	}
	if n, err := audit.Verify(context.Background(), a.store, a.account); err != nil || n < int64(len(auditRules)) {
		t.Errorf("chain: %d events, %v; want at least %d", n, err, len(auditRules))
	}
}

// TestAuditNamesWhatWasCreatedAndRead: a check, a claim and an upload are
// recorded with the ids their answers gave, reading them back too; the
// list filters, pages, exports JSON lines (an export entry), and shows
// another account nothing.
func TestAuditNamesWhatWasCreatedAndRead(t *testing.T) {
	t.Parallel()
	a := newAuditServer(t)
	var check []byte
	for _, m := range mockpayer.Requests() {
		if m.Name == "uhc-subscriber" {
			check = m.RequestJSON()
		}
	}
	resp, _ := a.do("POST", "/2024-04-01/change/medicalnetwork/eligibility/v3", a.key, string(check))
	checkID := resp.Header.Get("X-Eligibility-Check-Id")
	claim, err := os.ReadFile("../claims/testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	_, body := a.do("POST", "/2024-04-01/dental-claims/submission", a.key, string(claim))
	var claimAnswer struct {
		ClaimReference struct{ CorrelationID string }
	}
	json.Unmarshal(body, &claimAnswer)
	_, body = a.do("POST", "/2023-08-01/files/inbound?name=a.x12", a.key, "ISA*00*")
	var upload struct{ ExecutionID string }
	json.Unmarshal(body, &upload)
	a.do("GET", "/2024-04-01/eligibility-checks/"+checkID, a.key, "")
	if checkID == "" || claimAnswer.ClaimReference.CorrelationID == "" || upload.ExecutionID == "" {
		t.Fatalf("check %q claim %q upload %q", checkID, claimAnswer.ClaimReference.CorrelationID, upload.ExecutionID)
	}
	type seen struct{ action, resource, id string }
	var got []seen
	for _, e := range a.events("") {
		got = append(got, seen{e.Action, e.ResourceType, e.ResourceID})
	}
	want := []seen{{"create", "eligibility_check", checkID}, {"create", "claim", claimAnswer.ClaimReference.CorrelationID},
		{"create", "file", upload.ExecutionID}, {"read", "eligibility_check", checkID}}
	if !slices.Equal(got, want) {
		t.Fatalf("audit entries %v, want %v", got, want)
	}

	var page struct {
		Items []struct {
			Action, ResourceType, ResourceID, ActorID, Hash, PreviousHash string
			Sequence                                                      int64
		}
		NextPageToken string
	}
	_, body = a.do("GET", "/2024-04-01/audit-events?resourceId="+checkID+"&pageSize=1", a.key, "")
	if err := json.Unmarshal(body, &page); err != nil || len(page.Items) != 1 || page.Items[0].Action != "read" || page.NextPageToken == "" ||
		page.Items[0].ActorID != a.keyID || page.Items[0].PreviousHash == "" {
		t.Fatalf("page 1: %s", body)
	}
	_, body = a.do("GET", "/2024-04-01/audit-events?resourceId="+checkID+"&pageSize=1&pageToken="+page.NextPageToken, a.key, "")
	if err := json.Unmarshal(body, &page); err != nil || len(page.Items) != 1 || page.Items[0].Action != "create" || page.Items[0].Sequence != 1 {
		t.Fatalf("page 2: %s", body)
	}
	resp, body = a.do("GET", "/2024-04-01/audit-events?action=explode", a.key, "")
	if resp.StatusCode != 400 || !strings.Contains(string(body), "/query/action") {
		t.Errorf("bad action: %d %s", resp.StatusCode, body)
	}
	resp, body = a.do("GET", "/2024-04-01/audit-events?format=jsonl", a.key, "")
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/x-ndjson" || len(lines) < 5 {
		t.Errorf("export: %d %s %q", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	if last := a.events(""); last[len(last)-1].Action != audit.ActionExport {
		t.Errorf("the export was recorded as %+v", last[len(last)-1])
	}

	other, _, err := auth.CreateKey(context.Background(), a.store, "Other", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	_, body = a.do("GET", "/2024-04-01/audit-events?resourceId="+checkID, other, "")
	if err := json.Unmarshal(body, &page); err != nil || len(page.Items) != 0 {
		t.Errorf("another account sees %s", body)
	}
	if _, err := audit.Verify(context.Background(), a.store, a.account); err != nil {
		t.Error(err)
	}
}

// TestAnswerWithheldWithoutAudit: when the audit entry cannot be stored,
// the caller gets a 503 and none of the data.
func TestAnswerWithheldWithoutAudit(t *testing.T) {
	t.Parallel()
	a := newAuditServer(t)
	storetest.FailWrites(t, a.store, "audit_events")
	resp, body := a.do("GET", "/2024-04-01/eligibility-checks", a.key, "")
	if resp.StatusCode != http.StatusServiceUnavailable || strings.Contains(string(body), "items") {
		t.Errorf("list without an audit entry: %d %s", resp.StatusCode, body)
	}
}

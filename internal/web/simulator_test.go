package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

const consoleScenario = `scenarios:
  - name: console-hdhp
    match: {payerId: 87726, memberId: UHC123456}
    eligibility:
      benefits:
        planName: CONSOLE HDHP
        deductibles: [{amount: 2500, remaining: 1500}]
`

// The simulator page shows, replaces (asking first when a file is there)
// and resets (asking first) the account's test-mode scenarios; a bad file
// names its line and changes nothing; a check the scenario answered says
// so on its page; production sessions are refused.
func TestSimulatorPage(t *testing.T) {
	srv := newTestServer(t)
	key, rec := srv.key(t, "Sim Clinic", store.ModeTest)
	b := srv.browser(t)
	b.signIn(key)
	page := b.get("/simulator")
	if page.StatusCode != 200 || !strings.Contains(page.Body, `id="no-scenarios"`) || !strings.Contains(page.Body, `href="/simulator" aria-current="page"`) {
		t.Fatalf("empty page: %d %s", page.StatusCode, visible(page.Body))
	}
	csrf := b.csrf(page.Body)
	stored := func() string {
		t.Helper()
		f, err := store.ForTenant(srv.Store, store.Scope{AccountID: rec.AccountID, Mode: store.ModeTest}).MockScenarios(t.Context())
		if err != nil {
			return ""
		}
		return string(f.Body)
	}

	resp := b.post("/simulator", url.Values{"csrf": {csrf}, "body": {strings.Replace(consoleScenario, "2500", "2500.999", 1)}})
	if resp.StatusCode != 400 || !strings.Contains(visible(resp.Body), "line 7: scenarios[0].eligibility.benefits.deductibles[0].amount") || stored() != "" {
		t.Fatalf("bad file: %d %s", resp.StatusCode, visible(resp.Body))
	}
	resp = b.post("/simulator", url.Values{"csrf": {csrf}, "body": {consoleScenario}})
	if resp.StatusCode != 200 || !strings.Contains(visible(resp.Body), "Saved: 1 scenarios") || !strings.Contains(resp.Body, "<code>console-hdhp</code>") ||
		stored() != consoleScenario {
		t.Fatalf("first upload: %d %s", resp.StatusCode, visible(resp.Body))
	}
	// Replacing asks first, carrying the new text through the confirmation.
	second := strings.Replace(consoleScenario, "console-hdhp", "console-second", 1)
	resp = b.post("/simulator", url.Values{"csrf": {csrf}, "body": {second}})
	if resp.StatusCode != 200 || !strings.Contains(visible(resp.Body), "Replace the scenario file?") || stored() != consoleScenario {
		t.Fatalf("replace without confirmation: %d %s", resp.StatusCode, visible(resp.Body))
	}
	resp = b.post("/simulator", url.Values{"csrf": {csrf}, "body": {second}, "confirm": {"yes"}})
	if resp.StatusCode != 200 || strings.ReplaceAll(stored(), "\r\n", "\n") != second {
		t.Fatalf("replace: %d %q", resp.StatusCode, stored())
	}
	b.post("/simulator", url.Values{"csrf": {csrf}, "body": {consoleScenario}, "confirm": {"yes"}})

	// A check of the scenario's member says which scenario answered it.
	if resp := b.post("/checks", b.formFor("uhc-subscriber")); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("check: %d", resp.StatusCode)
	}
	checks, _, err := srv.Store.ListEligibilityChecks(t.Context(), rec.AccountID, store.EligibilityFilter{})
	if err != nil || len(checks) != 1 {
		t.Fatalf("checks %d %v", len(checks), err)
	}
	if p := b.get("/checks/" + checks[0].ID); !strings.Contains(visible(p.Body), "Simulated by scenario console-hdhp") {
		t.Errorf("check page: %d %s", p.StatusCode, visible(p.Body))
	}

	// Reset asks first, then removes the file.
	resp = b.post("/simulator/reset", url.Values{"csrf": {csrf}})
	if resp.StatusCode != 200 || !strings.Contains(visible(resp.Body), "Reset the payer simulator?") || stored() == "" {
		t.Fatalf("reset without confirmation: %d %s", resp.StatusCode, visible(resp.Body))
	}
	resp = b.post("/simulator/reset", url.Values{"csrf": {csrf}, "confirm": {"yes"}})
	if resp.StatusCode != 200 || !strings.Contains(visible(resp.Body), "Scenarios removed") || stored() != "" {
		t.Fatalf("reset: %d %s", resp.StatusCode, visible(resp.Body))
	}

	// Production has no simulator.
	live, _ := srv.key(t, "Sim Clinic", store.ModeProduction)
	pb := srv.browser(t)
	pb.signIn(live)
	if p := pb.get("/simulator"); p.StatusCode != http.StatusForbidden || strings.Contains(p.Body, `href="/simulator"`) {
		t.Errorf("production: %d", p.StatusCode)
	}
}

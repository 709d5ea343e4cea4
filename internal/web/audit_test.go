package web

import (
	"context"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// consolePagesWithoutPHI are the console's routes that show no patient
// data: sign-in, forms before anything is sent, webhooks, static files.
var consolePagesWithoutPHI = []string{
	"GET /{$}", "GET /signin", "POST /signin", "POST /signout", "GET /checks/new", "GET /payers/search",
	"GET /static/{file}", "GET /favicon.ico", "GET /keys", "GET /files/upload", "GET /claims/new",
	"/webhooks",  // prefix: webhook pages
	"/practice",  // prefix: the practice's providers (no patient data)
	"/simulator", // prefix: test-mode simulator scenarios (synthetic members; production is refused)
}

// TestConsoleAuditsPHIPages visits every console route of
// consoleAuditRules signed in (ids that match nothing: the attempt is on
// record too) and finds its entry, by the console, for the signed-in key;
// every other console route must be listed as without PHI.
func TestConsoleAuditsPHIPages(t *testing.T) {
	all := (&Console{cfg: Config{Core: &core.Service{}, Webhooks: &webhooks.Service{}}}).Routes()
	for _, rt := range all {
		if _, ok := consoleAuditRules[rt.Pattern]; !ok && !slices.ContainsFunc(consolePagesWithoutPHI, func(p string) bool {
			return p == rt.Pattern || strings.HasPrefix(p, "/") && strings.Contains(rt.Pattern, " "+p)
		}) {
			t.Errorf("console route %s is neither audited (consoleAuditRules) nor listed as without PHI", rt.Pattern)
		}
	}
	s := newEDIServer(t)
	key, rec := s.key(t, "Clinic", store.ModeTest)
	b := s.browser(t)
	b.signIn(key)
	token := b.csrf(b.get("/keys").Body)
	placeholder := regexp.MustCompile(`\{[^}]+\}`)
	for pattern, rule := range consoleAuditRules {
		method, path, _ := strings.Cut(pattern, " ")
		path = placeholder.ReplaceAllStringFunc(path, func(p string) string { return "no-such-" + strings.Trim(p, "{}") })
		var status int
		if method == "GET" {
			status = b.get(path).StatusCode
		} else {
			status = b.post(path, url.Values{"csrf": {token}}).StatusCode
		}
		var got []store.AuditEvent
		s.Store.ScanAuditChain(context.Background(), rec.AccountID, func(e store.AuditEvent) error {
			if e.Route == pattern {
				got = append(got, e)
			}
			return nil
		})
		if len(got) != 1 {
			t.Errorf("%s %s answered %d and left %d audit entries, want 1", method, path, status, len(got))
			continue
		}
		e := got[0]
		wantID := ""
		if rule.IDParam != "" {
			wantID = "no-such-" + rule.IDParam
		}
		if e.Action != rule.Action || e.ResourceType != rule.ResourceType || e.ResourceID != wantID || e.Status != status ||
			e.ActorType != audit.ActorConsole || e.ActorID != rec.ID || e.Mode != store.ModeTest {
			t.Errorf("%s %s: entry %+v, want %s %s %q status %d by %s", method, path, e, rule.Action, rule.ResourceType, wantID, status, rec.ID)
		}
	}
	page := b.get("/audit")
	if page.StatusCode != 200 || !strings.Contains(page.Body, "Access audit") || !strings.Contains(page.Body, "no-such-id") {
		t.Errorf("audit page: %d %.400s", page.StatusCode, page.Body)
	}
	if n, err := audit.Verify(context.Background(), s.Store, rec.AccountID); err != nil || n != int64(len(consoleAuditRules))+1 {
		t.Errorf("chain: %d events, %v", n, err)
	}
}

// TestConsoleCheckIsAuditedWithItsID: a check run from the form is
// recorded as created with the id of the page it leads to, and opening
// that page as a read.
func TestConsoleCheckIsAuditedWithItsID(t *testing.T) {
	s := newTestServer(t)
	key, rec := s.key(t, "Clinic", store.ModeTest)
	b := s.browser(t)
	b.signIn(key)
	resp := b.post("/checks", b.formFor("uhc-subscriber"))
	loc := resp.Header.Get("Location")
	if resp.StatusCode != 303 || !strings.HasPrefix(loc, "/checks/") {
		t.Fatalf("check: %d %s", resp.StatusCode, loc)
	}
	b.get(loc)
	var got []string
	s.Store.ScanAuditChain(context.Background(), rec.AccountID, func(e store.AuditEvent) error {
		got = append(got, e.Action+" "+e.ResourceType+" "+e.ResourceID)
		return nil
	})
	id := strings.TrimPrefix(loc, "/checks/")
	if want := []string{"create eligibility_check " + id, "read eligibility_check " + id}; !slices.Equal(got, want) {
		t.Errorf("audit %q, want %q", got, want)
	}
}

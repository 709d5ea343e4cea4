package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// developerWords are what a front desk must never read: JSON paths and
// field names, loop and segment names, algorithm names, source paths.
var developerWords = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z]*\b|/[a-z]+/|\bLoop [0-9]|\b2100[A-D]\b|Luhn|80840|\.go\b|fieldList|\bAAA\b|Uniform Resource Locator`)

// TestFormMessagesSpeakFrontDesk runs forms broken every way the form
// allows through the service's real rules and checks each message the
// console shows is in plain words.
func TestFormMessagesSpeakFrontDesk(t *testing.T) {
	dir := payers.Default()
	broken := []url.Values{
		{"payer": {"87726"}, "npi": {"1234567890"}},
		{"payer": {"87726"}, "npi": {"123"}, "sub_dob": {"1990-02-30"}, "sub_member_id": {"a*b~c"}},
		{"payer": {"87726"}, "npi": {""}, "provider_kind": {"individual"}},
		{"payer": {"CMS"}, "npi": {"1999999984"}, "sub_member_id": {"not-an-mbi"}, "dep_first": {"Ann"}, "dep_rel": {"07"}},
		{"payer": {"CMS"}, "npi": {"1999999984"}, "sub_last": {"Doe"}},
		{"payer": {"MBILU"}, "npi": {"1999999984"}, "sub_member_id": {"X1"}},
		{"payer": {"MBILUNOSSN"}, "npi": {"1999999984"}},
		{"payer": {"60054"}, "npi": {"1999999984"}, "sub_first": {strings.Repeat("A", 40)}, "sub_last": {"Doe\tX"},
			"dep_last": {"Doe"}, "service_type": {"ZZZ"}, "procedure_qualifier": {"AD"}, "procedure_code": {"D01*20"}},
		{"payer": {"60054"}, "npi": {"1999999984"}, "sub_member_id": {"A1"}, "dep_first": {"Jo"}, "dep_last": {"Doe"}, "dep_rel": {"99"}},
	}
	seen := 0
	for _, v := range broken {
		f := formFromValues(v)
		p, _ := dir.Lookup(v.Get("payer"))
		f.PayerID = p.ID
		err := eligibility.Validate(f.request(), &p)
		ve, ok := err.(*eligibility.ValidationError)
		if !ok {
			t.Fatalf("form %v: Validate gave %v, want field errors", v, err)
		}
		f.addErrors(ve.Fields)
		f.summarize()
		for _, item := range f.Summary {
			seen++
			if m := developerWords.FindString(item.Message); m != "" {
				t.Errorf("form %v: message %q speaks developer (%q)", v, item.Message, m)
			}
		}
	}
	if seen < 15 {
		t.Errorf("only %d messages seen; the forms should break more rules", seen)
	}
	for _, code := range summary.AdvisedCodes() {
		v := summary.RejectionOf(eligibility.AAAError{Code: code, Location: "Loop 2100C", FollowupAction: "Please Correct and Resubmit"})
		for _, s := range []string{v.Title, v.Advice, v.About} {
			if m := developerWords.FindString(s); m != "" {
				t.Errorf("AAA %s: %q speaks developer (%q)", code, s, m)
			}
		}
	}
}

// TestPayerByName: the payer box takes names as people type them; an
// unknown or ambiguous name is a message next to the box and nothing is
// sent or recorded.
func TestPayerByName(t *testing.T) {
	dir := payers.Default()
	for _, tc := range []struct{ typed, want string }{
		{"UnitedHealthcare", "87726"}, {"unitedhealthcare", "87726"}, {"United Healthcare", "87726"},
		{"UnitedHealthcare (87726)", "87726"}, {"87726", "87726"}, {"UHC", "87726"}, {"aetna", "60054"},
		{"Medicare (CMS HETS) (CMS)", "CMS"}, {"metlife", "10134"}, {"Cigna", "62308"},
	} {
		p, msg, _ := resolvePayer(dir, tc.typed)
		if msg != "" || p.ID != tc.want {
			t.Errorf("resolvePayer(%q) = %q %q, want %s", tc.typed, p.ID, msg, tc.want)
		}
	}
	for _, typed := range []string{"United", "Blue Cross", "Delta Dental"} {
		if _, msg, cands := resolvePayer(dir, typed); !strings.HasPrefix(msg, "Several payers match") || len(cands) < 2 {
			t.Errorf("resolvePayer(%q): %q with %d candidates, want ambiguity", typed, msg, len(cands))
		}
	}

	srv := newTestServer(t)
	key, rec := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	form := b.formFor("uhc-subscriber")
	form.Set("payer", "UnitedHealthcare")
	if resp := b.post("/checks", form); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("check by payer name: %d\n%.500s", resp.StatusCode, resp.Body)
	}
	form.Set("payer", "Acme Insurance of Nowhere")
	resp := b.post("/checks", form)
	if resp.StatusCode != http.StatusUnprocessableEntity || !strings.Contains(resp.Body, `id="f-payer-error"`) ||
		!strings.Contains(resp.Body, "No payer called &#34;Acme Insurance of Nowhere&#34; is in the payer list.") {
		t.Errorf("unknown payer: %d\n%.2000s", resp.StatusCode, resp.Body)
	}
	if strings.Contains(resp.Body, "Rejected by the payer") || strings.Contains(resp.Body, "Unknown payer") {
		t.Error("an unknown payer reads as a payer rejection")
	}
	list, _, err := srv.Store.ListEligibilityChecks(t.Context(), rec.AccountID, store.EligibilityFilter{})
	if err != nil || len(list) != 1 || list[0].TradingPartnerServiceID != "87726" {
		t.Errorf("history after one good and one unknown payer: %d checks %v", len(list), err)
	}
}

// TestTestModeRefusalPointsAtMocks: a test key's request that is no
// published mock comes back as the form, pointing at the mock picker on
// the same page, and is not listed in the console's history.
func TestTestModeRefusalPointsAtMocks(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	form := b.formFor("uhc-subscriber")
	form.Set("sub_member_id", "ZZZ999999")
	resp := b.post("/checks", form)
	if resp.StatusCode != http.StatusUnprocessableEntity {
		t.Fatalf("status %d, want 422", resp.StatusCode)
	}
	for _, want := range []string{`<a href="#mock">Mock request: Test mode answers only the published mock requests`, `id="mock"`} {
		if !strings.Contains(resp.Body, want) {
			t.Errorf("the refusal lacks %s", want)
		}
	}
	if page := b.get("/checks"); strings.Contains(page.Body, "history-table") {
		t.Errorf("the refused request is listed in the history:\n%.300s", page.Body)
	}
}

package web

import (
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// jsonName finds a contract name (camelCase: faxNumber, memberId) in text
// a front desk reads.
var jsonName = regexp.MustCompile(`\b[a-z]+[A-Z][A-Za-z]*\b`)

// TestClaimFormOnePass: an empty claim form reports every required input's
// problem at once, next to it, in words, each once; the stars are exactly
// the inputs the rules require; the form keeps what was typed.
func TestClaimFormOnePass(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.claimsKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)

	blank := b.get("/claims/new").Body
	starred := regexp.MustCompile(`name="([^"]+)"[^>]*aria-required="true"`).FindAllStringSubmatch(blank, -1)
	var stars []string
	for _, m := range starred {
		stars = append(stars, m[1])
	}
	slices.Sort(stars)
	want := []string{"bill_address1", "bill_city", "bill_npi", "bill_org", "bill_phone", "bill_state", "bill_tin", "bill_zip",
		"line1_charge", "line1_code", "payer", "pcn", "service_date", "sub_address1", "sub_city", "sub_dob", "sub_gender",
		"sub_last", "sub_member_id", "sub_state", "sub_zip"}
	if strings.Join(stars, " ") != strings.Join(want, " ") {
		t.Errorf("starred inputs:\n got %v\nwant %v", stars, want)
	}

	v := url.Values{"csrf": {b.csrf(blank)}, "place": {"11"}, "filing": {"CI"}, "dep_rel": {"19"}, "sub_last": {"O'Brien"}}
	resp := b.post("/claims", v)
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("empty claim: %d", resp.StatusCode)
	}
	for _, name := range want {
		if name == "sub_last" {
			continue // typed
		}
		if !strings.Contains(resp.Body, `id="c-`+name+`-error"`) {
			t.Errorf("the empty form says nothing next to %s", name)
		}
	}
	if !strings.Contains(resp.Body, `value="O&#39;Brien"`) {
		t.Errorf("the form lost the last name that was typed")
	}
	summary := regexp.MustCompile(`(?s)<div class="error-summary".*?</div>`).FindString(resp.Body)
	items := regexp.MustCompile(`<li>(.*?)</li>`).FindAllStringSubmatch(summary, -1)
	seen := map[string]bool{}
	for _, it := range items {
		text := htmlUnescape(visible(it[1]))
		if seen[text] {
			t.Errorf("the summary repeats %q", text)
		}
		seen[text] = true
		if w := jsonName.FindString(text); w != "" {
			t.Errorf("the summary speaks JSON (%s): %q", w, text)
		}
	}
	if len(items) < len(want)-1 {
		t.Errorf("the summary lists %d problems for %d empty required inputs:\n%s", len(items), len(want)-1, visible(summary))
	}
	if !strings.Contains(summary, "autofocus") || !strings.Contains(summary, `tabindex="-1"`) {
		t.Errorf("the error summary does not take the focus")
	}
}

// TestClaimFromSavedPractice: a practice saved once (with every problem of
// its form at once) is picked by default, so a claim needs only the
// patient, the visit and the lines.
func TestClaimFromSavedPractice(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.claimsKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)

	csrf := b.csrf(b.get("/claims/new").Body)
	resp := b.post("/practice/billing", url.Values{"csrf": {csrf}, "zip": {"80238"}})
	if resp.StatusCode != http.StatusBadRequest {
		t.Fatalf("empty practice: %d", resp.StatusCode)
	}
	for _, name := range []string{"org", "npi", "tin", "address1", "city", "state", "zip", "phone"} {
		if !strings.Contains(resp.Body, `id="p-`+name+`-error"`) {
			t.Errorf("the empty practice form says nothing next to %s:\n%s", name, visible(resp.Body))
		}
	}
	wantContains(t, "ZIP+4", visible(resp.Body), "9-digit ZIP")
	practice := url.Values{"csrf": {csrf}, "org": {"Sunrise Family Dental"}, "npi": {"1999999992"}, "tin": {"12-3456789"},
		"taxonomy": {"1223G0001X"}, "address1": {"123 Main St"}, "city": {"Denver"}, "state": {"CO"}, "zip": {"80238-3000"},
		"contact": {"Billing Office"}, "phone": {"(303) 555-0100"}}
	if resp := b.post("/practice/billing", practice); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save the practice: %d\n%s", resp.StatusCode, visible(resp.Body))
	}
	dentist := url.Values{"csrf": {csrf}, "first": {"Jane"}, "last": {"Smith"}, "npi": {"1999999992"}}
	if resp := b.post("/practice/rendering", dentist); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("save the dentist: %d\n%s", resp.StatusCode, visible(resp.Body))
	}
	wantContains(t, "practice page", visible(b.get("/practice").Body), "Sunrise Family Dental", "Default", "Jane Smith", "NPI 1999999992")

	v := b.sampleValues("accepted")
	if v.Get("bill_id") == "" || v.Get("rend_id") == "" {
		t.Fatalf("the saved practice and dentist are not preselected: %v", v)
	}
	for name := range v {
		if strings.HasPrefix(name, "bill_") && name != "bill_id" || strings.HasPrefix(name, "rend_") && name != "rend_id" {
			v.Del(name)
		}
	}
	resp = b.post("/claims", v)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("a claim from the saved practice: %d\n%s", resp.StatusCode, visible(resp.Body))
	}
	b.waitClaim(resp.Header.Get("Location"), "Accepted")
	wantContains(t, "claims list", b.claimRows("/claims"), "UnitedHealthcare Dental (52133)")

	// A dental practice's check asks about dental care (35) by default.
	check := b.get("/checks/new").Body
	if !strings.Contains(check, `<option value="35" selected>`) || !strings.Contains(check, `value="1999999992"`) {
		t.Errorf("the check form of a dental practice does not default to service type 35 with its NPI")
	}
}

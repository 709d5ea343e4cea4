package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strings"
	"testing"
)

// formValues reads a claim form page's inputs as they would be posted.
func formValues(t testing.TB, body string) url.Values {
	t.Helper()
	v := url.Values{}
	for _, m := range regexp.MustCompile(`<input id="c-[^"]*" name="([^"]+)" (?:type="[^"]*" )?value="([^"]*)"`).FindAllStringSubmatch(body, -1) {
		v.Set(m[1], htmlUnescape(m[2]))
	}
	for _, m := range regexp.MustCompile(`(?s)<select id="c-[^"]*" name="([^"]+)"(.*?)</select>`).FindAllStringSubmatch(body, -1) {
		if sel := regexp.MustCompile(`<option value="([^"]*)" selected`).FindStringSubmatch(m[2]); sel != nil {
			v.Set(m[1], sel[1])
		}
	}
	for _, name := range []string{"csrf", "key", "kind", "frequency", "original_ref", "resends"} {
		if m := hiddenValue(name).FindStringSubmatch(body); m != nil {
			v.Set(name, htmlUnescape(m[1]))
		}
	}
	return v
}

// TestCorrectAndResend: a rejected claim shows what was billed, and its
// "Correct and resend" opens the form filled with it, the payer's reason
// beside the member ID; corrected, it is accepted; an accepted claim's
// Replace sends frequency 7 with the payer's claim number.
func TestCorrectAndResend(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.claimsKey(t, "Sunrise Family Dental")
	b := srv.browser(t)
	b.signIn(key)

	rejected := b.submitSample("rejected", nil)
	page := b.waitClaim(rejected, "Rejected")
	wantContains(t, "rejected claim", page, "What was billed", "D0120", "$65.00", "D2150", "MO", "$180.00", "Correct and resend")

	id := strings.TrimPrefix(rejected, "/claims/")
	form := b.get("/claims/new?from=" + id)
	if form.StatusCode != http.StatusOK {
		t.Fatalf("correct: %d", form.StatusCode)
	}
	if !strings.Contains(form.Body, `id="c-sub_member_id-error"`) || !strings.Contains(visible(form.Body), "member number") {
		t.Errorf("the payer's reason is not beside the member ID:\n%s", visible(form.Body))
	}
	v := formValues(t, form.Body)
	for name, want := range map[string]string{"sub_last": "Doe", "bill_npi": "1999999992", "line2_tooth": "3", "line2_surfaces": "MO", "line2_charge": "180.00", "service_date": ""} {
		if got := v.Get(name); want != "" && got != want || got == "" {
			t.Errorf("the correction form's %s = %q, want %q", name, got, want)
		}
	}
	v.Set("sub_member_id", "123412345")
	resp := b.post("/claims", v)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("resend: %d\n%s", resp.StatusCode, visible(resp.Body))
	}
	resent := resp.Header.Get("Location")
	page = b.waitClaim(resent, "Accepted")
	wantContains(t, "resent claim", page, "Replace this claim", "Void this claim", "Corrected copy of claim")
	if !strings.Contains(b.get(resent).Body, `href="`+rejected+`"`) {
		t.Errorf("the resent claim does not link to the rejected one")
	}
	// The rejected claim links forward to its corrected copy.
	if page := b.get(rejected).Body; !strings.Contains(visible(page), "Corrected and sent again as claim") || !strings.Contains(page, `href="`+resent+`"`) {
		t.Errorf("the rejected claim does not link to its corrected copy:\n%s", visible(page))
	}
	// Another account cannot send a claim in place of this one.
	other, _ := srv.claimsKey(t, "Other Dental")
	ob := srv.browser(t)
	ob.signIn(other)
	ov := formValues(t, ob.get("/claims/new").Body)
	for name, value := range v {
		if name != "csrf" && name != "key" {
			ov[name] = value
		}
	}
	ov.Set("resends", strings.TrimPrefix(resent, "/claims/"))
	if resp := ob.post("/claims", ov); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account resends the claim: %d", resp.StatusCode)
	}

	form = b.get("/claims/new?from=" + strings.TrimPrefix(resent, "/claims/") + "&frequency=7")
	v = formValues(t, form.Body)
	if v.Get("frequency") != "7" || v.Get("original_ref") == "" {
		t.Fatalf("replace form: frequency %q, original %q\n%s", v.Get("frequency"), v.Get("original_ref"), visible(form.Body))
	}
	resp = b.post("/claims", v)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("replace: %d\n%s", resp.StatusCode, visible(resp.Body))
	}
	replacement := resp.Header.Get("Location")
	if page := visible(b.get(replacement).Body); !strings.Contains(page, "Replaces claim") {
		t.Errorf("the replacement does not say what it replaces:\n%s", page)
	}
	if page := visible(b.get(resent).Body); !strings.Contains(page, "Corrected copy of claim") || !strings.Contains(page, "Replaced by claim") {
		t.Errorf("the replaced claim lacks a link either way:\n%s", page)
	}
}

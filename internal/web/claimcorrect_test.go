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
	for _, name := range []string{"csrf", "key", "frequency", "original_ref"} {
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
	wantContains(t, "resent claim", page, "Replace this claim", "Void this claim")

	form = b.get("/claims/new?from=" + strings.TrimPrefix(resent, "/claims/") + "&frequency=7")
	v = formValues(t, form.Body)
	if v.Get("frequency") != "7" || v.Get("original_ref") == "" {
		t.Fatalf("replace form: frequency %q, original %q\n%s", v.Get("frequency"), v.Get("original_ref"), visible(form.Body))
	}
	if resp := b.post("/claims", v); resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("replace: %d\n%s", resp.StatusCode, visible(resp.Body))
	}
}

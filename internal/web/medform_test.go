package web

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// summaryOf is the error summary's items, one a line.
func summaryOf(body string) string {
	i := strings.Index(body, `id="error-summary"`)
	if i < 0 {
		return ""
	}
	j := strings.Index(body[i:], "</ul>")
	items := strings.Split(body[i:i+j], "<li>")
	out := make([]string, 0, len(items))
	for _, it := range items[1:] {
		out = append(out, htmlUnescape(visible(it)))
	}
	return strings.Join(out, "\n")
}

// An empty professional or institutional claim reports every required
// input at once, in an office's words, beside its input; the stars are
// the inputs the rules asked for.
func TestMedicalFormsOnePass(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.claimsKey(t, "Austin Family Medicine")
	b := srv.browser(t)
	b.signIn(key)
	for _, tc := range []struct {
		kind  string
		wants []string
	}{
		{kindProfessional, []string{"Insurance company:", "Your claim number:", "Last name (insured person):", "Member ID (insured person):",
			"Date of birth (insured person):", "Sex (insured person):", "City (insured person):", "Practice name:", "Practice NPI:",
			"Date of service:", "Diagnosis A:", "Service 1:", "Diagnosis pointer (line 1):", "Charge ($) (line 1):"}},
		{kindInstitutional, []string{"Insurance company:", "Your claim number:", "Member ID (insured person):", "Statement from:",
			"Statement through:", "Principal diagnosis:", "Revenue code 1:", "Charge ($) (line 1):", "Physician last name:", "Facility NPI:"}},
	} {
		page := b.get("/claims/new?kind=" + tc.kind)
		if page.StatusCode != 200 || !strings.Contains(page.Body, "New "+kindTitle(tc.kind)) {
			t.Fatalf("%s form: %d\n%.500s", tc.kind, page.StatusCode, visible(page.Body))
		}
		v := formValues(t, page.Body)
		resp := b.post("/claims", v)
		if resp.StatusCode != http.StatusBadRequest {
			t.Fatalf("%s empty: %d", tc.kind, resp.StatusCode)
		}
		sum := summaryOf(resp.Body)
		for _, w := range tc.wants {
			if !strings.Contains(sum, w) {
				t.Errorf("%s: the summary lacks %q:\n%s", tc.kind, w, sum)
			}
		}
		for _, leak := range []string{"claimInformation", "serviceLines", "professionalService", "institutionalService", "837", "[]", "{", "providerType"} {
			if strings.Contains(sum, leak) {
				t.Errorf("%s: the summary leaks %q:\n%s", tc.kind, leak, sum)
			}
		}
		t.Logf("%s summary:\n%s", tc.kind, sum)
	}
}

// A professional and an institutional claim from their test samples are
// sent through the API's services (837P, 837I), accepted and paid.
func TestMedicalFormsSend(t *testing.T) {
	srv := newEDIServerRemit(t, 200*time.Millisecond)
	key, _ := srv.claimsKey(t, "Austin Family Medicine")
	b := srv.browser(t)
	b.signIn(key)
	for _, kind := range []string{kindProfessional, kindInstitutional} {
		page := b.get("/claims/new?kind=" + kind + "&sample=partial")
		v := formValues(t, page.Body)
		if m := hiddenValue("sample").FindStringSubmatch(page.Body); m != nil {
			v.Set("sample", m[1])
		}
		resp := b.post("/claims", v)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s sample: %d\n%s", kind, resp.StatusCode, summaryOf(resp.Body))
		}
		form := map[string]string{kindProfessional: "837P", kindInstitutional: "837I"}[kind]
		text := b.waitClaim(resp.Header.Get("Location"), "Partly paid", "What was paid")
		wantContains(t, kind+" claim", text, "went out as an "+form, "Claim acknowledgment (277CA): Accepted", "UnitedHealthcare (87726)",
			"What was billed", "Patient owes")
		if kind == kindProfessional {
			// 99213 $125 and 87880 QW $35: each paid 80 % less a 10 % deductible.
			wantContains(t, "professional lines", text, "Diagnoses (ICD-10-CM): A J06.9", "B R05.9", "99213 — A B 1 $125.00", "87880 QW A 1 $35.00", "87880 QW", "$125.00", "$35.00", "$87.50", "$24.50", "Patient owes $16.00")
		} else {
			wantContains(t, "institutional lines", text, "Diagnoses (ICD-10-CM): R45.851", "F32.9", "Revenue code", "0450", "99284", "$500.00", "$80.00", "$350.00", "$56.00")
		}
	}
}

// A rejected professional claim is corrected and resent from its page:
// the form opens as a CMS-1500 filled with what was sent (diagnoses,
// pointers as letters, modifiers, units), the payer's reason beside the
// member ID; corrected, it is accepted. An institutional claim reads back
// as a UB-04 (type of bill, statement dates, revenue lines).
func TestMedicalCorrectAndResend(t *testing.T) {
	srv := newEDIServer(t)
	key, _ := srv.claimsKey(t, "Austin Family Medicine")
	b := srv.browser(t)
	b.signIn(key)
	send := func(kind, sample string, edit func(url.Values)) string {
		t.Helper()
		page := b.get("/claims/new?kind=" + kind + "&sample=" + sample)
		v := formValues(t, page.Body)
		if m := hiddenValue("sample").FindStringSubmatch(page.Body); m != nil {
			v.Set("sample", m[1])
		}
		if edit != nil {
			edit(v)
		}
		resp := b.post("/claims", v)
		if resp.StatusCode != http.StatusSeeOther {
			t.Fatalf("%s %s: %d\n%s", kind, sample, resp.StatusCode, summaryOf(resp.Body))
		}
		return resp.Header.Get("Location")
	}
	rejected := send(kindProfessional, "rejected", nil)
	page := b.waitClaim(rejected, "Rejected")
	if !strings.Contains(page, "Correct and resend") {
		t.Fatalf("a rejected professional claim offers no correction:\n%s", page)
	}
	form := b.get("/claims/new?from=" + strings.TrimPrefix(rejected, "/claims/"))
	v := formValues(t, form.Body)
	for name, want := range map[string]string{"kind": kindProfessional, "dx1": "J069", "dx2": "R059", "line1_code": "99213", "line1_ptr": "AB",
		"line2_code": "87880", "line2_mods": "QW", "line2_ptr": "A", "line1_units": "1", "line1_charge": "125.00", "sub_last": "Doe"} {
		if v.Get(name) != want {
			t.Errorf("correction form %s = %q, want %q", name, v.Get(name), want)
		}
	}
	if !strings.Contains(form.Body, "New professional claim") && !strings.Contains(form.Body, "Correct and resend claim") {
		t.Errorf("the correction is not the professional form")
	}
	wantContains(t, "correction", htmlUnescape(visible(form.Body)), "member number", "Service 1", "Diagnosis A")
	v.Set("sub_member_id", "123412345")
	resp := b.post("/claims", v)
	if resp.StatusCode != http.StatusSeeOther {
		t.Fatalf("resend: %d\n%s", resp.StatusCode, summaryOf(resp.Body))
	}
	b.waitClaim(resp.Header.Get("Location"), "Accepted", "went out as an 837P")

	inst := send(kindInstitutional, "accepted", nil)
	b.waitClaim(inst, "Accepted")
	form = b.get("/claims/new?from=" + strings.TrimPrefix(inst, "/claims/") + "&frequency=7")
	v = formValues(t, form.Body)
	day := time.Now().AddDate(0, 0, -1).Format("2006-01-02")
	for name, want := range map[string]string{"kind": kindInstitutional, "tob": "131", "from_date": day, "to_date": day, "adm_type": "3",
		"pat_status": "01", "dx1": "R45851", "dx2": "F329", "line1_rev": "0450", "line1_code": "99284", "line2_rev": "0300", "line2_charge": "80.00",
		"frequency": "7"} {
		if v.Get(name) != want {
			t.Errorf("replacement form %s = %q, want %q", name, v.Get(name), want)
		}
	}
}

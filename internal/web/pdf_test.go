package web

import (
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestSummaryPDF renders the summary of an HMO, a Medicare, a dental and a
// rejected check, and of a plan far too long for a page, and reads each
// back with poppler: one page, with the facts a chart needs.
func TestSummaryPDF(t *testing.T) {
	srv := newTestServer(t)
	key, _ := srv.key(t, "Acme Dental", "test")
	b := srv.browser(t)
	b.signIn(key)
	for _, tc := range []struct {
		mock  string
		wants []string
	}{
		{"uhc-subscriber", []string{"Eligibility summary", "Active Coverage", "UnitedHealthcare (87726)", "JANE M DOE", "UHC123456",
			"NAVIGATE HMO", "Deductible individual", "$1,000 per calendar year, $1,000 left", "Benefits by service", "$20 copay", "Not covered"}},
		{"cms-subscriber", []string{"Medicare Part A (hospital)", "Medicare Part B (medical)", "Lifetime reserve days", "1EG4TE5MK73", "$91.12"}},
		{"cigna-dental", []string{"Annual maximum", "$1,182.60 left", "Orthodontic lifetime", "Coinsurance by class", "Preventive and diagnostic",
			"D1110", "2 visits per calendar year", "Waiting periods"}},
		{"uhc-aaa-75", []string{"Rejected by the payer", "Member not found", "What to do:"}},
	} {
		t.Run(tc.mock, func(t *testing.T) {
			resp := b.post("/checks", b.formFor(tc.mock))
			id := strings.TrimPrefix(resp.Header.Get("Location"), "/checks/")
			if resp.StatusCode != http.StatusSeeOther || id == "" {
				t.Fatalf("check %s: %d", tc.mock, resp.StatusCode)
			}
			// The result page links to the console's copy.
			if page := b.get("/checks/" + id); !strings.Contains(page.Body, `href="/checks/`+id+`/pdf"`) {
				t.Error("the result page has no link to the PDF")
			}
			console := b.get("/checks/" + id + "/pdf")
			if console.StatusCode != 200 || console.Header.Get("Content-Type") != "application/pdf" || console.Header.Get("Cache-Control") != "no-store" {
				t.Fatalf("console PDF: %d %v", console.StatusCode, console.Header)
			}
			// The API serves the same summary to the key.
			req, _ := http.NewRequest("GET", srv.URL+"/2024-04-01/eligibility-checks/"+id+"/pdf", nil)
			req.Header.Set("Authorization", "Key "+key)
			apiResp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			apiPDF, _ := io.ReadAll(apiResp.Body)
			apiResp.Body.Close()
			if apiResp.StatusCode != 200 || apiResp.Header.Get("Content-Type") != "application/pdf" {
				t.Fatalf("API PDF: %d %s", apiResp.StatusCode, apiPDF)
			}
			if dir := os.Getenv("CLEARHOUSE_ARTIFACTS"); dir != "" {
				path := filepath.Join(artifactsDir(t), "summary-"+tc.mock+".pdf")
				if err := os.WriteFile(path, apiPDF, 0o644); err != nil {
					t.Fatal(err)
				}
				t.Logf("summary %s", path)
			}
			text := testenv.PDFText(t, apiPDF)
			wantContains(t, tc.mock+" PDF", text, append(tc.wants, id)...)
			if tc.mock == "uhc-subscriber" {
				if m := developerWords.FindString(text); m != "" {
					t.Errorf("the PDF speaks developer (%q)", m)
				}
			}
		})
	}

	// Another account's check, and no key at all, are refused.
	other, _ := srv.key(t, "Other Clinic", "test")
	ob := srv.browser(t)
	ob.signIn(other)
	id := strings.TrimPrefix(ob.post("/checks", ob.formFor("uhc-subscriber")).Header.Get("Location"), "/checks/")
	for _, auth := range []string{"Key " + key, ""} {
		req, _ := http.NewRequest("GET", srv.URL+"/2024-04-01/eligibility-checks/"+id+"/pdf", nil)
		if auth != "" {
			req.Header.Set("Authorization", auth)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if want := map[bool]int{true: 404, false: 401}[auth != ""]; resp.StatusCode != want {
			t.Errorf("another account's PDF with %q: %d, want %d", auth, resp.StatusCode, want)
		}
	}
	if resp := b.get("/checks/" + id + "/pdf"); resp.StatusCode != 404 {
		t.Errorf("another account's PDF in the console: %d", resp.StatusCode)
	}
}

package web

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestPayerSurfacesAgree: with serve's two operator files — a directory
// file (--payer-directory) that says UnitedHealthcare takes no
// eligibility checks and adds Beta Dental, which takes none either, and a
// --payers file that routes UnitedHealthcare's eligibility to two
// upstreams — every surface says the same: GET /payers, /payer/{id},
// /payers/search and /payers/csv show UnitedHealthcare's eligibility
// SUPPORTED (its route) and Beta Dental's NOT_SUPPORTED, and the
// console's eligibility payer box offers exactly the payers the API shows
// as taking eligibility checks (on the page and as it is typed in), and
// refuses Beta Dental in plain words before anything is sent.
func TestPayerSurfacesAgree(t *testing.T) {
	dirFile := filepath.Join(t.TempDir(), "directory.json")
	if err := os.WriteFile(dirFile, []byte(`{"items": [
 {"stediId": "87726", "primaryPayerId": "87726", "displayName": "UnitedHealthcare", "names": [], "aliases": ["UHC"], "coverageTypes": ["medical"],
  "transactionSupport": {"eligibilityCheck": "NOT_SUPPORTED", "claimStatus": "SUPPORTED", "professionalClaimSubmission": "SUPPORTED",
   "institutionalClaimSubmission": "SUPPORTED", "dentalClaimSubmission": "NOT_SUPPORTED", "claimPayment": "SUPPORTED",
   "coordinationOfBenefits": "NOT_SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}},
 {"stediId": "BETA1", "primaryPayerId": "99002", "displayName": "Beta Dental", "names": [], "aliases": [],
  "transactionSupport": {"eligibilityCheck": "NOT_SUPPORTED", "claimStatus": "NOT_SUPPORTED", "professionalClaimSubmission": "NOT_SUPPORTED",
   "institutionalClaimSubmission": "NOT_SUPPORTED", "dentalClaimSubmission": "SUPPORTED", "claimPayment": "NOT_SUPPORTED",
   "coordinationOfBenefits": "NOT_SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	f, err := payers.ReadDirectoryFile(dirFile)
	if err != nil {
		t.Fatal(err)
	}
	dir, err := payers.Default().WithDirectoryFile(dirFile, f)
	if err == nil {
		dir, err = dir.WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["uhc-a", "uhc-b"]}}]}`))
	}
	if err != nil {
		t.Fatal(err)
	}
	srv, _ := newServerWith(t, serverOptions{Payers: dir})
	key, rec := srv.key(t, "Acme Dental", "test")
	api := func(path string) response {
		t.Helper()
		req, _ := http.NewRequest("GET", srv.URL+"/2024-04-01"+path, nil)
		req.Header.Set("Authorization", "Key "+key)
		resp := srv.browser(t).do(req)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("GET %s: %d %s", path, resp.StatusCode, resp.Body)
		}
		return resp
	}

	// The API: the whole list, one record, the search and the CSV.
	var list struct {
		Items []payers.Record `json:"items"`
	}
	if err := json.Unmarshal([]byte(api("/payers").Body), &list); err != nil {
		t.Fatal(err)
	}
	takesChecks := map[string]bool{} // by primary id, as GET /payers says
	for _, r := range list.Items {
		takesChecks[r.PrimaryPayerID] = r.TransactionSupport.EligibilityCheck != payers.NotSupported
	}
	if !takesChecks["87726"] || takesChecks["99002"] {
		t.Fatalf("GET /payers: eligibility of 87726 %v (want routed, so taken), of 99002 %v (want not)", takesChecks["87726"], takesChecks["99002"])
	}
	for path, want := range map[string]string{
		"/payer/UHC":   `"eligibilityCheck":"SUPPORTED"`,
		"/payer/BETA1": `"eligibilityCheck":"NOT_SUPPORTED"`,
	} {
		if got := api(path).Body; !strings.Contains(got, want) {
			t.Errorf("GET %s lacks %s: %s", path, want, got)
		}
	}
	if got := api("/payers/search?query=beta%20dental&eligibilityCheck=EITHER").Body; strings.Contains(got, "99002") {
		t.Errorf("the search for payers taking checks finds Beta Dental: %s", got)
	}
	if got := api("/payers/search?query=87726&eligibilityCheck=SUPPORTED").Body; !strings.Contains(got, `"primaryPayerId":"87726"`) {
		t.Errorf("the search for payers taking checks misses the routed 87726: %s", got)
	}
	rows, err := csv.NewReader(strings.NewReader(api("/payers/csv").Body)).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	id, elig := slices.Index(rows[0], "PrimaryPayerId"), slices.Index(rows[0], "EligibilityInquiry")
	for _, row := range rows[1:] {
		if want := takesChecks[row[id]]; (row[elig] == "true") != want {
			t.Errorf("CSV row %s: EligibilityInquiry %s, GET /payers says taken=%v", row[id], row[elig], want)
		}
	}

	// The console: the payer box's list on the page, and as it is typed in.
	b := srv.browser(t)
	b.signIn(key)
	option := regexp.MustCompile(`<option value="[^"]*\(([^"()]+)\)">`)
	offered := func(body string) map[string]bool {
		out := map[string]bool{}
		for _, m := range option.FindAllStringSubmatch(body, -1) {
			out[m[1]] = true
		}
		return out
	}
	page := b.get("/checks/new")
	onPage := offered(page.Body[strings.Index(page.Body, `<datalist id="payer-options">`):])
	for pid, taken := range takesChecks {
		if onPage[pid] != taken {
			t.Errorf("console's payer list: %s offered %v, GET /payers says it takes checks: %v", pid, onPage[pid], taken)
		}
	}
	for typed, want := range map[string]map[string]bool{
		"beta":   {},
		"united": {"87726": true},
	} {
		got := offered(b.get("/payers/search?payer=" + typed).Body)
		for pid := range got {
			if !takesChecks[pid] {
				t.Errorf("typing %q offers %s, which takes no eligibility checks", typed, pid)
			}
		}
		for pid := range want {
			if !got[pid] {
				t.Errorf("typing %q does not offer %s", typed, pid)
			}
		}
	}

	// Beta Dental typed in anyway: a message at the payer box, no check.
	form := b.formFor(services.MockExamples()[0].Name)
	form.Set("payer", "Beta Dental")
	resp := b.post("/checks", form)
	if !strings.Contains(resp.Body, "Beta Dental (99002) does not answer eligibility checks through this service") {
		t.Errorf("checking Beta Dental: %d\n%.800s", resp.StatusCode, resp.Body)
	}
	checks, _, err := srv.Store.ListEligibilityChecks(context.Background(), rec.AccountID, store.EligibilityFilter{Mode: store.ModeTest})
	if err != nil || len(checks) != 0 {
		t.Errorf("%d checks recorded (%v), want none", len(checks), err)
	}
}

package api_test

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

type payerRecord struct {
	StediID, PrimaryPayerID, DisplayName string
	Aliases, Names, CoverageTypes        []string
	OperatingStates                      []string
	TransactionSupport                   map[string]string
}

// The payer directory over HTTP in the Payers API's shape: a payer by id
// and by alias, the list paged and whole, a search by name words, and an
// unknown id answered 404 with the closest payers named.
func TestPayerDirectory(t *testing.T) {
	t.Parallel()
	st := storetest.SQLite(t)
	hs := apptest.New(t, apptest.Options{Store: st})
	key, _, err := auth.CreateKey(context.Background(), st, "Directory", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	c := &lifecycleClient{t: t, url: hs.URL, key: key}
	for _, id := range []string{"87726", "uhc"} {
		var got struct{ Payer payerRecord }
		c.do("GET", "/2024-04-01/payer/"+id, "", 200, &got)
		p := got.Payer
		if p.StediID != "87726" || p.DisplayName != "UnitedHealthcare" || len(p.TransactionSupport) != 9 ||
			p.TransactionSupport["eligibilityCheck"] != "SUPPORTED" || p.TransactionSupport["coordinationOfBenefits"] != "NOT_SUPPORTED" {
			t.Errorf("payer %s: %+v", id, p)
		}
	}
	var first, second, all struct {
		Items         []payerRecord
		NextPageToken string
	}
	c.do("GET", "/2024-04-01/payers?pageSize=10", "", 200, &first)
	c.do("GET", "/2024-04-01/payers?pageSize=10&pageToken="+first.NextPageToken, "", 200, &second)
	if len(first.Items) != 10 || first.NextPageToken == "" || len(second.Items) == 0 || second.Items[0].StediID <= first.Items[9].StediID {
		t.Errorf("pages (by stediId): %+v then %+v", first, second)
	}
	c.do("GET", "/2024-04-01/payers", "", 200, &all)
	if len(all.Items) != payers.Default().Len() || all.NextPageToken != "" {
		t.Errorf("without pageSize: %d payers and token %q, want all %d", len(all.Items), all.NextPageToken, payers.Default().Len())
	}
	var hits struct {
		Items []struct {
			Payer   payerRecord
			Matches struct{ DisplayName string }
			Score   float64
		}
		Stats struct {
			Total                    int
			TransactionSupportCounts map[string]struct{ Supported struct{ Total int } }
		}
	}
	c.do("GET", "/2024-04-01/payers/search?query=unitedhealthcare+dental", "", 200, &hits)
	if hits.Stats.Total == 0 || hits.Items[0].Payer.DisplayName != "UnitedHealthcare Dental" ||
		hits.Items[0].Matches.DisplayName != "<b>UnitedHealthcare</b> <b>Dental</b>" || hits.Items[0].Payer.TransactionSupport["claimSubmission"] != "" {
		t.Errorf("search: %+v", hits)
	}
	body := c.do("GET", "/2024-04-01/payer/8772", "", 404, nil)
	if !strings.Contains(string(body), "Did you mean 87726 (UnitedHealthcare)") {
		t.Errorf("unknown payer: %s", body)
	}
}

// The search's parameters as the contract has them: typos tolerated,
// transaction, coverage and state filters (AND), its page sizes and
// bounds, each mistake a 400 naming the parameter.
func TestPayerSearchParameters(t *testing.T) {
	t.Parallel()
	c := directoryClient(t, nil)
	tests := []struct {
		query     string
		status    int
		wantFirst string // first hit's stediId
		wantText  string // in the body
		total     int    // -1: any
	}{
		{"query=cigan", 200, "62308", "<b>Cigna</b>", -1},
		{"query=87762", 200, "87726", "<b>87726</b>", -1},
		{"query=delta+dentl&dentalClaimSubmission=SUPPORTED", 200, "77777", "<b>Delta</b> <b>Dental</b>", -1},
		{"dentalClaimSubmission=SUPPORTED&professionalClaimSubmission=EITHER&coverageTypes=medical&coverageTypes=dental", 200, "", "", 2},
		{"coverageTypes=medical,dental&eligibilityCheck=SUPPORTED&claimPayment=SUPPORTED", 200, "", "", 2},
		{"operatingStates=CA", 200, "", "", 0},
		{"query=aetna&coordinationOfBenefits=SUPPORTED", 200, "", "", 0},
		{"query=blue&pageSize=10", 200, "", "nextPageToken", -1},
		{"", 400, "", "/query/query", 0},
		{"query=" + strings.Repeat("a", 201), 400, "", "at most 200 characters", 0},
		{"query=x&pageSize=9", 400, "", "/query/pageSize", 0},
		{"query=x&pageSize=101", 400, "", "/query/pageSize", 0},
		{"query=x&eligibilityCheck=YES", 400, "", "/query/eligibilityCheck", 0},
		{"query=x&coverageTypes=pet", 400, "", "/query/coverageTypes", 0},
		{"query=x&operatingStates=ZZ", 400, "", "/query/operatingStates", 0},
		{"query=x&pageToken=" + strings.Repeat("A", 1025), 400, "", "/query/pageToken", 0},
	}
	for _, tt := range tests {
		var got struct {
			Items []struct{ Payer payerRecord }
			Stats struct{ Total int }
		}
		var into any = &got
		if tt.status != 200 {
			into = nil
		}
		body := c.do("GET", "/2024-04-01/payers/search?"+tt.query, "", tt.status, into)
		if tt.wantFirst != "" && (len(got.Items) == 0 || got.Items[0].Payer.StediID != tt.wantFirst) {
			t.Errorf("%s: first hit %+v, want %s", tt.query, got.Items, tt.wantFirst)
		}
		if tt.wantText != "" && !strings.Contains(string(body), tt.wantText) {
			t.Errorf("%s: %s lacks %q", tt.query, body, tt.wantText)
		}
		if tt.status == 200 && tt.total >= 0 && got.Stats.Total != tt.total {
			t.Errorf("%s: total %d, want %d", tt.query, got.Stats.Total, tt.total)
		}
	}
}

// enrollmentDirectory: UnitedHealthcare needs enrollment for eligibility
// (account "Enrolled" has it) and claim status (nobody has it), UnitedHealthcare Dental for dental claims
// (nobody has it), and the new payer NEWPY operates in Texas.
const enrollmentDirectory = `{"items": [
{"stediId": "87726", "primaryPayerId": "87726", "displayName": "UnitedHealthcare", "names": ["United Health Care"], "aliases": ["UHC"],
 "operatingStates": ["NATIONAL"], "coverageTypes": ["medical"],
 "transactionSupport": {"eligibilityCheck": "ENROLLMENT_REQUIRED", "claimStatus": "ENROLLMENT_REQUIRED", "professionalClaimSubmission": "SUPPORTED",
   "institutionalClaimSubmission": "SUPPORTED", "dentalClaimSubmission": "NOT_SUPPORTED", "claimPayment": "ENROLLMENT_REQUIRED",
   "coordinationOfBenefits": "SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}},
{"stediId": "52133", "primaryPayerId": "52133", "displayName": "UnitedHealthcare Dental", "aliases": [], "coverageTypes": ["dental"],
 "transactionSupport": {"eligibilityCheck": "SUPPORTED", "claimStatus": "SUPPORTED", "professionalClaimSubmission": "NOT_SUPPORTED",
   "institutionalClaimSubmission": "NOT_SUPPORTED", "dentalClaimSubmission": "ENROLLMENT_REQUIRED", "claimPayment": "SUPPORTED",
   "coordinationOfBenefits": "NOT_SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}},
{"stediId": "NEWPY", "primaryPayerId": "77001", "displayName": "Lone Star Health", "names": ["LSH"], "aliases": ["LSTAR"],
 "operatingStates": ["TX"], "coverageTypes": ["medical"],
 "transactionSupport": {"eligibilityCheck": "SUPPORTED", "claimStatus": "NOT_SUPPORTED", "professionalClaimSubmission": "SUPPORTED",
   "institutionalClaimSubmission": "NOT_SUPPORTED", "dentalClaimSubmission": "NOT_SUPPORTED", "claimPayment": "NOT_SUPPORTED",
   "coordinationOfBenefits": "NOT_SUPPORTED", "unsolicitedClaimAttachment": "NOT_SUPPORTED"}}],
"enrollments": [{"payerId": "UHC", "accountId": "%ENROLLED%", "transactions": ["eligibilityCheck"]}]}`

// directoryClient serves the directory file (nil: the shipped directory)
// and returns a test-mode client.
func directoryClient(t *testing.T, file func(enrolled string) string) *lifecycleClient {
	c, _, _ := directoryServer(t, file)
	return c
}

// directoryServer serves the directory file made by file with the account
// id of "Enrolled", and returns a test key's client, a production key's
// client of "Enrolled", and a maker of other keys' clients.
func directoryServer(t *testing.T, file func(enrolled string) string) (test, enrolled *lifecycleClient, keyFor func(account, mode string) *lifecycleClient) {
	t.Helper()
	st := storetest.SQLite(t)
	var url string
	accountOf := map[*lifecycleClient]string{}
	keyFor = func(account, mode string) *lifecycleClient {
		key, rec, err := auth.CreateKey(context.Background(), st, account, mode, "", time.Now())
		if err != nil {
			t.Fatal(err)
		}
		c := &lifecycleClient{t: t, url: url, key: key}
		accountOf[c] = rec.AccountID
		return c
	}
	enrolled = keyFor("Enrolled", auth.ModeProduction)
	dir := payers.Default()
	if file != nil {
		f, err := payers.ParseDirectoryFile("directory.json", []byte(file(accountOf[enrolled])))
		if err != nil {
			t.Fatal(err)
		}
		if dir, err = dir.WithDirectoryFile("directory.json", f); err != nil {
			t.Fatal(err)
		}
	}
	url = apptest.New(t, apptest.Options{Store: st, Payers: dir}).URL
	enrolled.url = url
	return keyFor("Directory", auth.ModeTest), enrolled, keyFor
}

// The operator's directory file in every view of the directory: records
// with ENROLLMENT_REQUIRED, operating states and names, the search's
// filters over them, and the CSV in the hosted columns.
func TestPayerDirectoryFile(t *testing.T) {
	t.Parallel()
	c := directoryClient(t, func(enrolled string) string { return strings.Replace(enrollmentDirectory, "%ENROLLED%", enrolled, 1) })
	var got struct{ Payer payerRecord }
	c.do("GET", "/2024-04-01/payer/NEWPY", "", 200, &got)
	if got.Payer.PrimaryPayerID != "77001" || got.Payer.OperatingStates[0] != "TX" || got.Payer.TransactionSupport["eligibilityCheck"] != "SUPPORTED" {
		t.Errorf("NEWPY: %+v", got.Payer)
	}
	body := c.do("GET", "/2024-04-01/payer/uhc", "", 200, &got)
	if got.Payer.TransactionSupport["eligibilityCheck"] != "ENROLLMENT_REQUIRED" || got.Payer.TransactionSupport["coordinationOfBenefits"] != "NOT_SUPPORTED" ||
		strings.Contains(string(body), "enroll") && strings.Contains(string(body), "accountId") {
		t.Errorf("87726: %s", body)
	}
	var hits struct {
		Items []struct{ Payer payerRecord }
		Stats struct {
			Total                    int
			TransactionSupport       map[string]map[string]int
			TransactionSupportCounts map[string]struct {
				Supported struct{ EnrollmentRequired, Total int }
			}
		}
	}
	c.do("GET", "/2024-04-01/payers/search?eligibilityCheck=ENROLLMENT_REQUIRED", "", 200, &hits)
	if hits.Stats.Total != 1 || hits.Items[0].Payer.StediID != "87726" || hits.Stats.TransactionSupport["eligibilityCheck"]["enrollmentRequired"] != 1 ||
		hits.Stats.TransactionSupportCounts["claimPayment"].Supported.EnrollmentRequired != 1 {
		t.Errorf("ENROLLMENT_REQUIRED filter: %+v", hits)
	}
	c.do("GET", "/2024-04-01/payers/search?operatingStates=TX&query=lone+stra", "", 200, &hits)
	if hits.Stats.Total != 1 || hits.Items[0].Payer.StediID != "NEWPY" {
		t.Errorf("state filter: %+v", hits)
	}
	c.do("GET", "/2024-04-01/payers/search?query=lsh", "", 200, &hits)
	if hits.Stats.Total == 0 || hits.Items[0].Payer.StediID != "NEWPY" {
		t.Errorf("a search by another name: %+v", hits)
	}
	raw := c.doAccept("GET", "/2024-04-01/payers/csv", "text/csv", 200)
	rows, err := csv.NewReader(strings.NewReader(string(raw))).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(rows[0], ",") != strings.Join(payers.CSVColumns(), ",") || len(rows) != payers.Default().Len()+2 {
		t.Fatalf("CSV header %v, %d rows", rows[0], len(rows))
	}
	col := map[string]int{}
	for i, name := range rows[0] {
		col[name] = i
	}
	for _, row := range rows[1:] {
		v := func(name string) string { return row[col[name]] }
		if row[0] == "87726" && (v("EligibilityInquiry") != "true" || v("EligibilityInquiryEnrollmentRequired") != "true" ||
			v("CoordinationOfBenefits") != "false" || v("OperatingStates") != "NATIONAL" || v("Names") != "United Health Care") {
			t.Errorf("87726 row: %q", row)
		}
	}
	if !strings.HasPrefix(string(raw), `"StediId","PrimaryPayerId"`) {
		t.Errorf("CSV values are not quoted as the hosted CSV's: %.60s", raw)
	}
}

// An unknown payer in an eligibility check or a claim names the field
// and the closest directory entries; a payer that needs enrollment for the
// transaction refuses a production account the directory does not record
// as enrolled (403, nothing sent), and not an enrolled one or test mode.
func TestPayerErrorsSuggestAndEnrollment(t *testing.T) {
	t.Parallel()
	test, enrolled, keyFor := directoryServer(t, func(enrolled string) string { return strings.Replace(enrollmentDirectory, "%ENROLLED%", enrolled, 1) })
	eligibility := func(payer string) string {
		return `{"tradingPartnerServiceId":"` + payer + `","provider":{"organizationName":"Provider Name","npi":"1999999984"},
		"subscriber":{"memberId":"UHC123456","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"},
		"encounter":{"serviceTypeCodes":["30"]}}`
	}
	const eligibilityPath = "/2024-04-01/change/medicalnetwork/eligibility/v3"
	body := test.do("POST", eligibilityPath, eligibility("8772"), 400, nil)
	if !strings.Contains(string(body), `tradingPartnerServiceId \"8772\" names no payer`) || !strings.Contains(string(body), "Did you mean 87726 (UnitedHealthcare)") {
		t.Errorf("eligibility, unknown payer: %s", body)
	}
	dental, _ := os.ReadFile("../claims/testdata/example.json")
	claims := []struct{ path, body string }{
		{"/2024-04-01/dental-claims/submission", strings.Replace(string(dental), `"52133"`, `"5213"`, 1)},
		{professionalPath + "/submission", medicalClaim(t, "professional/example.json", func(m map[string]any) { m["tradingPartnerServiceId"] = "6230" })},
		{institutionalPath + "/submission", medicalClaim(t, "institutional/example.json", func(m map[string]any) { m["tradingPartnerServiceId"] = "87762" })},
	}
	want := []string{"52133 (UnitedHealthcare Dental)", "62308 (Cigna)", "87726 (UnitedHealthcare)"}
	for i, cl := range claims {
		var e struct {
			Code      string
			Message   string
			FieldList []struct{ Path, Message string }
		}
		test.do("POST", cl.path, cl.body, 400, &e)
		if len(e.FieldList) != 1 || e.FieldList[0].Path != "/tradingPartnerServiceId" || !strings.Contains(e.Message, "Did you mean "+want[i]) {
			t.Errorf("%s, unknown payer: %+v", cl.path, e)
		}
	}

	body = test.do("POST", "/2024-04-01/change/medicalnetwork/claimstatus/v2", strings.Replace(exampleClaimStatusRequest, `"52133"`, `"52313"`, 1), 400, nil)
	if !strings.Contains(string(body), "Did you mean 52133 (UnitedHealthcare Dental)") {
		t.Errorf("claim status, unknown payer: %s", body)
	}

	other := keyFor("Other", auth.ModeProduction)
	var refused struct {
		Code      string
		Message   string
		FieldList []struct{ Path string }
	}
	other.do("POST", eligibilityPath, eligibility("87726"), http.StatusForbidden, &refused)
	if refused.Code != "FORBIDDEN" || !strings.Contains(refused.Message, "requires transaction enrollment for eligibilityCheck") ||
		len(refused.FieldList) != 1 || refused.FieldList[0].Path != "/tradingPartnerServiceId" {
		t.Errorf("eligibility without enrollment: %+v", refused)
	}
	other.do("POST", "/2024-04-01/dental-claims/submission", string(dental), http.StatusForbidden, &refused)
	if !strings.Contains(refused.Message, "requires transaction enrollment for dentalClaimSubmission") {
		t.Errorf("dental claim without enrollment: %+v", refused)
	}
	other.do("POST", "/2024-04-01/change/medicalnetwork/claimstatus/v2", strings.Replace(exampleClaimStatusRequest, `"52133"`, `"87726"`, 1), http.StatusForbidden, &refused)
	if !strings.Contains(refused.Message, "requires transaction enrollment for claimStatus") {
		t.Errorf("claim status without enrollment: %+v", refused)
	}
	// The enrolled account passes the enrollment check, to the next
	// refusal: no production connection reaches the payer here.
	body = enrolled.do("POST", eligibilityPath, eligibility("87726"), 400, nil)
	if strings.Contains(string(body), "enrollment") || !strings.Contains(string(body), "no production connection") {
		t.Errorf("eligibility of the enrolled account: %s", body)
	}
	// Test mode reaches the mock payers, which need no enrollment.
	var answer json.RawMessage
	test.do("POST", eligibilityPath, eligibility("87726"), 200, &answer)
}

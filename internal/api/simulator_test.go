package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store"
)

const scenarioPath = "/2024-04-01/mock-payer/scenarios"

// simulatorFile is the "done when" scenario: a member of the
// test's own, a plan with a $2,500 deductible of which $1,000 is met, and
// claims denied with CARC 197 (no prior authorization).
const simulatorFile = `{
  "scenarios": [
    {
      "name": "hdhp-denied-197",
      "match": {"payerId": "52133", "memberId": "SIM0001"},
      "eligibility": {
        "benefits": {
          "planName": "SIMULATED DENTAL PPO",
          "coverageBegin": "20260101",
          "coverageEnd": "20261231",
          "serviceTypeCodes": ["35"],
          "deductibles": [{"level": "individual", "serviceTypeCode": "35", "amount": "2500", "remaining": "1500", "inNetwork": true}]
        }
      },
      "claim": {"remittance": {"outcome": "denied", "groupCode": "CO", "carc": "197"}}
    }
  ]
}
`

const simulatorEligibility = `{"tradingPartnerServiceId": "52133", "controlNumber": "123456789",
 "provider": {"organizationName": "Test Dental", "npi": "1999999984"},
 "subscriber": {"memberId": "SIM0001", "firstName": "Sam", "lastName": "Simulated", "dateOfBirth": "19800101"},
 "encounter": {"serviceTypeCodes": ["35"]}}`

type simBenefit struct {
	Code                       string   `json:"code"`
	CoverageLevelCode          string   `json:"coverageLevelCode"`
	ServiceTypeCodes           []string `json:"serviceTypeCodes"`
	PlanCoverage               string   `json:"planCoverage"`
	TimeQualifierCode          string   `json:"timeQualifierCode"`
	BenefitAmount              string   `json:"benefitAmount"`
	InPlanNetworkIndicatorCode string   `json:"inPlanNetworkIndicatorCode"`
}

func TestPayerSimulatorDoneWhen(t *testing.T) {
	t.Parallel()
	f, account := claimServer(t)
	published := publishedAnswers(t, f)
	file := filepath.Join(t.TempDir(), "scenarios.json")
	if err := os.WriteFile(file, []byte(simulatorFile), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var stored struct {
		Scenarios []struct {
			Name string `json:"name"`
			Line int    `json:"line"`
		} `json:"scenarios"`
	}
	f.json("PUT", scenarioPath, string(data), 200, &stored)
	if len(stored.Scenarios) != 1 || stored.Scenarios[0].Name != "hdhp-denied-197" || stored.Scenarios[0].Line != 3 {
		t.Fatalf("PUT answered %+v", stored)
	}
	if resp, body := f.call("GET", scenarioPath, f.key, "", false); resp.StatusCode != 200 || string(body) != simulatorFile {
		t.Fatalf("GET: %d %s", resp.StatusCode, body)
	}

	// The check answers with exactly the scenario's benefits.
	resp, body := f.post(eligibilityPath, f.key, simulatorEligibility)
	if resp.StatusCode != 200 {
		t.Fatalf("check: %d %s", resp.StatusCode, body)
	}
	var check struct {
		Meta struct {
			TraceID string `json:"traceId"`
		} `json:"meta"`
		Subscriber struct {
			MemberID string `json:"memberId"`
		} `json:"subscriber"`
		TraceNumbers []struct {
			SecondaryReferenceIdentification string `json:"secondaryReferenceIdentification"`
		} `json:"subscriberTraceNumbers"`
		PlanDateInformation map[string]string `json:"planDateInformation"`
		Benefits            []simBenefit      `json:"benefitsInformation"`
	}
	if err := json.Unmarshal(body, &check); err != nil {
		t.Fatal(err)
	}
	want := []simBenefit{
		{Code: "1", CoverageLevelCode: "IND", ServiceTypeCodes: []string{"35"}, PlanCoverage: "SIMULATED DENTAL PPO"},
		{Code: "C", CoverageLevelCode: "IND", ServiceTypeCodes: []string{"35"}, PlanCoverage: "SIMULATED DENTAL PPO", TimeQualifierCode: "23", BenefitAmount: "2500", InPlanNetworkIndicatorCode: "Y"},
		{Code: "C", CoverageLevelCode: "IND", ServiceTypeCodes: []string{"35"}, PlanCoverage: "SIMULATED DENTAL PPO", TimeQualifierCode: "29", BenefitAmount: "1500", InPlanNetworkIndicatorCode: "Y"},
	}
	got, _ := json.Marshal(check.Benefits)
	wantJSON, _ := json.Marshal(want)
	if string(got) != string(wantJSON) {
		t.Errorf("benefits\n got %s\nwant %s", got, wantJSON)
	}
	if check.Subscriber.MemberID != "SIM0001" || check.PlanDateInformation["plan"] != "20260101-20261231" {
		t.Errorf("subscriber %+v plan dates %v", check.Subscriber, check.PlanDateInformation)
	}
	named := false
	for _, tr := range check.TraceNumbers {
		named = named || tr.SecondaryReferenceIdentification == "hdhp-denied-197"
	}
	if !named {
		t.Errorf("the answer does not name its scenario: %s", body)
	}
	// The stored check keeps the scenario's name.
	var ref struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal(body, &ref); err != nil || ref.ID == "" {
		t.Fatalf("check id: %v %s", err, body)
	}
	// The stored check records the scenario that answered it.
	var detail struct {
		SimulatedBy *struct {
			Scenario    string
			Index, Line int
		} `json:"simulatedBy"`
	}
	f.json("GET", "/2024-04-01/eligibility-checks/"+ref.ID, "", 200, &detail)
	if s := detail.SimulatedBy; s == nil || s.Scenario != "hdhp-denied-197" || s.Index != 0 || s.Line != 3 {
		t.Errorf("stored check simulatedBy %+v", s)
	}

	// A dental claim for that member is denied with CARC 197 in its 835.
	claim := exampleClaim(t, func(m map[string]any) {
		m["subscriber"].(map[string]any)["memberId"] = "SIM0001"
	})
	if resp, body := f.post(claimPath, f.key, claim); resp.StatusCode != 200 {
		t.Fatalf("claim: %d %s", resp.StatusCode, body)
	}
	report := waitFor835(t, f)
	pay := report.Transactions[0].DetailInfo[0].PaymentInfo[0]
	if pay.ClaimPaymentInfo.ClaimStatusCode != "4" || pay.ClaimPaymentInfo.ClaimPaymentAmount != "0" {
		t.Errorf("claim payment %+v", pay.ClaimPaymentInfo)
	}
	carcs := 0
	for _, line := range pay.ServiceLines {
		for _, adj := range line.ServiceAdjustments {
			if adj.ClaimAdjustmentGroupCode != "CO" || adj.AdjustmentReasonCode1 != "197" {
				t.Errorf("adjustment %+v, want CO-197", adj)
			}
			carcs++
		}
	}
	if carcs == 0 {
		t.Errorf("no CARC in the 835: %+v", pay)
	}
	var answer string
	var row store.ClaimRow
	for range 100 {
		rows, _, err := f.store.ListDentalClaims(context.Background(), account, store.DentalClaimFilter{Mode: store.ModeTest})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) > 0 {
			row, answer = rows[0], rows[0].Answer
		}
		if answer == "denied" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if answer != "denied" {
		t.Errorf("the claim's answer is %q, want denied", answer)
	}
	// Its 277CA and 835 are recorded with the scenario that produced them.
	sims, err := store.ForTenant(f.store, store.Scope{AccountID: account, Mode: store.ModeTest}).
		SimulatedAnswers(context.Background(), store.ClaimSubject(row.ExecutionID, row.PatientControlNumber))
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, s := range sims {
		if s.Scenario != "hdhp-denied-197" || s.Index != 0 || s.Line != 3 {
			t.Errorf("simulated answer %+v", s)
		}
		kinds = append(kinds, s.Kind)
	}
	if strings.Join(kinds, " ") != "277CA 835" {
		t.Errorf("the claim's simulated answers: %v, want 277CA and 835", kinds)
	}

	// The published mocks still answer, next to the account's scenarios,
	// exactly as they did before the upload (TestEligibilityMockScenariosOverHTTP
	// pins those answers).
	for _, mr := range mockpayer.Requests() {
		resp, body := f.post(eligibilityPath, f.key, string(mr.RequestJSON()))
		if resp.StatusCode != 200 {
			t.Errorf("published mock %s: %d %.300s", mr.Name, resp.StatusCode, body)
			continue
		}
		if got := answerParts(t, body); got != published[mr.Name] {
			t.Errorf("published mock %s with scenarios uploaded:\n got %s\nwant %s", mr.Name, got, published[mr.Name])
		}
	}
}

// publishedAnswers is what every published mock request answers.
func publishedAnswers(t *testing.T, f *filesServer) map[string]string {
	t.Helper()
	out := map[string]string{}
	for _, mr := range mockpayer.Requests() {
		resp, body := f.post(eligibilityPath, f.key, string(mr.RequestJSON()))
		if resp.StatusCode != 200 {
			t.Fatalf("published mock %s: %d %.300s", mr.Name, resp.StatusCode, body)
		}
		out[mr.Name] = answerParts(t, body)
	}
	return out
}

// answerParts is what a published mock's answer says about the member:
// everything but ids, trace and control numbers.
func answerParts(t *testing.T, body []byte) string {
	t.Helper()
	var m map[string]json.RawMessage
	if err := json.Unmarshal(body, &m); err != nil {
		t.Fatal(err)
	}
	parts := map[string]json.RawMessage{}
	for _, k := range []string{"tradingPartnerServiceId", "provider", "subscriber", "dependents", "payer", "planInformation",
		"planDateInformation", "planStatus", "benefitsInformation", "errors"} {
		parts[k] = m[k]
	}
	out, err := json.Marshal(parts) // compacts and orders the keys
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

type report835 struct {
	Transactions []struct {
		DetailInfo []struct {
			PaymentInfo []struct {
				ClaimPaymentInfo struct {
					PatientControlNumber, ClaimStatusCode, TotalClaimChargeAmount, ClaimPaymentAmount string
				} `json:"claimPaymentInfo"`
				ServiceLines []struct {
					ServiceAdjustments []struct {
						ClaimAdjustmentGroupCode string `json:"claimAdjustmentGroupCode"`
						AdjustmentReasonCode1    string `json:"adjustmentReasonCode1"`
					} `json:"serviceAdjustments"`
				} `json:"serviceLines"`
			} `json:"paymentInfo"`
		} `json:"detailInfo"`
	} `json:"transactions"`
}

func waitFor835(t *testing.T, f *filesServer) report835 {
	t.Helper()
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		var txs struct {
			Items []struct {
				TransactionID string `json:"transactionId"`
			} `json:"items"`
		}
		f.json("GET", "/2023-08-01/transactions", "", 200, &txs)
		for _, tx := range txs.Items {
			path := "/2024-04-01/change/medicalnetwork/reports/v2/" + tx.TransactionID + "/835"
			if resp, body := f.call("GET", path, f.key, "", false); resp.StatusCode == 200 {
				var r report835
				if err := json.Unmarshal(body, &r); err != nil {
					t.Fatal(err)
				}
				return r
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Fatal("no 835 arrived within 30 s of the claim")
	return report835{}
}

// An account's scenarios are its own, in test mode: another account's
// test key neither reads them nor gets their answers, a production key of
// the same account has none and cannot upload, and a file with a problem
// is refused whole, naming the line and field.
func TestPayerSimulatorTenancyAndErrors(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	ctx := context.Background()
	f.json("PUT", scenarioPath, simulatorFile, 200, nil)
	rival, _, err := auth.CreateKey(ctx, f.store, "Rival", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	prod, _, err := auth.CreateKey(ctx, f.store, "Clinic", auth.ModeProduction, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, method, key, body string
		want                    int
	}{
		{"rival reads", "GET", rival, "", 404},
		{"rival deletes", "DELETE", rival, "", 404},
		{"rival checks the member", "POST", rival, simulatorEligibility, 403},
		{"production reads", "GET", prod, "", 404},
		{"production uploads", "PUT", prod, simulatorFile, 403},
		{"production deletes", "DELETE", prod, "", 404},
	} {
		path := scenarioPath
		if c.method == "POST" {
			path = eligibilityPath
		}
		req, _ := http.NewRequest(c.method, f.url+path, strings.NewReader(c.body))
		req.Header.Set("Authorization", c.key)
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != c.want {
			t.Errorf("%s: %d, want %d", c.name, resp.StatusCode, c.want)
		}
	}
	// The owner still has its file and its answers.
	if resp, body := f.call("GET", scenarioPath, f.key, "", false); resp.StatusCode != 200 || string(body) != simulatorFile {
		t.Errorf("owner GET: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.post(eligibilityPath, f.key, simulatorEligibility); resp.StatusCode != 200 {
		t.Errorf("owner check: %d %.300s", resp.StatusCode, body)
	}

	bad := strings.Replace(simulatorFile, `"amount": "2500"`, `"amount": "2,500"`, 1)
	resp, body := f.call("PUT", scenarioPath, f.key, bad, false)
	var e struct {
		Code      string `json:"code"`
		FieldList []struct{ Path, Message string }
	}
	if resp.StatusCode != 400 || json.Unmarshal(body, &e) != nil || e.Code != "VALIDATION_ERROR" || len(e.FieldList) != 1 ||
		e.FieldList[0].Path != "/scenarios/0/eligibility/benefits/deductibles/0/amount" || !strings.HasPrefix(e.FieldList[0].Message, "line 12: ") {
		t.Errorf("bad file: %d %s", resp.StatusCode, body)
	}
	if resp, body := f.call("GET", scenarioPath, f.key, "", false); string(body) != simulatorFile {
		t.Errorf("a refused upload changed the file: %d %s", resp.StatusCode, body)
	}
	if resp, _ := f.call("DELETE", scenarioPath, f.key, "", false); resp.StatusCode != 204 {
		t.Errorf("DELETE: %d", resp.StatusCode)
	}
	if resp, _ := f.post(eligibilityPath, f.key, simulatorEligibility); resp.StatusCode != 403 {
		t.Errorf("after DELETE the member is outside the mock set again: %d", resp.StatusCode)
	}
}

// A payer whose connection drops answers as an unreachable payer (503),
// not as a mistake of the caller.
func TestPayerSimulatorDroppedConnection(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	f.json("PUT", scenarioPath, `{"scenarios": [{"name": "drops", "match": {"memberId": "SIM0001"}, "eligibility": {"drop": true}}]}`, 200, nil)
	resp, body := f.post(eligibilityPath, f.key, simulatorEligibility)
	if resp.StatusCode != http.StatusServiceUnavailable || !strings.Contains(string(body), "could not be reached") {
		t.Errorf("dropped connection: %d %s", resp.StatusCode, body)
	}
}

// The same file as YAML: stored as uploaded and read back as YAML, the
// check answers its deductible, and a problem names the YAML's line.
func TestPayerSimulatorYAML(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	yamlFile := `scenarios:
  - name: hdhp-denied-197
    match: {payerId: 52133, memberId: SIM0001}
    eligibility:
      benefits:
        planName: SIMULATED DENTAL PPO
        serviceTypeCodes: [35]
        deductibles: [{serviceTypeCode: 35, amount: 2500, remaining: 1500}]
    claim:
      remittance: {outcome: denied, carc: 197}
`
	var stored struct {
		Scenarios []struct {
			Name string `json:"name"`
			Line int    `json:"line"`
		} `json:"scenarios"`
	}
	f.json("PUT", scenarioPath, yamlFile, 200, &stored)
	if len(stored.Scenarios) != 1 || stored.Scenarios[0].Line != 2 {
		t.Fatalf("PUT answered %+v", stored)
	}
	resp, body := f.call("GET", scenarioPath, f.key, "", false)
	if resp.StatusCode != 200 || string(body) != yamlFile || resp.Header.Get("Content-Type") != "application/yaml" {
		t.Errorf("GET: %d %s %s", resp.StatusCode, resp.Header.Get("Content-Type"), body)
	}
	resp, body = f.post(eligibilityPath, f.key, simulatorEligibility)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"benefitAmount":"2500"`) || !strings.Contains(string(body), `"benefitAmount":"1500"`) {
		t.Errorf("check: %d %.600s", resp.StatusCode, body)
	}
	bad := strings.Replace(yamlFile, "carc: 197", "carc: 1977", 1)
	resp, body = f.call("PUT", scenarioPath, f.key, bad, false)
	if resp.StatusCode != 400 || !strings.Contains(string(body), `"path":"/scenarios/0/claim/remittance/carc"`) ||
		!strings.Contains(string(body), "line 10: ") {
		t.Errorf("bad YAML: %d %s", resp.StatusCode, body)
	}
}

package api_test

import (
	"os"
	"strings"
	"testing"
)

const institutionalPath = "/2024-04-01/change/medicalnetwork/institutionalclaims/v1"

// The contract's institutional example, as published, answers 200 with a
// test key; its raw-X12 sibling (005010X223A2, component separator >) too.
func TestInstitutionalClaimOverHTTP(t *testing.T) {
	t.Parallel()
	f, _ := medicalServer(t)
	resp, body := f.post(institutionalPath+"/submission", "Key "+f.key, medicalClaim(t, "institutional/example.json", nil), "Idempotency-Key", "i-1")
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"lineItemControlNumber":"111222333"`) || !strings.Contains(string(body), `"payerId":"87726"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	resp2, body2 := f.post(institutionalPath+"/submission", "Key "+f.key, medicalClaim(t, "institutional/example.json", nil), "Idempotency-Key", "i-1")
	if resp2.StatusCode != 200 || string(body2) != string(body) {
		t.Errorf("replay: %d %s", resp2.StatusCode, body2)
	}
	raw, err := os.ReadFile("../claims/testdata/institutional/raw-example.json")
	if err != nil {
		t.Fatal(err)
	}
	if resp, body := f.post(institutionalPath+"/raw-x12-submission", "Key "+f.key, string(raw)); resp.StatusCode != 200 {
		t.Errorf("raw: %d %s", resp.StatusCode, body)
	}
}

// Each failed edit is a 400 naming the JSON field and the fix.
func TestInstitutionalClaimEditsOverHTTP(t *testing.T) {
	t.Parallel()
	f, _ := medicalServer(t)
	line0 := func(m map[string]any) map[string]any {
		return sub(m, "claimInformation")["serviceLines"].([]any)[0].(map[string]any)
	}
	tests := []struct {
		name  string
		edit  func(m map[string]any)
		field string
		says  string
	}{
		{"charge is not the sum of the lines (SNIP 3)", func(m map[string]any) { sub(m, "claimInformation")["claimChargeAmount"] = "400" },
			"/claimInformation/claimChargeAmount", "sum of the service lines"},
		{"three-digit revenue code", func(m map[string]any) { sub(line0(m), "institutionalService")["serviceLineRevenueCode"] = "800" },
			"/claimInformation/serviceLines/0/institutionalService/serviceLineRevenueCode", "leading zero"},
		{"type of bill", func(m map[string]any) { sub(m, "claimInformation")["placeOfServiceCode"] = "91" },
			"/claimInformation/placeOfServiceCode", "facility type code"},
		{"still a patient on a finished stay", func(m map[string]any) {
			sub(m, "claimInformation")["claimFrequencyCode"] = "1"
			sub(m, "claimInformation", "claimDateInformation")["dischargeHour"] = "1100"
		}, "/claimInformation/claimCodeInformation/patientStatusCode", "contradicts claimFrequencyCode 1"},
		{"inpatient without admission date (SNIP 4)", func(m map[string]any) {
			delete(sub(m, "claimInformation", "claimDateInformation"), "admissionDateAndHour")
		}, "/claimInformation/claimDateInformation/admissionDateAndHour", "inpatient"},
		{"statement period backwards", func(m map[string]any) {
			sub(m, "claimInformation", "claimDateInformation")["statementEndDate"] = "20241001"
		},
			"/claimInformation/claimDateInformation/statementEndDate", "before statementBeginDate"},
		{"no attending provider (SNIP 4)", func(m map[string]any) { m["providers"] = m["providers"].([]any)[:1] },
			"/attending", "attending provider"},
		{"ICD-10 principal diagnosis shape", func(m map[string]any) {
			sub(m, "claimInformation", "principalDiagnosis")["principalDiagnosisCode"] = "R45.851"
		},
			"/claimInformation/principalDiagnosis/principalDiagnosisCode", "without the dot"},
		{"billing NPI check digit", func(m map[string]any) { m["providers"].([]any)[0].(map[string]any)["npi"] = "1999999977" },
			"/providers/0/npi", "check digit"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.post(institutionalPath+"/submission", "Key "+f.key, medicalClaim(t, "institutional/example.json", tt.edit))
			if resp.StatusCode != 400 || !strings.Contains(string(body), tt.field) || !strings.Contains(string(body), tt.says) {
				t.Errorf("%d %s", resp.StatusCode, body)
			}
		})
	}
}

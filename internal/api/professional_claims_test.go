package api_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/store"
)

const professionalPath = "/2024-04-01/change/medicalnetwork/professionalclaims/v3"

// medicalClaim reads a claims testdata request and applies edit to its
// JSON.
func medicalClaim(t *testing.T, file string, edit func(m map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile("../claims/testdata/" + file)
	if err != nil {
		t.Fatal(err)
	}
	if edit == nil {
		return string(b)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	out, _ := json.Marshal(m)
	return string(out)
}

// medicalServer is the files server with the test key's mock partnerships
// of Cigna (62308, the professional example's payer 6400) and
// UnitedHealthcare (87726, the institutional example's).
func medicalServer(t *testing.T) (*filesServer, string) {
	f := newFilesServer(t)
	k, err := f.store.GetAPIKey(context.Background(), strings.Split(f.key, "_")[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := claimstest.SetupMockPartners(context.Background(), f.store, k.AccountID, store.ModeTest, "62308", "87726"); err != nil {
		t.Fatal(err)
	}
	return f, k.AccountID
}

func sub(m map[string]any, path ...string) map[string]any {
	for _, p := range path {
		m = m[p].(map[string]any)
	}
	return m
}

// The contract's professional example, as published, answers 200 with a
// test key; its Idempotency-Key replays the answer, another body is 422;
// the validation endpoint checks it and stores nothing.
func TestProfessionalClaimOverHTTP(t *testing.T) {
	t.Parallel()
	f, account := medicalServer(t)
	claim := medicalClaim(t, "professional/example.json", nil)
	resp, body := f.post(professionalPath+"/submission", "Key "+f.key, claim, "Idempotency-Key", "p-1")
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var got struct {
		Status         string `json:"status"`
		ControlNumber  string `json:"controlNumber"`
		HTTPStatusCode string `json:"httpStatusCode"`
		ClaimReference struct {
			CorrelationID        string `json:"correlationId"`
			PatientControlNumber string `json:"patientControlNumber"`
			ServiceLines         []struct {
				LineItemControlNumber string `json:"lineItemControlNumber"`
			} `json:"serviceLines"`
		} `json:"claimReference"`
		Payer struct {
			PayerID   string `json:"payerId"`
			PayerName string `json:"payerName"`
		} `json:"payer"`
		Meta struct {
			TraceID string `json:"traceId"`
		} `json:"meta"`
		X12 string `json:"x12"`
	}
	if err := json.Unmarshal(body, &got); err != nil {
		t.Fatal(err)
	}
	if got.Status != "SUCCESS" || got.HTTPStatusCode != "200 OK" || got.ControlNumber == "" || got.ClaimReference.PatientControlNumber != "123456789" ||
		len(got.ClaimReference.ServiceLines) != 1 || got.ClaimReference.ServiceLines[0].LineItemControlNumber != "111222333" ||
		got.Payer.PayerID != "62308" || got.Meta.TraceID == "" || !strings.Contains(got.X12, "STC*A1:20") {
		t.Errorf("answer: %s", body)
	}
	claim2, err := f.store.GetDentalClaim(context.Background(), account, got.ClaimReference.CorrelationID)
	if err != nil || claim2.ChargeCents != 10920 || claim2.PatientName != "John Anon" {
		t.Fatalf("stored claim %+v, %v", claim2, err)
	}
	e, err := f.store.GetExecution(context.Background(), account, claim2.ExecutionID)
	// Pending delivery when answered; the server's workers may have delivered it since.
	if err != nil || (e.Status != store.ExecutionPendingDelivery && e.Status != store.ExecutionDelivered) || e.SourceDirname != "professional-claims" {
		t.Errorf("outbound execution %+v, %v", e, err)
	}
	resp2, body2 := f.post(professionalPath+"/submission", "Key "+f.key, claim, "Idempotency-Key", "p-1")
	if resp2.StatusCode != 200 || string(body2) != string(body) || resp2.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %s", resp2.StatusCode, body2)
	}
	other := medicalClaim(t, "professional/example.json", func(m map[string]any) { sub(m, "claimInformation")["patientControlNumber"] = "OTHER1" })
	if resp, b := f.post(professionalPath+"/submission", "Key "+f.key, other, "Idempotency-Key", "p-1"); resp.StatusCode != 422 {
		t.Errorf("changed body: %d %s", resp.StatusCode, b)
	}
	// Validation: every check, nothing stored.
	// (The mock payer's answers to the claim above arrive meanwhile: count
	// only outbound claim files.)
	claimFiles := func() int {
		list, _, err := f.store.ListExecutions(context.Background(), account, store.ExecutionFilter{Limit: 100})
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for _, e := range list {
			if e.Direction == store.DirectionOutbound && e.SourceDirname == "professional-claims" {
				n++
			}
		}
		return n
	}
	before := claimFiles()
	resp3, body3 := f.post(professionalPath+"/validation", "Key "+f.key, claim)
	if resp3.StatusCode != 200 || !strings.Contains(string(body3), `"editStatus":"SUCCESS"`) {
		t.Errorf("validation: %d %s", resp3.StatusCode, body3)
	}
	if after := claimFiles(); after != before {
		t.Errorf("validation stored %d claim files", after-before)
	}
}

// Each failed edit is a 400 naming the JSON field and the fix.
func TestProfessionalClaimEditsOverHTTP(t *testing.T) {
	t.Parallel()
	f, _ := medicalServer(t)
	tests := []struct {
		name  string
		edit  func(m map[string]any)
		field string
		says  string
	}{
		{"charge is not the sum of the lines (SNIP 3)", func(m map[string]any) { sub(m, "claimInformation")["claimChargeAmount"] = "100" },
			"/claimInformation/claimChargeAmount", "sum of the service lines"},
		{"NPI check digit", func(m map[string]any) { sub(m, "billing")["npi"] = "1999999985" },
			"/billing/npi", "check digit"},
		{"ICD-10 with a dot", func(m map[string]any) {
			sub(m, "claimInformation")["healthCareCodeInformation"] = []any{map[string]any{"diagnosisTypeCode": "ABK", "diagnosisCode": "F11.11"}}
		}, "/claimInformation/healthCareCodeInformation/0/diagnosisCode", "without the dot"},
		{"CDT code on a professional claim", func(m map[string]any) {
			line := sub(m, "claimInformation")["serviceLines"].([]any)[0].(map[string]any)
			sub(line, "professionalService")["procedureCode"] = "D1110"
		}, "/claimInformation/serviceLines/0/professionalService/procedureCode", "dental claim"},
		{"place of service", func(m map[string]any) { sub(m, "claimInformation")["placeOfServiceCode"] = "98" },
			"/claimInformation/placeOfServiceCode", "place of service"},
		{"pointer past the diagnoses", func(m map[string]any) {
			line := sub(m, "claimInformation")["serviceLines"].([]any)[0].(map[string]any)
			sub(line, "professionalService", "compositeDiagnosisCodePointers")["diagnosisCodePointers"] = []any{"2"}
		}, "/claimInformation/serviceLines/0/professionalService/compositeDiagnosisCodePointers/diagnosisCodePointers/0", "holds 1"},
		{"referral without a referring provider (SNIP 4)", func(m map[string]any) {
			sub(m, "claimInformation")["claimSupplementalInformation"] = map[string]any{"referralNumber": "R123"}
		}, "/referring", "referralNumber"},
		{"ambulance without CR1 (SNIP 4)", func(m map[string]any) { sub(m, "claimInformation")["placeOfServiceCode"] = "41" },
			"/claimInformation/ambulanceTransportInformation", "ambulance"},
		{"zero units", func(m map[string]any) {
			line := sub(m, "claimInformation")["serviceLines"].([]any)[0].(map[string]any)
			sub(line, "professionalService")["serviceUnitCount"] = "0"
		}, "/claimInformation/serviceLines/0/professionalService/serviceUnitCount", "above 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, body := f.post(professionalPath+"/submission", "Key "+f.key, medicalClaim(t, "professional/example.json", tt.edit))
			if resp.StatusCode != 400 || !strings.Contains(string(body), tt.field) || !strings.Contains(string(body), tt.says) {
				t.Errorf("%d %s", resp.StatusCode, body)
			}
		})
	}
}

// The contract's raw-X12 example (component separator >) is validated
// against the guide, rewritten in our delimiters and submitted.
func TestProfessionalRawX12OverHTTP(t *testing.T) {
	t.Parallel()
	f, _ := medicalServer(t)
	b, err := os.ReadFile("../claims/testdata/professional/raw-example.json")
	if err != nil {
		t.Fatal(err)
	}
	resp, body := f.post(professionalPath+"/raw-x12-submission", "Key "+f.key, string(b))
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"lineItemControlNumber":"111222333"`) {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	// A dental 837D sent to the professional endpoint is refused by its GS08.
	dental, err := os.ReadFile("../claims/testdata/golden/example.837d")
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(map[string]string{"x12": string(dental)})
	if resp, body := f.post(professionalPath+"/raw-x12-submission", "Key "+f.key, string(raw)); resp.StatusCode != 400 || !strings.Contains(string(body), "005010X222A1") {
		t.Errorf("837D to the 837P endpoint: %d %s", resp.StatusCode, body)
	}
}

package api_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
)

// An 835 received as a file is readable as the contract's report JSON and
// as an ERA PDF; another account, the other mode and the wrong report type
// all answer 404.
func TestReports835(t *testing.T) {
	t.Parallel()
	f := newFilesServer(t)
	ex := f.upload("era.x12", coretest.Gen835([]int{1}, 3, 0))
	if ex["status"] != "COMPLETED" {
		t.Fatalf("execution %v", ex)
	}
	var txs struct {
		Items []struct {
			TransactionID string `json:"transactionId"`
		} `json:"items"`
	}
	f.json("GET", "/2023-08-01/executions/"+ex["executionId"].(string)+"/transactions", "", 200, &txs)
	if len(txs.Items) != 1 {
		t.Fatalf("transactions %+v", txs)
	}
	id := txs.Items[0].TransactionID

	var report struct {
		Meta struct {
			ApplicationMode, SenderID, TransactionID string
		} `json:"meta"`
		Transactions []struct {
			ControlNumber string `json:"controlNumber"`
			DetailInfo    []struct {
				PaymentInfo []struct {
					ClaimPaymentInfo struct {
						PatientControlNumber string `json:"patientControlNumber"`
						ClaimPaymentAmount   string `json:"claimPaymentAmount"`
					} `json:"claimPaymentInfo"`
				} `json:"paymentInfo"`
			} `json:"detailInfo"`
			FinancialInformation struct {
				TotalActualProviderPaymentAmount string `json:"totalActualProviderPaymentAmount"`
			} `json:"financialInformation"`
		} `json:"transactions"`
	}
	path := "/2024-04-01/change/medicalnetwork/reports/v2/" + id + "/835"
	f.json("GET", path, "", 200, &report)
	if report.Meta.ApplicationMode != "test" || report.Meta.SenderID != "PAYERSENDER" || report.Meta.TransactionID != id {
		t.Errorf("meta %+v", report.Meta)
	}
	if len(report.Transactions) != 1 || len(report.Transactions[0].DetailInfo) == 0 {
		t.Fatalf("report %+v", report)
	}
	claims := 0
	for _, d := range report.Transactions[0].DetailInfo {
		for _, p := range d.PaymentInfo {
			claims++
			if p.ClaimPaymentInfo.PatientControlNumber == "" || p.ClaimPaymentInfo.ClaimPaymentAmount == "" {
				t.Errorf("claim payment %+v", p)
			}
		}
	}
	if claims != 3 || report.Transactions[0].FinancialInformation.TotalActualProviderPaymentAmount != "1350.00" {
		t.Errorf("%d claims, BPR02 %q", claims, report.Transactions[0].FinancialInformation.TotalActualProviderPaymentAmount)
	}

	// The PDF: base64 by default, the bytes when asked for, inert either way.
	pdfPath := "/2024-04-01/electronic-remittance-advice/" + id + "/pdf"
	resp, body := f.call("GET", pdfPath, f.key, "", false)
	raw, err := base64.StdEncoding.DecodeString(string(body))
	if resp.StatusCode != 200 || err != nil || !strings.HasPrefix(string(raw), "%PDF-") {
		t.Fatalf("GET %s: %d, base64 error %v, %.20q", pdfPath, resp.StatusCode, err, body)
	}
	req, _ := http.NewRequest("GET", f.url+pdfPath, nil)
	req.Header.Set("Authorization", f.key)
	req.Header.Set("Accept", "application/pdf")
	pdfResp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	pdfResp.Body.Close()
	h := pdfResp.Header
	if pdfResp.StatusCode != 200 || h.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(h.Get("Content-Disposition"), "attachment") ||
		h.Get("X-Content-Type-Options") != "nosniff" || !strings.Contains(h.Get("Content-Security-Policy"), "sandbox") {
		t.Errorf("PDF answer %d %v", pdfResp.StatusCode, h)
	}

	// Nobody else reaches it, and an 835 is no 277.
	prodSameAccount, _, err := auth.CreateKey(context.Background(), f.store, "Clinic", auth.ModeProduction, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, key, path string }{
		{"other account", f.otherKey, path},
		{"other account's PDF", f.otherKey, pdfPath},
		{"same account, production key", prodSameAccount, path},
		{"same account, production key, PDF", prodSameAccount, pdfPath},
		{"an 835 asked for as a 277", f.key, "/2024-04-01/change/medicalnetwork/reports/v2/" + id + "/277"},
		{"no such transaction", f.key, "/2024-04-01/change/medicalnetwork/reports/v2/00000000-0000-0000-0000-000000000000/835"},
	} {
		resp, body := f.call("GET", c.path, c.key, "", false)
		var e struct{ Code string }
		if resp.StatusCode != http.StatusNotFound || json.Unmarshal(body, &e) != nil || e.Code == "" {
			t.Errorf("%s: %d %s", c.name, resp.StatusCode, body)
		}
	}
}

// The whole test-mode road of a dental claim, with no manual step: the
// claim is delivered to the mock payer, its 999 and 277CA come back, and
// some seconds later its 835, which pays it (partly: member PARTIAL0001),
// marks the claim paid and reads as the report JSON and the ERA PDF.
func TestDentalClaimIsPaidByTheMockPayer(t *testing.T) {
	t.Parallel()
	f, account := claimServer(t)
	claim := exampleClaim(t, func(m map[string]any) {
		m["subscriber"].(map[string]any)["memberId"] = "PARTIAL0001"
	})
	if resp, body := f.post(claimPath, f.key, claim); resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var eraID string
	deadline := time.Now().Add(30 * time.Second)
	for eraID == "" && time.Now().Before(deadline) {
		var txs struct {
			Items []struct {
				TransactionID string `json:"transactionId"`
				Direction     string `json:"direction"`
			} `json:"items"`
		}
		f.json("GET", "/2023-08-01/transactions", "", 200, &txs)
		for _, tx := range txs.Items {
			if resp, _ := f.call("GET", "/2024-04-01/change/medicalnetwork/reports/v2/"+tx.TransactionID+"/835", f.key, "", false); resp.StatusCode == 200 {
				eraID = tx.TransactionID
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	if eraID == "" {
		t.Fatal("no 835 arrived within 30 s of the claim")
	}
	var report struct {
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
							AdjustmentReason1        string `json:"adjustmentReason1"`
						} `json:"serviceAdjustments"`
					} `json:"serviceLines"`
				} `json:"paymentInfo"`
			} `json:"detailInfo"`
		} `json:"transactions"`
	}
	f.json("GET", "/2024-04-01/change/medicalnetwork/reports/v2/"+eraID+"/835", "", 200, &report)
	pay := report.Transactions[0].DetailInfo[0].PaymentInfo[0]
	if pay.ClaimPaymentInfo.PatientControlNumber != "12345" || pay.ClaimPaymentInfo.ClaimStatusCode != "1" ||
		pay.ClaimPaymentInfo.ClaimPaymentAmount == pay.ClaimPaymentInfo.TotalClaimChargeAmount {
		t.Errorf("claim payment %+v", pay.ClaimPaymentInfo)
	}
	adj := pay.ServiceLines[0].ServiceAdjustments
	if len(adj) == 0 || adj[0].ClaimAdjustmentGroupCode != "CO" || adj[0].AdjustmentReasonCode1 != "45" || !strings.HasPrefix(adj[0].AdjustmentReason1, "Charge exceeds fee schedule") {
		t.Errorf("adjustments %+v", adj)
	}
	// The claim itself is paid: the 835 was matched to it by CLP01.
	var answer string
	for range 100 {
		rows, _, err := f.store.ListDentalClaims(context.Background(), account, store.DentalClaimFilter{Mode: store.ModeTest})
		if err != nil {
			t.Fatal(err)
		}
		if len(rows) > 0 {
			answer = rows[0].Answer
		}
		if answer == "paid" {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if answer != "paid" {
		t.Errorf("the claim's answer is %q, want paid", answer)
	}
	resp, body := f.call("GET", "/2024-04-01/electronic-remittance-advice/"+eraID+"/pdf", f.key, "", false)
	if pdf, err := base64.StdEncoding.DecodeString(string(body)); resp.StatusCode != 200 || err != nil || !strings.HasPrefix(string(pdf), "%PDF-") {
		t.Errorf("ERA PDF: %d %v", resp.StatusCode, err)
	}
}

// exampleClaimStatusRequest asks about the example claim (patient
// control number 12345) at the mock payer 52133.
const exampleClaimStatusRequest = `{"tradingPartnerServiceId": "52133",
  "providers": [{"providerType": "BillingProvider", "organizationName": "ABA Inc", "npi": "1999999992"}],
  "subscriber": {"memberId": "W000000001", "firstName": "John", "lastName": "Doe"},
  "encounter": {"patientAccountNumber": "12345", "beginningDateOfService": "20230428"}}`

// A claim status request about a test claim answers with the claim's real
// state: paid (F1:65) with the amount the 835 paid; another account asking
// about the same patient control number finds nothing (D0:35).
func TestClaimStatusOfAPaidTestClaim(t *testing.T) {
	t.Parallel()
	f, account := claimServer(t)
	if resp, body := f.post(claimPath, f.key, exampleClaim(t, nil)); resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	deadline := time.Now().Add(30 * time.Second)
	for time.Now().Before(deadline) {
		rows, _, _ := f.store.ListDentalClaims(context.Background(), account, store.DentalClaimFilter{Mode: store.ModeTest})
		if len(rows) > 0 && rows[0].Answer == "paid" {
			break
		}
		time.Sleep(100 * time.Millisecond)
	}
	ask := exampleClaimStatusRequest
	var answer struct {
		Claims []struct {
			ClaimStatus struct {
				StatusCategoryCode, StatusCode, StatusCodeValue, AmountPaid, PatientAccountNumber, TradingPartnerClaimNumber string
			} `json:"claimStatus"`
		} `json:"claims"`
		Meta struct{ ApplicationMode string } `json:"meta"`
		X12  string                           `json:"x12"`
	}
	f.json("POST", "/2024-04-01/change/medicalnetwork/claimstatus/v2", ask, 200, &answer)
	if len(answer.Claims) != 1 {
		t.Fatalf("answer %+v", answer)
	}
	cs := answer.Claims[0].ClaimStatus
	if cs.StatusCategoryCode != "F1" || cs.StatusCode != "65" || cs.AmountPaid != "832" || cs.PatientAccountNumber != "12345" ||
		cs.TradingPartnerClaimNumber == "" || answer.Meta.ApplicationMode != "test" || !strings.Contains(answer.X12, "ST*277*") {
		t.Errorf("claim status %+v (x12 %s)", cs, answer.X12)
	}

	// The answer is on the claim's timeline (claimStatusInquiry, ours).
	rows, _, err := f.store.ListDentalClaims(context.Background(), account, store.DentalClaimFilter{Mode: store.ModeTest})
	if err != nil || len(rows) != 1 {
		t.Fatalf("claims: %v %v", rows, err)
	}
	timeline := "/2025-03-07/claims/" + rows[0].ID + "/timeline"
	inquiries := func() []map[string]any {
		t.Helper()
		var tl struct{ Items []map[string]map[string]any }
		f.json("GET", timeline, "", 200, &tl)
		var out []map[string]any
		for _, e := range tl.Items {
			if q, ok := e["claimStatusInquiry"]; ok {
				out = append(out, q)
			}
		}
		return out
	}
	if got := inquiries(); len(got) != 1 || got[0]["statusCategoryCode"] != "F1" || got[0]["statusCode"] != "65" ||
		got[0]["amountPaid"] != "832" || got[0]["payerId"] != "52133" || got[0]["tradingPartnerClaimNumber"] == "" || got[0]["processedAt"] == "" {
		t.Errorf("the timeline's real-time answers: %v", got)
	}

	// Another account's key asks about the same number: not found, and
	// nothing of it reaches the first account's claim; the other account
	// cannot read that claim's timeline either.
	otherTest, _, err := auth.CreateKey(context.Background(), f.store, "Another clinic", auth.ModeTest, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	resp, body := f.post("/2024-04-01/change/medicalnetwork/claimstatus/v2", otherTest, ask)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"statusCategoryCode":"D0"`) || strings.Contains(string(body), `"amountPaid"`) {
		t.Errorf("another account: %d %s", resp.StatusCode, body)
	}
	if got := inquiries(); len(got) != 1 {
		t.Errorf("another account's question reached the claim's timeline: %v", got)
	}
	if resp, body := f.call("GET", timeline, otherTest, "", false); resp.StatusCode != http.StatusNotFound {
		t.Errorf("another account reads the claim's timeline: %d %s", resp.StatusCode, body)
	}
	// The other account sends a claim of its own with the same number and
	// asks again: the answer goes on its claim, never on the first one.
	otherKey, err := f.store.GetAPIKey(context.Background(), strings.Split(otherTest, "_")[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := claimstest.SetupMockPartners(context.Background(), f.store, otherKey.AccountID, store.ModeTest, "52133", "MOCKDOWN"); err != nil {
		t.Fatal(err)
	}
	if resp, body := f.post(claimPath, otherTest, exampleClaim(t, nil)); resp.StatusCode != 200 {
		t.Fatalf("the other account's claim: %d %s", resp.StatusCode, body)
	}
	theirs, _, err := f.store.ListDentalClaims(context.Background(), otherKey.AccountID, store.DentalClaimFilter{Mode: store.ModeTest})
	if err != nil || len(theirs) != 1 {
		t.Fatalf("the other account's claims: %v %v", theirs, err)
	}
	if resp, body := f.post("/2024-04-01/change/medicalnetwork/claimstatus/v2", otherTest, ask); resp.StatusCode != 200 {
		t.Errorf("the other account asks about its own claim: %d %s", resp.StatusCode, body)
	}
	if got := inquiries(); len(got) != 1 {
		t.Errorf("the other account's answer reached the first account's claim: %v", got)
	}
	if resp, body := f.call("GET", "/2025-03-07/claims/"+theirs[0].ID+"/timeline", otherTest, "", false); resp.StatusCode != 200 ||
		strings.Count(string(body), `"claimStatusInquiry"`) != 1 {
		t.Errorf("the other account's own claim's timeline: %d %s", resp.StatusCode, body)
	}

	// Every problem of a bad request at once; a raw 276 that breaks the
	// guide is refused before it is sent.
	resp, body = f.post("/2024-04-01/change/medicalnetwork/claimstatus/v2", f.key, `{"providers": [{}], "subscriber": {}}`)
	if resp.StatusCode != 400 || strings.Count(string(body), `"path"`) < 5 {
		t.Errorf("bad request: %d %s", resp.StatusCode, body)
	}
	resp, body = f.post("/2024-04-01/change/medicalnetwork/claimstatus/v2/raw-x12", f.key, `{"x12": "ISA*00*"}`)
	if resp.StatusCode != 400 {
		t.Errorf("bad raw 276: %d %s", resp.StatusCode, body)
	}
}

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
	"github.com/clearhouse/clearhouse/internal/core/coretest"
)

// An 835 received as a file is readable as the contract's report JSON and
// as an ERA PDF; another account, the other mode and the wrong report type
// all answer 404.
func TestReports835(t *testing.T) {
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

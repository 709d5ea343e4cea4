package api_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/store"
)

const claimPath = "/2024-04-01/dental-claims/submission"

func exampleClaim(t *testing.T, edit func(m map[string]any)) string {
	t.Helper()
	b, err := os.ReadFile("../claims/testdata/example.json")
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

// claimServer is the files server with the test key's mock partnerships
// for claims (UnitedHealthcare Dental and the unreachable mock).
func claimServer(t *testing.T) (*filesServer, string) {
	f := newFilesServer(t)
	k, err := f.store.GetAPIKey(context.Background(), strings.Split(f.key, "_")[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := claimstest.SetupMockPartners(context.Background(), f.store, k.AccountID, store.ModeTest, "52133", "MOCKDOWN"); err != nil {
		t.Fatal(err)
	}
	return f, k.AccountID
}

func (f *filesServer) post(path, key, body string, header ...string) (*http.Response, []byte) {
	f.t.Helper()
	req, _ := http.NewRequest("POST", f.url+path, strings.NewReader(body))
	req.Header.Set("Authorization", key)
	req.Header.Set("Content-Type", "application/json")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var b strings.Builder
	buf := make([]byte, 4096)
	for {
		n, err := resp.Body.Read(buf)
		b.Write(buf[:n])
		if err != nil {
			break
		}
	}
	return resp, []byte(b.String())
}

func TestDentalClaimOverHTTP(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	resp, body := f.post(claimPath, "Key "+f.key, exampleClaim(t, nil))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var r struct {
		Status         string `json:"status"`
		HTTPStatusCode string `json:"httpStatusCode"`
		ControlNumber  string `json:"controlNumber"`
		ClaimReference struct {
			CorrelationID, RHClaimNumber, PatientControlNumber, PayerID, FormatVersion string
			ServiceLines                                                               []struct{ LineItemControlNumber string }
		} `json:"claimReference"`
		Meta  struct{ TraceID, ApplicationMode string } `json:"meta"`
		Payer struct{ PayerName, PayerID string }       `json:"payer"`
		X12   string                                    `json:"x12"`
	}
	if err := json.Unmarshal(body, &r); err != nil {
		t.Fatal(err)
	}
	if r.Status != "SUCCESS" || r.HTTPStatusCode != "200 OK" || r.ClaimReference.PatientControlNumber != "12345" ||
		r.ClaimReference.RHClaimNumber != r.ClaimReference.CorrelationID || r.ClaimReference.FormatVersion != "5010" ||
		r.ClaimReference.ServiceLines[0].LineItemControlNumber != "a0UDo000000dd2dMAA" || r.Meta.ApplicationMode != "test" ||
		len(r.Meta.TraceID) != 36 || r.Payer.PayerID != "52133" || !strings.Contains(r.X12, "ST*277*") {
		t.Errorf("response: %s", body)
	}
	// The whole road: delivered, then the payer's 999 and 277CA processed.
	var list eventList
	for range 500 {
		f.json("GET", "/2023-08-01/events", "", 200, &list)
		if len(list.Items) >= 6 {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	got := map[string]int{}
	for _, e := range list.Items {
		got[e.DetailType]++
	}
	if got["transaction.processed.v2"] != 3 || got["file.delivered.v2"] != 1 || got["file.processed.v2"] != 2 {
		t.Errorf("events: %v", got)
	}

	// Bare key, Idempotency-Key: replayed, then 422 with another body.
	claim := exampleClaim(t, nil)
	resp1, b1 := f.post(claimPath, f.key, claim, "Idempotency-Key", "k-1")
	resp2, b2 := f.post(claimPath, f.key, claim, "Idempotency-Key", "k-1")
	if resp1.StatusCode != 200 || resp2.StatusCode != 200 || string(b1) != string(b2) || resp2.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("replay: %d %d, same body %v", resp1.StatusCode, resp2.StatusCode, string(b1) == string(b2))
	}
	other := exampleClaim(t, func(m map[string]any) { m["claimInformation"].(map[string]any)["patientControlNumber"] = "OTHER1" })
	if resp, b := f.post(claimPath, f.key, other, "Idempotency-Key", "k-1"); resp.StatusCode != 422 {
		t.Errorf("reused key: %d %s", resp.StatusCode, b)
	}
}

func TestDentalClaimErrorsOverHTTP(t *testing.T) {
	t.Parallel()
	f, account := claimServer(t)
	ctx := context.Background()
	// An idempotency key held in flight by another replica: 409 with
	// Retry-After. Keys are stored scoped to the mode ("test/busy").
	now := time.Now()
	if _, _, err := f.store.StartIdempotentRequest(ctx, store.IdempotencyRecord{AccountID: account, Key: "test/busy", RequestHash: "x",
		Owner: "other", LeaseUntil: now.Add(time.Minute), CreatedAt: now, ExpiresAt: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	live, _, err := auth.CreateKey(ctx, f.store, "Live Clinic", auth.ModeProduction, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		key    string
		body   string
		header []string
		status int
		code   string
		substr string
	}{
		{"rules", f.key, exampleClaim(t, func(m map[string]any) {
			m["billing"].(map[string]any)["npi"] = "1234567890"
			m["claimInformation"].(map[string]any)["claimChargeAmount"] = "1"
		}), nil, 400, "VALIDATION_ERROR", "/claimInformation/claimChargeAmount"},
		{"not JSON", f.key, "{", nil, 400, "BAD_REQUEST", "JSON"},
		{"test key, real payer", f.key, exampleClaim(t, func(m map[string]any) { m["tradingPartnerServiceId"] = "77777" }), nil, 403, "FORBIDDEN", "mock payers"},
		{"production key, mock payer", live, exampleClaim(t, func(m map[string]any) { m["tradingPartnerServiceId"] = "MOCKDOWN" }), nil, 403, "FORBIDDEN", "test-mode mock"},
		{"production key without connection", live, exampleClaim(t, nil), nil, 400, "BAD_REQUEST", "Payer 52133 is not configured"},
		{"unknown payer", f.key, exampleClaim(t, func(m map[string]any) { m["tradingPartnerServiceId"] = "NOPE1" }), nil, 400, "BAD_REQUEST", "unknown payer id"},
		{"unknown setting", f.key, exampleClaim(t, nil), []string{"Service-Transaction-Setting-Id", "nope"}, 400, "VALIDATION_ERROR", "not an outbound 837"},
		{"key in flight", f.key, exampleClaim(t, nil), []string{"Idempotency-Key", "busy"}, 409, "CONFLICT", "still in progress"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			resp, b := f.post(claimPath, tt.key, tt.body, tt.header...)
			var e struct{ Code, Message string }
			json.Unmarshal(b, &e)
			if resp.StatusCode != tt.status || e.Code != tt.code || !strings.Contains(string(b), tt.substr) {
				t.Errorf("%d %s", resp.StatusCode, b)
			}
			if tt.status == 409 && resp.Header.Get("Retry-After") == "" {
				t.Error("409 without Retry-After")
			}
		})
	}
	// A known setting works.
	if resp, b := f.post(claimPath, f.key, exampleClaim(t, nil), "Service-Transaction-Setting-Id", "clearhouse_mock-52133-out-837"); resp.StatusCode != 200 {
		t.Errorf("known setting: %d %s", resp.StatusCode, b)
	}
}

func TestDentalClaimRawX12OverHTTP(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	x := "ISA*00*          *00*          *ZZ*574183004559   *ZZ*STEDITEST      *260213*2050*^*00501*000000042*0*T*:~" +
		"GS*HC*574183004559*STEDITEST*20260213*205048*42*X*005010X224A2~ST*837*0001*005010X224A2~" +
		"BHT*0019*00*01KHCCA4V6K00NFPX588G859SJ*20260213*2050*CH~NM1*41*2*ABA Inc*****46*1234567~PER*IC*BILLING DEPARTMENT*TE*3131234567~" +
		"NM1*40*2*United HealthCare Dental*****46*52133~HL*1**20*1~PRV*BI*PXC*106S00000X~NM1*85*2*ABA Inc*****XX*1999999992~" +
		"N3*ABA Inc 123 Some St~N4*Denver*CO*802383000~REF*EI*123456789~PER*IC*ABA Inc*TE*3134893157~HL*2*1*22*0~" +
		"SBR*P*18*1234567890******FI~NM1*IL*1*Doe*John****MI*123412345~N3*1234 Some St~N4*Buckeye*AZ*85326~DMG*D8*20180615*F~" +
		"NM1*PR*2*United HealthCare Dental*****PI*52133~N3*PO Box 7000~N4*Camden*SC*29000~CLM*12345*832***12:B:1*Y*A*Y*Y~" +
		"DN2*3*E****JP~REF*G1*20231010012345678~HI*ABK:K081~NM1*82*1*Doe*Jane****XX*1999999992~PRV*PE*PXC*106S00000X~LX*1~" +
		"SV3*AD:D7140*832**01:02*I*2*****1~TOO*JP*3*M:O~DTP*472*D8*20230428~NM1*82*1*Doe*Jane****XX*1999999992~" +
		"PRV*PE*PXC*122300000X~SE*34*0001~GE*1*42~IEA*1*000000042~"
	body, _ := json.Marshal(map[string]string{"x12": x})
	resp, b := f.post("/2024-04-01/dental-claims/raw-x12-submission", f.key, string(body))
	if resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var r struct {
		ClaimReference struct {
			PatientControlNumber string
			ServiceLines         []struct{ LineItemControlNumber string }
		} `json:"claimReference"`
	}
	json.Unmarshal(b, &r)
	if r.ClaimReference.PatientControlNumber != "12345" || len(r.ClaimReference.ServiceLines) != 1 || r.ClaimReference.ServiceLines[0].LineItemControlNumber == "" {
		t.Errorf("raw response: %s", b)
	}
	bad, _ := json.Marshal(map[string]string{"x12": strings.Replace(x, "CLM*12345*832", "CLM*12345*900", 1)})
	if resp, b := f.post("/2024-04-01/dental-claims/raw-x12-submission", f.key, string(bad)); resp.StatusCode != 400 || !strings.Contains(string(b), "VALIDATION_ERROR") {
		t.Errorf("unbalanced raw claim: %d %s", resp.StatusCode, b)
	}
}

// A claim's transaction is outbound, but its input is still the X12 (the
// 837D) and its output the Guide JSON: the transaction, its event's
// artifacts and the documents behind /input and /output all say so.
func TestClaimTransactionDocumentsAreLabelled(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	if resp, body := f.post(claimPath, "Key "+f.key, exampleClaim(t, nil)); resp.StatusCode != 200 {
		t.Fatalf("%d %s", resp.StatusCode, body)
	}
	var list eventList
	f.json("GET", "/2023-08-01/events", "", 200, &list)
	txID := ""
	for _, e := range list.Items {
		var d struct {
			TransactionID, Direction string
			Artifacts                []struct{ ArtifactType, Usage string }
		}
		if e.DetailType != "transaction.processed.v2" || json.Unmarshal(e.Detail, &d) != nil || d.Direction != store.DirectionOutbound {
			continue
		}
		txID = d.TransactionID
		for _, a := range d.Artifacts {
			if want := wantArtifactType[a.Usage]; a.ArtifactType != want {
				t.Errorf("event artifact %s is %s, want %s", a.Usage, a.ArtifactType, want)
			}
		}
	}
	if txID == "" {
		t.Fatalf("no outbound transaction.processed.v2 among %d events", len(list.Items))
	}
	var tx struct {
		Artifacts []struct{ ArtifactType, Usage, URL string }
	}
	f.json("GET", "/2023-08-01/transactions/"+txID, "", 200, &tx)
	if len(tx.Artifacts) < 2 {
		t.Fatalf("transaction artifacts: %+v", tx.Artifacts)
	}
	for _, a := range tx.Artifacts[:2] {
		if want := wantArtifactType[a.Usage]; a.ArtifactType != want {
			t.Errorf("transaction artifact %s is %s, want %s", a.Usage, a.ArtifactType, want)
		}
	}
	for usage, starts := range map[string]string{"input": "ISA", "output": "{"} {
		resp, body := f.call("GET", "/2023-08-01/transactions/"+txID+"/"+usage, f.key, "", true)
		if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || !strings.HasPrefix(ct, wantArtifactType[usage]) ||
			!strings.HasPrefix(string(body), starts) {
			t.Errorf("/%s: %d %s %.20q, want %s starting %q", usage, resp.StatusCode, ct, body, wantArtifactType[usage], starts)
		}
	}
}

var wantArtifactType = map[string]string{"input": "application/edi-x12", "output": "application/json"}

// TestIdempotencyKeyIsScopedToMode: the same Idempotency-Key sent with a
// test key and then with a live key of the same account names two
// requests. Before, the live key's claim answered the test key's 422
// REQUEST_CHANGED (or, with the same body, its stored answer).
func TestIdempotencyKeyIsScopedToMode(t *testing.T) {
	t.Parallel()
	f, _ := claimServer(t)
	liveKey, _, err := auth.CreateKey(context.Background(), f.store, "Clinic", auth.ModeProduction, "", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	claim := exampleClaim(t, nil)
	if resp, b := f.post(claimPath, f.key, claim, "Idempotency-Key", "shared-1"); resp.StatusCode != 200 {
		t.Fatalf("test key: %d %s", resp.StatusCode, b)
	}
	other := exampleClaim(t, func(m map[string]any) { m["tradingPartnerName"] = "Other" })
	for _, body := range []string{claim, other} {
		resp, b := f.post(claimPath, liveKey, body, "Idempotency-Key", "shared-1")
		if resp.StatusCode == http.StatusUnprocessableEntity || resp.Header.Get("Idempotent-Replayed") != "" {
			t.Errorf("live key with the test key's Idempotency-Key: %d replayed=%q %s", resp.StatusCode, resp.Header.Get("Idempotent-Replayed"), b)
		}
	}
	if resp, _ := f.post(claimPath, f.key, claim, "Idempotency-Key", "shared-1"); resp.Header.Get("Idempotent-Replayed") != "true" {
		t.Errorf("the test key's own retry was not replayed: %d", resp.StatusCode)
	}
}

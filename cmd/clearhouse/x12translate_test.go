package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dentalClaim is a small 837D whose CLM02 balances its SV3 lines and whose
// NPIs have valid check digits.
const dentalClaim = cliISA + `GS*HC*A1*B1*20240101*1200*1*X*005010X224A2~
ST*837*0001*005010X224A2~
BHT*0019*00*B1*20240101*1200*CH~
NM1*41*2*SUBMITTER*****46*S1~
PER*IC*DESK*TE*5555550100~
NM1*40*2*PAYER*****46*P1~
HL*1**20*1~
NM1*85*2*DENTAL GROUP*****XX*1234567893~
N3*1 MAIN ST~
N4*SPRINGFIELD*IL*62701~
REF*EI*123456789~
HL*2*1*22*0~
SBR*P*18*******CI~
NM1*IL*1*DOE*JANE****MI*M1~
DMG*D8*19800101*F~
NM1*PR*2*PAYER*****PI*P1~
CLM*C1*150***11:B:1*Y*A*Y*Y~
LX*1~
SV3*AD:D2150*100****1~
TOO*JP*12*M:O~
LX*2~
SV3*AD:D1110*50****1~
SE*22*0001~
GE*1*1~
IEA*1*000000001~
`

func TestX12Translate(t *testing.T) {
	in := writeTemp(t, dentalClaim)
	unbalanced := writeTemp(t, strings.Replace(dentalClaim, "CLM*C1*150*", "CLM*C1*151*", 1))

	var js, errOut bytes.Buffer
	if code := run(context.Background(), []string{"x12", "translate", in}, &js, &errOut); code != 0 {
		t.Fatalf("translate: exit %d: %s", code, errOut.String())
	}
	var doc struct {
		Interchanges []struct {
			FunctionalGroups []struct {
				TransactionSets []map[string]json.RawMessage `json:"transactionSets"`
			} `json:"functionalGroups"`
		} `json:"interchanges"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, js.String())
	}
	set := doc.Interchanges[0].FunctionalGroups[0].TransactionSets[0]
	for _, area := range []string{"heading", "detail", "summary"} {
		if _, ok := set[area]; !ok {
			t.Errorf("no %q in the transaction set", area)
		}
	}
	for _, key := range []string{`"claim_information_CLM_loop"`, `"dental_service_SV3"`, `"tooth_surface_03"`} {
		if !bytes.Contains(js.Bytes(), []byte(key)) {
			t.Errorf("Guide JSON lacks %s", key)
		}
	}

	// Back to X12: the same segments.
	jsonFile := filepath.Join(t.TempDir(), "in.json")
	if err := os.WriteFile(jsonFile, js.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var x12out bytes.Buffer
	if code := run(context.Background(), []string{"x12", "translate", "--to", "x12", "--line-breaks", jsonFile}, &x12out, &errOut); code != 0 {
		t.Fatalf("translate --to x12: exit %d: %s", code, errOut.String())
	}
	if x12out.String() != dentalClaim {
		t.Errorf("round trip differs:\n%s", x12out.String())
	}

	// --validate reports guide findings on stderr and exits 1.
	errOut.Reset()
	if code := run(context.Background(), []string{"x12", "translate", "--validate", unbalanced}, &bytes.Buffer{}, &errOut); code != 1 {
		t.Errorf("unbalanced claim: exit %d, want 1", code)
	}
	if !strings.Contains(errOut.String(), "guide.balance") {
		t.Errorf("stderr lacks the balance finding: %s", errOut.String())
	}

	// validate and ack carry the guide findings through the hook.
	var out bytes.Buffer
	if code := run(context.Background(), []string{"x12", "validate", unbalanced}, &out, &errOut); code != 1 || !strings.Contains(out.String(), "guide.balance") {
		t.Errorf("validate: exit %d, output %s", code, out.String())
	}
	out.Reset()
	if code := run(context.Background(), []string{"x12", "ack", unbalanced}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "IK3*CLM*16*2300*8~IK4*2*782*I12*151~") {
		t.Errorf("ack: exit %d, output %s", code, out.String())
	}
	// --skip-npi reaches the guide validator of validate and ack.
	badNPI := writeTemp(t, strings.Replace(dentalClaim, "XX*1234567893~", "XX*1234567890~", 1))
	for _, tool := range []string{"validate", "ack"} {
		out.Reset()
		run(context.Background(), []string{"x12", tool, badNPI}, &out, &errOut)
		if !strings.Contains(out.String(), "1234567890") {
			t.Errorf("%s: the bad NPI is not reported:\n%s", tool, out.String())
		}
		out.Reset()
		run(context.Background(), []string{"x12", tool, "--skip-npi", badNPI}, &out, &errOut)
		if strings.Contains(out.String(), "1234567890") {
			t.Errorf("%s --skip-npi: the NPI is still reported:\n%s", tool, out.String())
		}
	}
	if code := run(context.Background(), []string{"x12", "translate", "--to", "yaml", in}, &out, &errOut); code != 2 {
		t.Errorf("--to yaml: exit %d, want 2", code)
	}
}

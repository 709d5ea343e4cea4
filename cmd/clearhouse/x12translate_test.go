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

// A set with no guide is "not checked" (exit 3), not valid: a 4010 837 or a
// transaction without a built-in guide has only its envelope checked. The
// 997 (005010X230) has a guide: one without AK1 and AK9 is refused.
func TestX12ValidateSetWithoutGuide(t *testing.T) {
	isa4010 := strings.Replace(cliISA, "*^*00501*", "*U*00401*", 1)
	body4010 := writeTemp(t, isa4010+"GS*HC*A1*B1*20240101*1200*1*X*004010X098A1~\nST*837*0001~\nBHT*0019*00*1*20240101*1200*CH~\nSE*3*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	empty997 := writeTemp(t, cliISA+"GS*FA*A1*B1*20240101*1200*1*X*005010X230~\nST*997*0001*005010X230~\nSE*2*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	good997 := writeTemp(t, cliISA+"GS*FA*A1*B1*20240101*1200*1*X*005010X230~\nST*997*0001*005010X230~\nAK1*HC*1~\nAK2*837*0001~\nAK5*A~\nAK9*A*1*1*1~\nSE*6*0001~\nGE*1*1~\nIEA*1*000000001~\n")
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"4010 body", []string{"x12", "validate", body4010}, 3, "guide.not-found", "1 transaction sets not checked"},
		{"4010 body, envelopes only as asked", []string{"x12", "validate", "--no-guide", body4010}, 0, "", ""},
		{"997 without AK1 and AK9", []string{"x12", "validate", empty997}, 1, "AK9", ""},
		{"997 acknowledging one 837", []string{"x12", "validate", good997}, 0, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			code := run(context.Background(), tc.args, &out, &errOut)
			if code != tc.code || !strings.Contains(out.String(), tc.stdout) || !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("exit %d (want %d)\nstdout: %s\nstderr: %s", code, tc.code, out.String(), errOut.String())
			}
		})
	}
}

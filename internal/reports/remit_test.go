package reports

import (
	"bytes"
	"os"
	"strings"
	"testing"
)

// The contract's worked 835 read for people: the payment, its payer and
// payee, each claim and line with the PR adjustments explained.
func TestReadRemittancesContractExample(t *testing.T) {
	src, err := os.Open("testdata/contract-example.835.x12")
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	sets, err := ReadRemittances(src, nil, 0)
	if err != nil || len(sets) != 1 {
		t.Fatalf("sets %d, %v", len(sets), err)
	}
	r := sets[0]
	if r.PayerName != "RUSHMORE LIFE" || r.PayeeName != "ACME MEDICAL CENTER" || r.PayeeID != "1999999984" || r.Trace != "71700666555" ||
		r.Method != "ACH" || r.Date != "20190316" || r.TotalCents != 110000 || r.MethodWords() != "Electronic funds transfer (ACH)" {
		t.Errorf("header: %+v", r)
	}
	if len(r.Claims) != 2 {
		t.Fatalf("claims: %+v", r.Claims)
	}
	c := r.Claims[0]
	if c.PCN != "1112223333" || c.ChargeCents != 80000 || c.PaidCents != 50000 || c.PatientCents != 30000 || !c.Partial() ||
		c.PayerClaimNumber != "94060555410000" || c.StatusWords() != "Processed as primary" {
		t.Errorf("claim: %+v", c)
	}
	if len(c.Lines) != 1 {
		t.Fatalf("lines: %+v", c.Lines)
	}
	l := c.Lines[0]
	if l.Code != "99211" || l.Qualifier != "HC" || l.ChargeCents != 80000 || l.PaidCents != 50000 || l.Date != "20190301" ||
		l.ControlNumber != "111222333" || !l.HasAllowed || l.AllowedCents != 80000 || l.PatientCents() != 30000 {
		t.Errorf("line: %+v", l)
	}
	if a := l.Adjustments[0]; a.Group != "PR" || a.Reason != "1" || a.ReasonWords() != "Deductible Amount" || a.GroupWords() != "Patient responsibility" {
		t.Errorf("adjustment: %+v %q", a, a.ReasonWords())
	}
}

// keep chooses claims; maxClaims bounds what is kept, the rest counted.
func TestReadRemittancesKeepAndBound(t *testing.T) {
	src, _ := os.ReadFile("testdata/contract-example.835.x12")
	sets, err := ReadRemittances(strings.NewReader(string(src)), func(pcn string) bool { return pcn == "22255566677" }, 0)
	if err != nil || len(sets[0].Claims) != 1 || sets[0].Claims[0].PaidCents != 60000 || sets[0].MoreClaims != 0 {
		t.Fatalf("keep: %+v %v", sets, err)
	}
	sets, _ = ReadRemittances(strings.NewReader(string(src)), nil, 1)
	if len(sets[0].Claims) != 1 || sets[0].MoreClaims != 1 {
		t.Errorf("bound: %d kept, %d more", len(sets[0].Claims), sets[0].MoreClaims)
	}
	// A reversal, a denial with its remark, a debit: the mock payer's words.
	x := "ISA*00*          *00*          *ZZ*A              *ZZ*B              *190314*1200*^*00501*000000001*0*T*:~" +
		"GS*HP*A*B*20190314*1200*1*X*005010X221A1~ST*835*0001~BPR*H*0*C*NON*****************20190316~TRN*1*T1*1~" +
		"N1*PR*MOCK~REF*2U*52133~N1*PE*PRACTICE*XX*1999999984~LX*1~" +
		"CLP*P1*22*-100*-100**12*X1~SVC*AD:D0120*-100*-100~CAS*CO*45*-10~" +
		"CLP*P2*4*65*0**12*X2~SVC*AD:D0120*65*0~CAS*CO*16*65~LQ*HE*N290~" +
		"SE*12*0001~GE*1*1~IEA*1*000000001~"
	sets, err = ReadRemittances(strings.NewReader(x), nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	r := sets[0]
	if r.PayerID != "52133" || r.MethodWords() != "No payment" || len(r.Claims) != 2 {
		t.Fatalf("%+v", r)
	}
	if !r.Claims[0].Reversal() || r.Claims[0].PaidCents != -10000 || r.Claims[0].Lines[0].Adjustments[0].AmountCents != -1000 {
		t.Errorf("reversal: %+v", r.Claims[0])
	}
	d := r.Claims[1]
	if !d.Denied() || d.Partial() || d.Lines[0].Remarks[0].Code != "N290" || d.Lines[0].Remarks[0].Words() == "" {
		t.Errorf("denial: %+v %q", d, d.Lines[0].Remarks[0].Words())
	}
}

// What the claim page pays to find one claim's payments in a large 835
// (10,000 claims, ≈5 MB) and what the file page pays to summarize it
// (every claim kept up to 500): CPU MB/s, allocations.
//
//	go test ./internal/reports -run '^$' -bench ReadRemittances
func BenchmarkReadRemittances(b *testing.B) {
	src := bench835(b)
	for _, bc := range []struct {
		name string
		keep func(string) bool
	}{{"one-claim", func(pcn string) bool { return pcn == "none" }}, {"summary", nil}} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(int64(len(src)))
			b.ReportAllocs()
			defer cpuMBps(b, len(src))()
			for b.Loop() {
				if _, err := ReadRemittances(bytes.NewReader(src), bc.keep, 0); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package guide_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// TestValidatorAccuracy: the defects an independent validator run showed
// (issue 9, item 10), each as a mutation of the clean dental features file
// with every guide finding it must give, severity included: an NPI with a
// correct check digit is not a check-digit error, a childless HL04 1 is a
// warning, service lines count 1, 2, 3 in each claim, and the billing
// provider's U.S. ZIP code has nine digits.
func TestValidatorAccuracy(t *testing.T) {
	t.Parallel()
	clean, err := os.ReadFile("testdata/837d_dental_features.x12")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new string
		want           []string // "severity code SEG", sorted
		rejects        bool     // the set gets IK5 R
	}{
		{"NPI with a correct check digit but not 1 or 2 first", "XX*1234567893~", "XX*6543210903~",
			[]string{"warning guide.npi-prefix NM1"}, false},
		{"NPI with a wrong check digit", "XX*1234567893~", "XX*6543210904~",
			[]string{"error guide.npi-check-digit NM1"}, true},
		{"HL04 1 without a child level", "HL*2*1*22*0~", "HL*2*1*22*1~",
			[]string{"warning guide.hl-child-code HL"}, false},
		{"first service line numbered 2", "LX*1~", "LX*2~",
			[]string{"error guide.sequence LX"}, true},
		{"service lines 1, 3, 3", "LX*2~", "LX*3~",
			[]string{"error guide.sequence LX"}, true},
		{"second claim's lines restart at 1", "", "", nil, false},
		{"billing provider ZIP of 5 digits", "N4*SPRINGFIELD*IL*627011234~", "N4*SPRINGFIELD*IL*62701~",
			[]string{"error guide.element-pattern N4"}, true},
		{"billing provider outside the U.S.", "N4*SPRINGFIELD*IL*627011234~", "N4*TORONTO*ON*M5V2T6*CA~",
			nil, false},
		{"subscriber ZIP of 5 digits is fine", "N4*SPRINGFIELD*IL*62702~", "N4*SPRINGFIELD*IL*62702~", nil, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Contains(clean, []byte(tt.old)) {
				t.Fatalf("%q not in the features file", tt.old)
			}
			in := bytes.Replace(clean, []byte(tt.old), []byte(tt.new), 1)
			rep, got := severityCodes(t, in)
			if tt.want == nil {
				tt.want = []string{}
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings %q, want %q", got, tt.want)
			}
			set := rep.Interchanges[0].Groups[0].Sets[0]
			if st, _ := x12.IK5Status(set); (st == "R") != tt.rejects {
				t.Errorf("IK5 %s, want rejected=%v", st, tt.rejects)
			}
		})
	}
}

// TestIK302ForMissingSegment pins where a 999 points for a segment that is
// missing: IK301 names the missing segment, IK302 is the position of the
// last segment before the place it belongs (here NM1*85 at 8, since N3 of
// 2010AA is absent), IK303 its loop (the standard's loop id 2010: data
// element 447 has at most 4 characters), IK304 3 (documented on
// x12.WriteAcks). The 999 passes our own 999 guide.
func TestIK302ForMissingSegment(t *testing.T) {
	t.Parallel()
	clean, err := os.ReadFile("testdata/837d_dental_features.x12")
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Replace(clean, []byte("N3*100 MAIN ST~\n"), nil, 1)
	in = bytes.Replace(in, []byte("SE*53*0001~"), []byte("SE*52*0001~"), 1)
	rep, err := guide.Validate(bytes.NewReader(in), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x12.WriteAcks(&buf, rep, x12.AckOptions{}); err != nil {
		t.Fatal(err)
	}
	if want := "IK3*N3*8*2010*3~"; !bytes.Contains(buf.Bytes(), []byte(want)) {
		t.Errorf("acknowledgment lacks %s:\n%s", want, buf.String())
	}
	ackRep, err := guide.Validate(bytes.NewReader(buf.Bytes()), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range ackRep.All() {
		if f.Rejects() {
			t.Errorf("the 999 fails the 999 guide: %s\n%s", f, buf.String())
		}
	}
}

// TestInstitutionalGuide: the 837I guide (005010X223A2) reads our clean
// inpatient claim without a finding, and each institutional rule fails the
// claim that breaks it.
func TestInstitutionalGuide(t *testing.T) {
	t.Parallel()
	clean, err := os.ReadFile("testdata/837i_institutional.x12")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, old, new string
		want           []string
	}{
		{"clean", "", "", []string{}},
		{"A3 accepted", "X*005010X223A2~\nST*837*0001*005010X223A2~", "X*005010X223A3~\nST*837*0001*005010X223A3~", []string{}},
		{"statement dates missing", "DTP*434*RD8*20251201-20251203~\n", "", []string{"error guide.segment-missing DTP"}},
		{"institutional claim code missing", "CL1*1*7*01~\n", "", []string{"error guide.segment-missing CL1"}},
		{"patient status missing", "CL1*1*7*01~", "CL1*1*7~", []string{"error guide.element-missing CL1"}},
		{"principal diagnosis missing", "HI*ABK:K358~\n", "", []string{"error guide.segment-missing HI"}},
		{"place of service instead of facility code qualifier", "CLM*INPT001*1500***11:A:1", "CLM*INPT001*1500***11:B:1", []string{"error guide.element-invalid-code CLM"}},
		{"professional signature indicator", "11:A:1**A*Y*Y~", "11:A:1*Y*A*Y*Y~", []string{"error guide.element-not-used CLM"}},
		{"occurrence without its date", "HI*BH:11:D8:20251130~", "HI*BH:11~", []string{"error guide.element-missing HI"}},
		{"revenue lines do not add up", "SV2*0360*HC:44970*500*", "SV2*0360*HC:44970*400*", []string{"error guide.balance CLM"}},
		{"revenue code missing", "SV2*0360*", "SV2**", []string{"error guide.element-missing SV2"}},
		{"second line numbered 3", "LX*2~", "LX*3~", []string{"error guide.sequence LX"}},
		{"attending provider NPI check digit", "XX*1987654328~", "XX*1987654320~", []string{"error guide.npi-check-digit NM1"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if !bytes.Contains(clean, []byte(tt.old)) {
				t.Fatalf("%q not in the claim", tt.old)
			}
			in := bytes.Replace(clean, []byte(tt.old), []byte(tt.new), 1)
			if n := strings.Count(tt.old, "~") - strings.Count(tt.new, "~"); n != 0 {
				in = bytes.Replace(in, []byte("SE*41*"), []byte(fmt.Sprintf("SE*%d*", 41-n)), 1)
			}
			_, got := severityCodes(t, in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("findings %q, want %q", got, tt.want)
			}
		})
	}
}

// severityCodes validates in and returns the report with its distinct
// "severity code SEGMENT" findings, sorted.
func severityCodes(t *testing.T, in []byte) (*x12.Report, []string) {
	t.Helper()
	rep, err := guide.Validate(bytes.NewReader(in), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := []string{}
	for _, f := range rep.All() {
		if k := f.Severity.String() + " " + string(f.Code) + " " + f.SegmentID; !slices.Contains(got, k) {
			got = append(got, k)
		}
	}
	slices.Sort(got)
	return rep, got
}

// The 999s we write for the corpus's broken claims pass our own 999 guide:
// IK303 within its 4 characters, IK402 a data element number (no
// composite id like C023 when a whole composite is missing).
func TestOur999sPassThe999Guide(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"invalid/837P_ims_missing-required-elements.txt", "invalid/837P_ims_segment-errors.txt",
		"invalid/837P_ims_bad-code-value.txt", "835/5010_lfh_managed-care.x12"} {
		t.Run(name, func(t *testing.T) {
			in := goldenInput(t, "corpus:"+name)
			rep, err := guide.Validate(bytes.NewReader(in), guide.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := x12.WriteAcks(&buf, rep, x12.AckOptions{TA1: x12.TA1Never}); err != nil {
				t.Fatal(err)
			}
			ackRep, err := guide.Validate(bytes.NewReader(buf.Bytes()), guide.Options{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range ackRep.All() {
				if f.Rejects() {
					t.Errorf("the 999 fails the 999 guide: %s\n%s", f, buf.String())
				}
			}
		})
	}
}

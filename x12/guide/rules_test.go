package guide_test

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// mutations of testdata/837d_dental_features.x12 (clean as written), each
// with the one finding it must produce: the business and situational rules
// users lose money on, and the element checks behind them.
var dentalMutations = []struct {
	name, old, new string
	want           string // "code SEG"
	ik3, ik4       string
}{
	{"claim charge does not balance", "CLM*ORTHO001*3850*", "CLM*ORTHO001*3851*", "guide.balance CLM", "", "I12"},
	{"replacement crown without prior date", "DTP*441*D8*20150610~\n", "", "guide.situational-missing DTP", "I6", ""},
	{"void claim without payer control number", "11:B:1*Y*A*Y*Y**********PB", "11:B:8*Y*A*Y*Y**********PB", "guide.situational-missing REF", "I6", ""},
	{"patient is subscriber but a patient loop follows", "HL*2*1*22*0~", "HL*2*1*22*1~\nHL*3*2*23*0~\nPAT*19~\nNM1*QC*1*DOE*JIM~", "guide.situational-not-used HL", "I9", ""},
	{"bad NPI check digit", "XX*1234567893~", "XX*1234567890~", "guide.npi-check-digit NM1", "", "I12"},
	{"not a calendar date", "DTP*452*D8*20251001", "DTP*452*D8*20250230", "guide.element-invalid-date DTP", "", "8"},
	{"date range backwards", "DTP*472*D8*20251215~\nDN1", "DTP*472*RD8*20251215-20251201~\nDN1", "guide.element-invalid-date DTP", "", "8"},
	{"unknown tooth surface", "TOO*JP*3*M:O", "TOO*JP*3*M:X", "guide.element-invalid-code TOO", "", "7"},
	{"unknown oral cavity area", "**10:20**1~", "**10:21**1~", "guide.element-invalid-code SV3", "", "7"},
	{"tooth status not used in 5010", "DN2*16*M", "DN2*16*I", "guide.element-invalid-code DN2", "", "7"},
	{"missing required element", "SV3*AD:D2750*750***I*1", "SV3*AD:D2750****I*1", "guide.element-missing SV3", "", "1"},
	{"too many components", "TOO*JP*3*M:O", "TOO*JP*3*M:O:B:D:F:L", "guide.element-too-many-components TOO", "", "13"},
	{"element past the last one", "TOO*JP*13~", "TOO*JP*13**X~", "guide.too-many-elements TOO", "", "3"},
	{"not-used element present", "DN1*24*18**Y", "DN1*24*18*Y*Y", "guide.element-not-used DN1", "", "I10"},
	{"letters in an amount", "AMT*D*500", "AMT*D*5O0", "guide.element-invalid-character AMT", "", "6"},
	{"text too long", "CLM*ORTHO001*", "CLM*ORTHO001ORTHO001ORTHO001ORTHO001ORTHO001*", "guide.element-too-long CLM", "", "5"},
	{"syntax rule P0203", "PRV*AS*PXC*1223G0001X", "PRV*AS*PXC", "guide.element-conditional-missing PRV", "", "2"},
	{"tooth segments over max use", "TOO*JP*13~", strings.Repeat("TOO*JP*13~\n", 33), "guide.segment-over-max TOO", "5", ""},
	{"unknown segment", "REF*6R*LINE0003~", "REF*6R*LINE0003~\nZZ9*X~", "guide.segment-unrecognized ZZ9", "1", ""},
	{"segment of another transaction", "REF*6R*LINE0003~", "REF*6R*LINE0003~\nEB*1~", "guide.segment-not-in-set EB", "6", ""},
	{"segment out of order", "DTP*452*D8*20251001~\nDTP*472*D8*20251215~", "DTP*472*D8*20251215~\nDTP*452*D8*20251001~", "guide.segment-out-of-order DTP", "7", ""},
	{"required loop missing", "NM1*PR*2*EXAMPLE DENTAL PLAN*****PI*PAYER01~\nCLM*ORTHO001", "CLM*ORTHO001", "guide.loop-missing NM1", "3", ""},
	{"HL parent wrong", "HL*2*1*22*0", "HL*2*5*22*0", "guide.hl-parent HL", "", "7"},
	{"HL ids not in sequence", "HL*2*1*22*0", "HL*3*1*22*0", "guide.hl-sequence HL", "", "7"},
	{"qualifier not in the guide", "REF*G1*PA778899", "REF*ZZ*PA778899", "guide.element-invalid-code REF", "", "7"},
}

func TestDentalRules(t *testing.T) {
	t.Parallel()
	clean, err := os.ReadFile("testdata/837d_dental_features.x12")
	if err != nil {
		t.Fatal(err)
	}
	if got := codeSet(validateBytes(t, clean, guide.Options{})); len(got) != 0 {
		t.Fatalf("the features file is not clean: %q", got)
	}
	for _, tc := range dentalMutations {
		t.Run(tc.name, func(t *testing.T) {
			if !bytes.Contains(clean, []byte(tc.old)) {
				t.Fatalf("%q not in the features file", tc.old)
			}
			in := bytes.Replace(clean, []byte(tc.old), []byte(tc.new), 1)
			fs := validateBytes(t, in, guide.Options{})
			var hit *x12.Finding
			for i := range fs {
				if string(fs[i].Code)+" "+fs[i].SegmentID == tc.want {
					hit = &fs[i]
				}
			}
			if hit == nil {
				t.Fatalf("want %s, got %q", tc.want, codeSet(fs))
			}
			if hit.IK3 != tc.ik3 || hit.IK4 != tc.ik4 {
				t.Errorf("codes IK3 %q IK4 %q, want %q %q", hit.IK3, hit.IK4, tc.ik3, tc.ik4)
			}
			if hit.Position == 0 || hit.Offset <= 0 {
				t.Errorf("finding without position: %+v", *hit)
			}
		})
	}
}

// TestBusinessRulesSwitch: balancing and NPI are business rules the caller
// can turn off; NPI alone has its own switch.
func TestBusinessRulesSwitch(t *testing.T) {
	t.Parallel()
	clean, _ := os.ReadFile("testdata/837d_dental_features.x12")
	bad := bytes.Replace(clean, []byte("CLM*ORTHO001*3850*"), []byte("CLM*ORTHO001*3851*"), 1)
	bad = bytes.Replace(bad, []byte("XX*1234567893~"), []byte("XX*1234567890~"), 1)
	for _, tc := range []struct {
		opts guide.Options
		want []string
	}{
		{guide.Options{}, []string{"guide.balance CLM", "guide.npi-check-digit NM1"}},
		{guide.Options{SkipNPI: true}, []string{"guide.balance CLM"}},
		{guide.Options{SkipBusiness: true}, []string{}},
	} {
		if got := codeSet(validateBytes(t, bad, tc.opts)); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: %q, want %q", tc.opts, got, tc.want)
		}
	}
}

func validateBytes(t *testing.T, b []byte, opts guide.Options) []x12.Finding {
	t.Helper()
	rep, err := guide.Validate(bytes.NewReader(b), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep.All()
}

func TestValidNPI(t *testing.T) {
	t.Parallel()
	for npi, want := range map[string]bool{
		"1234567893": true, "1234567984": true, // valid (x12-standards §6)
		"1234567890": false, "9876543210": false, "4567890123": false, "6789012345": false,
		"123456789": false, "12345678930": false, "123456789X": false,
	} {
		if got := guide.ValidNPI(npi); got != want {
			t.Errorf("ValidNPI(%s) = %v, want %v", npi, got, want)
		}
	}
}

// TestValidateTransaction: the builders' entry point, on segments in memory.
func TestValidateTransaction(t *testing.T) {
	t.Parallel()
	d := x12.DefaultDelimiters
	segs := []*x12.Segment{
		x12.NewSegment(d, "ST", "270", "0001", "005010X279A1"),
		x12.NewSegment(d, "BHT", "0022", "13", "REQ1", "20260101", "1200"),
		x12.NewSegment(d, "HL", "1", "", "20", "1"),
		x12.NewSegment(d, "NM1", "PR", "2", "PAYER", "", "", "", "", "PI", "12345"),
		x12.NewSegment(d, "HL", "2", "1", "21", "1"),
		x12.NewSegment(d, "NM1", "1P", "2", "CLINIC", "", "", "", "", "XX", "1234567893"),
		x12.NewSegment(d, "HL", "3", "2", "22", "0"),
		x12.NewSegment(d, "TRN", "1", "TRACE1", "9999999999"),
		x12.NewSegment(d, "NM1", "IL", "1", "DOE", "JANE", "", "", "", "MI", "M1"),
		x12.NewSegment(d, "DMG", "D8", "19800101"),
		x12.NewSegment(d, "DTP", "291", "D8", "20260101"),
		x12.NewSegment(d, "EQ", "30"),
		x12.NewSegment(d, "SE", "13", "0001"),
	}
	fs, err := guide.ValidateTransaction("", segs, guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 0 {
		t.Errorf("clean 270: %q", codeSet(fs))
	}
	segs[11] = x12.NewSegment(d, "EQ", "ZZZZ")
	fs, _ = guide.ValidateTransaction("", segs, guide.Options{})
	if got := codeSet(fs); !slices.Contains(got, "guide.element-invalid-code EQ") {
		t.Errorf("bad service type: %q", got)
	}
	if _, err := guide.ValidateTransaction("", segs[1:], guide.Options{}); err == nil {
		t.Error("no error without ST")
	}
}

// parseSegments splits a bare ST..SE text into segments.
func parseSegments(t *testing.T, text string) []*x12.Segment {
	t.Helper()
	var out []*x12.Segment
	for _, s := range strings.Split(strings.TrimSpace(text), "~") {
		if s = strings.TrimSpace(s); s != "" {
			out = append(out, mustSegment(s))
		}
	}
	return out
}

func mustSegment(s string) *x12.Segment {
	parts := strings.Split(s, "*")
	return x12.NewSegment(x12.DefaultDelimiters, parts[0], parts[1:]...)
}

// validateSet runs a Validator over segments with a given guide.
func validateSet(g *guide.Guide, segs []*x12.Segment) []x12.Finding {
	var out []x12.Finding
	v := guide.NewValidator(guide.Options{})
	v.Begin(g, segs[0], func(f x12.Finding) { out = append(out, f) })
	for _, s := range segs[1:] {
		v.Step(s)
	}
	v.End()
	return out
}

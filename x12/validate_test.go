package x12_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// recorder is a SetValidator that logs its calls and reports one finding
// on every NTE segment.
type recorder struct{ calls []string }

func (r *recorder) BeginSet(h x12.SetHeader, _ func(x12.Finding)) {
	r.calls = append(r.calls, fmt.Sprintf("begin %s %s %s %s", h.ID, h.ControlNumber, h.ImplementationRef, h.GroupVersion))
}

func (r *recorder) Segment(seg *x12.Segment, pos int, report func(x12.Finding)) {
	r.calls = append(r.calls, fmt.Sprintf("%s@%d", seg.ID(), pos))
	if seg.Is("NTE") {
		report(x12.Finding{Severity: x12.Error, Code: "test.nte", Element: 1, IK4: "7", Message: "no notes"})
	}
}

func (r *recorder) EndSet(func(x12.Finding)) { r.calls = append(r.calls, "end") }

func TestSetValidatorHook(t *testing.T) {
	in := isaStar + "GS*HC*AA*BB*20240101*1200*1*X*005010X222A1~" +
		"ST*837*0001*005010X222A1~BHT*0019~NTE*ADD*X~SE*4*0001~" +
		"ST*837*0002~BHT*0019~GE*2*1~IEA*1*000000001~"
	rec := &recorder{}
	rep, err := x12.Validate(strings.NewReader(in), x12.ValidateOptions{Sets: rec})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"begin 837 0001 005010X222A1 005010X222A1", "ST@1", "BHT@2", "NTE@3", "SE@4", "end",
		"begin 837 0002  005010X222A1", "ST@1", "BHT@2", "end"}
	if !slices.Equal(rec.calls, want) {
		t.Errorf("calls %v\nwant  %v", rec.calls, want)
	}
	sets := rep.Interchanges[0].Groups[0].Sets
	if len(sets[0].Findings) != 1 {
		t.Fatalf("set 1 findings: %v", sets[0].Findings)
	}
	f := sets[0].Findings[0]
	if f.SegmentID != "NTE" || f.Position != 3 || f.Offset != int64(strings.Index(in, "NTE")) || f.Line != 1 || f.Column != int(f.Offset)+1 {
		t.Errorf("hook finding not completed: %+v", f)
	}
	if codes := distinctCodes(rep); !slices.Equal(codes, []x12.Code{x12.CodeSEMissing, "test.nte"}) {
		t.Errorf("codes %v", codes)
	}
}

func TestReportAddFilesByOffset(t *testing.T) {
	in := isaStar + "GS*HC*AA*BB*20240101*1200*1*X*005010X222A1~ST*837*0001~BHT*0019~SE*3*0001~GE*1*1~IEA*1*000000001~"
	rep, err := x12.Validate(strings.NewReader(in), x12.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	at := func(s string) int64 { return int64(strings.Index(in, s)) }
	rep.Add(x12.Finding{Code: "a", Offset: at("BHT"), IK3: "8"})
	rep.Add(x12.Finding{Code: "b", Offset: at("BHT"), AK9: "1"})
	rep.Add(x12.Finding{Code: "c", Offset: at("GS"), TA1: "024"})
	rep.Add(x12.Finding{Code: "d", Offset: int64(len(in) + 100)})
	ic := rep.Interchanges[0]
	g := ic.Groups[0]
	if len(g.Sets[0].Findings) != 1 || g.Sets[0].Findings[0].Code != "a" ||
		len(g.Findings) != 1 || g.Findings[0].Code != "b" ||
		len(ic.Findings) != 1 || ic.Findings[0].Code != "c" ||
		len(rep.Findings) != 1 || rep.Findings[0].Code != "d" {
		t.Errorf("misfiled: set %v group %v interchange %v file %v", g.Sets[0].Findings, g.Findings, ic.Findings, rep.Findings)
	}
}

func TestValidateEnvelopeChecks(t *testing.T) {
	gs := "GS*HC*AA*BB*20240101*1200*1*X*005010X222A1~"
	tests := []struct {
		name string
		in   string
		want []x12.Code
	}{
		{"clean", isaStar + gs + "ST*837*0001~SE*2*0001~GE*1*1~IEA*1*000000001~", nil},
		{"duplicate ISA13", isaStar + "IEA*0*000000001~" + isaStar + "IEA*0*000000001~", []x12.Code{x12.CodeISADuplicate}},
		{"duplicate GS06", isaStar + gs + "GE*0*1~" + gs + "GE*0*1~IEA*2*000000001~", []x12.Code{x12.CodeGSDuplicate}},
		{"duplicate ST02", isaStar + gs + "ST*837*0001~SE*2*0001~ST*837*0001~SE*2*0001~GE*2*1~IEA*1*000000001~",
			[]x12.Code{x12.CodeSTDuplicate}},
		{"ST outside group", isaStar + "ST*837*0001~SE*2*0001~IEA*0*000000001~", []x12.Code{x12.CodeInterchangeContent}},
		{"IEA closes an open group", isaStar + gs + "ST*837*0001~IEA*1*000000001~", []x12.Code{x12.CodeGEMissing, x12.CodeSEMissing}},
		{"segment outside set", isaStar + gs + "NM1*X~GE*0*1~IEA*1*000000001~", []x12.Code{x12.CodeInterchangeContent}},
		{"IEA without ISA", "IEA*0*000000001~", []x12.Code{x12.CodeNoInterchange}},
		{"bad ISA date and usage", strings.Replace(strings.Replace(isaStar, "240101", "241301", 1), "*T*", "*X*", 1) + "IEA*0*000000001~",
			[]x12.Code{x12.CodeISAValue}},
		{"wrong ST01 for group", isaStar + gs + "ST*270*0001~SE*2*0001~GE*1*1~IEA*1*000000001~", []x12.Code{x12.CodeSTID}},
		{"segment id", isaStar + gs + "ST*837*0001~nm1*X~SE*3*0001~GE*1*1~IEA*1*000000001~", []x12.Code{x12.CodeSegmentID}},
		{"empty segment", isaStar + gs + "ST*837*0001~NM1~SE*3*0001~GE*1*1~IEA*1*000000001~", []x12.Code{x12.CodeEmptySegment}},
		{"version mismatch", strings.Replace(isaStar, "*^*00501", "*U*00401", 1) + gs + "GE*0*1~IEA*1*000000001~",
			[]x12.Code{x12.CodeVersionMismatch}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := x12.Validate(strings.NewReader(tt.in), x12.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got := distinctCodes(rep); !slices.Equal(got, tt.want) {
				t.Errorf("codes %v, want %v: %v", got, tt.want, rep.All())
			}
		})
	}
}

package x12_test

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
)

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	testenv.Golden(t, filepath.Join("testdata", name), got)
}

var ackDate = time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC)

// TestWriteAcksGolden renders acknowledgments for a file with trailer,
// control-number and syntax errors in two sets, plus a guide-level finding
// added afterwards, and pins the output.
func TestWriteAcksGolden(t *testing.T) {
	in := strings.Join([]string{
		strings.Replace(isaStar, "*0*T*", "*1*T*", 1),
		"GS*HC*SENDER*RECEIVER*20240101*1200*7*X*005010X222A1~",
		"ST*837*0001*005010X222A1~", "BHT*0019*00*1*20240101*1200*CH~", "CLM*A1*10***11:B:1*Y*A*Y*Y**~", "SE*9*0001~",
		"ST*837*0002*005010X222A1~", "BHT*0019*00*2*20240101*1200*CH~", "SE*3*0002~",
		"GE*2*7~", "IEA*1*000000001~", ""}, "\n")
	rep, err := x12.Validate(strings.NewReader(in), x12.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// A guide finding about BHT of the second set, filed by offset.
	rep.Add(x12.Finding{Severity: x12.Error, Code: "guide.code-invalid", Offset: int64(strings.Index(in, "BHT*0019*00*2")),
		SegmentID: "BHT", Position: 2, LoopID: "", Element: 1, ElementRef: "1005", IK4: "7", Value: "0019",
		ContextName: "BHT03", ContextValue: "2"})
	var buf bytes.Buffer
	err = x12.WriteAcks(&buf, rep, x12.AckOptions{Date: ackDate, LineBreaks: true,
		Numbers: &x12.SequentialControlNumbers{Interchange: 41, Group: 9}})
	if err != nil {
		t.Fatal(err)
	}
	golden(t, "ack_two_sets.x12", buf.Bytes())
}

// ackOf validates in and returns its acknowledgments.
func ackOf(t *testing.T, in string, opts x12.AckOptions) string {
	t.Helper()
	rep, err := x12.Validate(strings.NewReader(in), x12.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x12.WriteAcks(&buf, rep, opts); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

func TestWriteAcksNeedsAnInterchange(t *testing.T) {
	rep, _ := x12.Validate(strings.NewReader("not x12"), x12.ValidateOptions{})
	if err := x12.WriteAcks(&bytes.Buffer{}, rep, x12.AckOptions{}); err == nil {
		t.Error("want an error for input without an interchange")
	}
}

func TestTA1StatusAndPolicy(t *testing.T) {
	tests := []struct {
		name   string
		in     string
		policy x12.TA1Policy
		want   string // TA1 segment or "" for none
	}{
		{"not requested, clean", isaStar + "IEA*0*000000001~", x12.TA1WhenRequested, ""},
		{"requested, clean", strings.Replace(isaStar, "*0*T*", "*1*T*", 1) + "IEA*0*000000001~", x12.TA1WhenRequested,
			"TA1*000000001*240101*1200*A*000"},
		{"rejected without request", isaStar + "IEA*0*000000002~", x12.TA1WhenRequested, "TA1*000000001*240101*1200*R*001"},
		{"never", isaStar + "IEA*0*000000002~", x12.TA1Never, ""},
		{"always", isaStar + "IEA*0*000000001~", x12.TA1Always, "TA1*000000001*240101*1200*A*000"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := ackOf(t, tt.in, x12.AckOptions{TA1: tt.policy, Date: ackDate})
			var got string
			for _, seg := range strings.Split(out, "~") {
				if strings.HasPrefix(seg, "TA1*") {
					got = seg
				}
			}
			if got != tt.want {
				t.Errorf("TA1 = %q, want %q\n%s", got, tt.want, out)
			}
		})
	}
}

// TestSegmentErrorsGrouping: one IK3 loop per segment (position, id, loop);
// missing segments reported at the same place stay apart.
func TestSegmentErrorsGrouping(t *testing.T) {
	e := x12.Error
	tests := []struct {
		name string
		in   []x12.Finding
		want []string // per group: "SEG*POS*LOOP*IK3 [IK4...]"
	}{
		{"two missing after ST", []x12.Finding{
			{Severity: e, SegmentID: "BHT", Position: 1, IK3: "3", Offset: 10},
			{Severity: e, SegmentID: "HL", Position: 1, LoopID: "2000A", IK3: "3", Offset: 10},
		}, []string{"BHT*1**3", "HL*1*2000A*3"}},
		{"missing beside a present segment's errors", []x12.Finding{
			{Severity: e, SegmentID: "NM1", Position: 5, LoopID: "2010AA", Element: 3, IK4: "1", Offset: 50},
			{Severity: e, SegmentID: "NM1", Position: 5, LoopID: "2010BB", IK3: "3", Offset: 50},
			{Severity: e, SegmentID: "NM1", Position: 5, LoopID: "2010AA", Element: 9, IK4: "7", Offset: 50},
		}, []string{"NM1*5*2010AA*8 1 7", "NM1*5*2010BB*3"}},
		{"envelope finding joins the guide's loop", []x12.Finding{
			{Severity: e, SegmentID: "CLM", Position: 9, IK3: "8", Element: 21, IK4: "3", Offset: 90},
			{Severity: e, SegmentID: "CLM", Position: 9, LoopID: "2300", Element: 2, IK4: "6", Offset: 90},
			{Severity: e, SegmentID: "CLM", Position: 9, LoopID: "2300", Element: 5, IK4: "7", Offset: 90},
		}, []string{"CLM*9*2300*8 3 6 7"}},
		{"input order by offset, code from the first segment-level code", []x12.Finding{
			{Severity: e, SegmentID: "REF", Position: 12, LoopID: "2300", Element: 2, IK4: "4", Offset: 120},
			{Severity: e, SegmentID: "DTP", Position: 11, LoopID: "2300", IK3: "5", Offset: 110},
			{Severity: e, SegmentID: "REF", Position: 12, LoopID: "2300", IK3: "I4", Offset: 120},
			{Severity: e, Code: "set-level", IK5: "4", Offset: 0},
		}, []string{"DTP*11*2300*5", "REF*12*2300*I4 4"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for _, g := range x12.SegmentErrors(tt.in) {
				s := fmt.Sprintf("%s*%d*%s*%s", g[0].SegmentID, g[0].Position, g[0].LoopID, g[0].IK3)
				for _, f := range g {
					if f.IK4 != "" {
						s += " " + f.IK4
					}
				}
				got = append(got, s)
			}
			if strings.Join(got, "|") != strings.Join(tt.want, "|") {
				t.Errorf("groups\n got %q\nwant %q", got, tt.want)
			}
		})
	}
}

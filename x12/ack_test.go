package x12_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

var update = flag.Bool("update", false, "rewrite golden files in testdata/")

// golden compares got with testdata/name, rewriting it under -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from golden file:\n got: %s\nwant: %s", name, got, want)
	}
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
			rep, err := x12.Validate(strings.NewReader(tt.in), x12.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var buf bytes.Buffer
			if err := x12.WriteAcks(&buf, rep, x12.AckOptions{TA1: tt.policy, Date: ackDate}); err != nil {
				t.Fatal(err)
			}
			var got string
			for _, seg := range strings.Split(buf.String(), "~") {
				if strings.HasPrefix(seg, "TA1*") {
					got = seg
				}
			}
			if got != tt.want {
				t.Errorf("TA1 = %q, want %q\n%s", got, tt.want, buf.String())
			}
		})
	}
}

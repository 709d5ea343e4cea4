package guide_test

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// The pyx12 cases are 4010 837Ps with pyx12's expected 997. We read them
// with our 5010 837P guide, render the 999 the way "clearhouse x12 ack"
// does (x12.WriteAcks) and compare the guide-level codes: each expected
// AK3 (segment, position, IK304) must be an IK3 of ours, and each AK4
// (position, element reference, IK403) one of its IK4s. skip lists the
// expected lines that cannot match, with the reason.
var pyx12Acks = []struct {
	file string
	skip map[string]string
}{
	{"invalid/837P_pyx12_4010_2400-loop-over-max.txt", nil},
	{"invalid/837P_pyx12_4010_PER-over-max-use.txt", nil},
	{"invalid/837P_pyx12_4010_bad-elements.txt", map[string]string{
		"AK3*REF*3**8":             "4010's header REF*87 has no 5010 counterpart: ours is IK304 2 (unexpected)",
		"AK4*2*127*7*004010X098A2": "same 4010 header REF",
		"AK3*CLM*23**8":            "place of service 95: our POS list is an advisory 2014 snapshot (warning, not acknowledged)",
		"AK4*5:1*1331*7*95":        "same",
	}},
	{"invalid/837P_pyx12_4010_minimal-missing-BHT-HL.txt", nil},
}

func TestPyx12Acks(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	g, _ := guide.ByID("837P")
	for _, tc := range pyx12Acks {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			ours := ack999(t, filepath.Join(dir, tc.file), g)
			expected, err := os.ReadFile(filepath.Join(dir, strings.TrimSuffix(tc.file, ".txt")+".expected-997.txt"))
			if err != nil {
				t.Fatal(err)
			}
			checked := 0
			var ak3 string
			for _, seg := range splitSegments(string(expected)) {
				switch {
				case strings.HasPrefix(seg, "AK3*"):
					ak3 = seg
				case strings.HasPrefix(seg, "AK4*"):
				default:
					continue
				}
				if why, ok := tc.skip[seg]; ok {
					t.Logf("skip %s: %s", seg, why)
					continue
				}
				checked++
				if !ours.has(ak3, seg) {
					t.Errorf("expected %s (under %s) not in our 999:\n%s", seg, ak3, ours.text)
				}
			}
			if checked == 0 {
				t.Fatal("nothing compared")
			}
		})
	}
}

// TestPyx12MissingFindings: both segments pyx12 reports missing are found.
func TestPyx12MissingFindings(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	fs := validateWith(t, filepath.Join(dir, "invalid/837P_pyx12_4010_minimal-missing-BHT-HL.txt"), "837P", guide.Options{})
	for _, want := range []string{"BHT", "HL"} {
		found := false
		for _, f := range fs {
			found = found || (f.SegmentID == want && f.IK3 == "3" && f.Position == 1)
		}
		if !found {
			t.Errorf("no IK304 3 for %s at position 1", want)
		}
	}
}

// ack999 holds our 999 as IK3 groups: "SEG*POS*CODE" → IK4 "POS*REF*CODE".
type ack999Result struct {
	text  string
	loops map[string][]string
}

func (a ack999Result) has(ak3, seg string) bool {
	p := strings.Split(ak3, "*") // AK3*SEG*POS**CODE
	key := p[1] + "*" + p[2] + "*" + p[4]
	ik4s, ok := a.loops[key]
	if strings.HasPrefix(seg, "AK3*") {
		return ok
	}
	q := strings.Split(seg, "*") // AK4*POS*REF*CODE*VALUE
	want := q[1] + "*" + q[2] + "*" + q[3]
	for _, x := range ik4s {
		if x == want {
			return true
		}
	}
	return false
}

func ack999(t *testing.T, path string, g *guide.Guide) ack999Result {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := x12.Validate(bufio.NewReader(f), x12.ValidateOptions{Sets: guide.NewSetValidator(guide.Options{}).WithGuide(g)})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := x12.WriteAcks(&buf, rep, x12.AckOptions{Date: time.Date(2026, 1, 2, 3, 4, 0, 0, time.UTC), TA1: x12.TA1Never}); err != nil {
		t.Fatal(err)
	}
	out := ack999Result{text: buf.String(), loops: map[string][]string{}}
	var cur string
	for _, seg := range splitSegments(buf.String()) {
		p := strings.Split(seg, "*")
		switch p[0] {
		case "IK3": // IK3*SEG*POS*LOOP*CODE
			cur = p[1] + "*" + p[2] + "*" + p[4]
			out.loops[cur] = out.loops[cur][:0:0]
		case "IK4": // IK4*POS*REF*CODE*VALUE
			out.loops[cur] = append(out.loops[cur], p[1]+"*"+p[2]+"*"+p[3])
		}
	}
	return out
}

func splitSegments(s string) []string {
	var out []string
	for _, seg := range strings.Split(s, "~") {
		if seg = strings.TrimSpace(seg); seg != "" {
			out = append(out, seg)
		}
	}
	return out
}

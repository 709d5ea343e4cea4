package x12_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// ackCodes is what an acknowledgment says, reduced to its codes.
type ackCodes struct {
	ta1      string     // "R*015"; "" when no TA1
	sets     [][]string // per AK2/AK2: status then codes (AK5 / IK5)
	segments []string   // "CLM*22*8" per AK3 / IK3
	group    []string   // AK9 status then codes
}

// parseAck reads a 997 or 999 (with TA1) into its codes.
func parseAck(t *testing.T, data []byte) ackCodes {
	t.Helper()
	var a ackCodes
	r := x12.NewReader(bytes.NewReader(data))
	for {
		s, err := r.Next()
		if err == io.EOF {
			return a
		}
		if err != nil {
			t.Fatal(err)
		}
		e := s.Elements()
		switch s.ID() {
		case "TA1":
			a.ta1 = s.Element(4) + "*" + s.Element(5)
		case "AK5", "IK5":
			a.sets = append(a.sets, e)
		case "AK3", "IK3":
			a.segments = append(a.segments, s.Element(1)+"*"+s.Element(2)+"*"+s.Element(4))
		case "AK9":
			a.group = append([]string{e[0]}, e[4:]...)
		}
	}
}

// envelopeOnly drops the codes that only an implementation-guide validator
// can produce: "5" (segments in error) from set and group codes.
func envelopeOnly(codes []string) []string {
	return slices.DeleteFunc(slices.Clone(codes), func(c string) bool { return c == "5" })
}

// TestAckMatchesPyx12 compares our TA1 and 999 with the 997s pyx12 expects
// for its test files, at the envelope and syntax level: the TA1 note code,
// the transaction set codes other than "5", the AK9 codes and status, and
// every IK3 we report must be one pyx12 reports. Guide-level AK3/AK4 (usage,
// repeats, code values) come from x12/guide.
func TestAckMatchesPyx12(t *testing.T) {
	dir, files := loadManifest(t)
	n := 0
	for _, cf := range files {
		if cf.Expected != "EXPECTED-ACK" {
			continue
		}
		n++
		input := strings.TrimSuffix(cf.Path, ".expected-997.txt") + ".txt"
		t.Run(input, func(t *testing.T) {
			oracleData, err := os.ReadFile(filepath.Join(dir, cf.Path))
			if err != nil {
				t.Fatal(err)
			}
			want := parseAck(t, oracleData)
			rep := validateCorpusFile(t, dir, input)
			var buf bytes.Buffer
			if err := x12.WriteAcks(&buf, rep, x12.AckOptions{}); err != nil {
				t.Fatal(err)
			}
			got := parseAck(t, buf.Bytes())
			// Our 999 must be clean X12; only the TA1 may echo a bad ISA09/10.
			own, err := x12.Validate(bytes.NewReader(buf.Bytes()), x12.ValidateOptions{})
			for _, f := range own.All() {
				if f.Code != x12.CodeTA1Segment {
					t.Errorf("our acknowledgment is not clean X12: %v %s\n%s", err, f, buf.String())
				}
			}

			if want.ta1 != got.ta1 && !(want.ta1 == "" && got.ta1 == "A*000") {
				t.Errorf("TA1 = %q, pyx12 %q", got.ta1, want.ta1)
			}
			if len(got.sets) != len(want.sets) {
				t.Fatalf("acknowledged %d sets, pyx12 %d\n%s", len(got.sets), len(want.sets), buf.String())
			}
			for i := range want.sets {
				w, g := envelopeOnly(want.sets[i][1:]), envelopeOnly(got.sets[i][1:])
				if !slices.Equal(w, g) {
					t.Errorf("set %d codes = %v, pyx12 %v (envelope level)", i+1, g, w)
				}
				if len(w) > 0 && got.sets[i][0] != want.sets[i][0] {
					t.Errorf("set %d status = %s, pyx12 %s", i+1, got.sets[i][0], want.sets[i][0])
				}
			}
			if w, g := want.group[1:], got.group[1:]; !slices.Equal(w, g) {
				t.Errorf("AK9 codes = %v, pyx12 %v", g, w)
			} else if len(w) > 0 && got.group[0] != want.group[0] {
				t.Errorf("AK9 status = %s, pyx12 %s", got.group[0], want.group[0])
			}
			for _, s := range got.segments {
				if !slices.Contains(want.segments, s) {
					t.Errorf("IK3 %s is not among pyx12's AK3s %v", s, want.segments)
				}
			}
			t.Logf("TA1 %s | sets %v | AK9 %v | IK3 %v (pyx12: TA1 %s | %v | %v | %v)",
				got.ta1, got.sets, got.group, got.segments, want.ta1, want.sets, want.group, want.segments)
		})
	}
	if n == 0 {
		t.Fatal("no EXPECTED-ACK files in the manifest")
	}
}

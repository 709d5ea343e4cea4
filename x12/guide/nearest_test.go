package guide_test

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// validateWith reads a corpus file against one guide whatever its version.
func validateWith(t *testing.T, path, guideID string, opts guide.Options) []x12.Finding {
	t.Helper()
	g, ok := guide.ByID(guideID)
	if !ok {
		t.Fatalf("no guide %s", guideID)
	}
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rep, err := x12.Validate(bufio.NewReader(f), x12.ValidateOptions{Sets: guide.NewSetValidator(opts).WithGuide(g)})
	if err != nil {
		t.Fatal(err)
	}
	return rep.All()
}

// dental4010 are the 4010 dental IG examples read against our 5010 837D
// guide. What remains are 4010→5010 changes only: the 4010 header REF*87,
// NM108 24/34 tax ids where 5010 wants the NPI (XX), the 5010 requirement
// of REF*EI in 2010AA, PRV02 ZZ (5010: PXC), SBR06, and CLM05-2/CLM07,
// which 5010 requires, and the 2010AA ZIP code of 5 digits where 5010
// wants all nine. Every dental segment (DN1, DN2, SV3, TOO, PWK,
// DTP*452) lands in its loop without a structural finding.
var dental4010 = []struct {
	file string
	want []string
	why  string
}{
	{"837D/4010_oop_Spec_4.1.1_PatientIsNotSubscriber.txt", common4010, "patient loop 2000C under the subscriber"},
	{"837D/4010_oop_Spec_4.1.2A_COB.txt", common4010, "COB: 2320 with 2330A/B"},
	{"837D/4010_oop_Spec_4.1.3_Predetermination.txt", append([]string{"guide.hl-child-code HL"}, common4010...), "CLM19 PB, SV305 I; its subscriber HL04 says 1 but no patient level follows"},
	{"837D/4010_oop_Spec_4.1.4_Orthodontic.txt", common4010, "DN1 and DTP*452 in 2300"},
	{"837D/4010_oop_Spec_4.2.1_WorkersComp.txt", common4010, "CLM11 EM"},
}

var common4010 = []string{"guide.element-invalid-code NM1", "guide.element-invalid-code PRV", "guide.element-missing CLM",
	"guide.element-not-used SBR", "guide.element-pattern N4", "guide.segment-missing REF", "guide.segment-unexpected REF"}

func TestDental4010Examples(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	for _, tc := range dental4010 {
		t.Run(filepath.Base(tc.file), func(t *testing.T) {
			got := codeSet(validateWith(t, filepath.Join(dir, tc.file), "837D", guide.Options{}))
			want := slices.Clone(tc.want)
			slices.Sort(want)
			if !slices.Equal(got, want) {
				t.Errorf("got %q\nwant %q\n(%s)", got, want, tc.why)
			}
		})
	}
}

// TestDentalSegmentsLandInTheirLoops follows the 4010 orthodontic and
// predetermination examples through the 837D guide and checks the loop of
// each dental segment.
func TestDentalSegmentsLandInTheirLoops(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	want := map[string]string{"DN1": "2300", "DN2": "2300", "PWK": "2300", "SV3": "2400", "TOO": "2400", "LX": "2400", "CLM": "2300"}
	g, _ := guide.ByID("837D")
	for _, file := range []string{"837D/4010_oop_Spec_4.1.4_Orthodontic.txt", "837D/4010_oop_Spec_4.1.3_Predetermination.txt", "837D/5010_moov_sample_TOO-surfaces.txt"} {
		loops := segmentLoops(t, filepath.Join(dir, file), g)
		seen := 0
		for id, loop := range want {
			got, ok := loops[id]
			if !ok {
				continue
			}
			seen++
			if got != loop {
				t.Errorf("%s: %s in loop %s, want %s", file, id, got, loop)
			}
		}
		if seen < 4 {
			t.Errorf("%s: only %d of the dental segments found", file, seen)
		}
	}
}

// segmentLoops walks a file's first set with the Validator and returns the
// loop each segment id was placed in (last occurrence).
func segmentLoops(t *testing.T, path string, g *guide.Guide) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r := x12.NewReader(bufio.NewReader(f))
	v := guide.NewValidator(guide.Options{})
	out := map[string]string{}
	var loops []string
	in := false
	for {
		seg, err := r.Next()
		if err != nil {
			break
		}
		switch id := seg.ID(); {
		case id == "ST":
			v.Begin(g, seg, nil)
			in, loops = true, []string{"ST"}
		case in:
			st := v.Step(seg)
			loops = loops[:len(loops)-st.Closed]
			if st.Opened != nil {
				loops = append(loops, st.Opened.ID)
			}
			if st.Segment != nil {
				out[id] = loops[len(loops)-1]
			}
			if id == "SE" {
				v.End()
				return out
			}
		}
	}
	return out
}

// TestBalanceOn4010Files: the SNIP 3 defects SOURCES.md names in 4010
// files, found by reading them with the nearest 5010 guide.
func TestBalanceOn4010Files(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	for _, tc := range []struct{ file, guide, want string }{
		{"837P/4010_pyx12_simple_837p.txt", "837P", "guide.balance CLM"},
		{"835/4010_pyx12_835_simple.txt", "835", "guide.balance BPR"},
		{"835/4010_oop_Example1_GripElements.txt", "835", "guide.balance BPR"},
	} {
		got := codeSet(validateWith(t, filepath.Join(dir, tc.file), tc.guide, guide.Options{}))
		if !slices.Contains(got, tc.want) {
			t.Errorf("%s: %q lacks %s", tc.file, got, tc.want)
		}
		off := codeSet(validateWith(t, filepath.Join(dir, tc.file), tc.guide, guide.Options{SkipBusiness: true}))
		if slices.Contains(off, tc.want) {
			t.Errorf("%s: SkipBusiness still reports %s", tc.file, tc.want)
		}
	}
}

package guide_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// goldenInputs is one input per guide: corpus files read in place ("corpus:")
// or files of our own in testdata.
var goldenInputs = []struct{ name, input string }{
	{"270", "corpus:270/5010_lfh_dependent-inquiry.x12"},
	{"271", "corpus:271/5010_lfh_subscriber-benefits.x12"},
	{"276", "corpus:276/5010_lfh_claim-level-status.x12"},
	{"277", "corpus:277/5010_lfh_claim-level-status.x12"},
	{"277CA", "corpus:277CA/5010_ims_277CA_accepted.txt"},
	{"835", "corpus:835/5010_pyx12_835_mult_loops.txt"},
	{"837D", "testdata/837d_dental_features.x12"},
	{"837D-moov", "corpus:837D/5010_moov_sample_TOO-surfaces.txt"},
	{"837I", "testdata/837i_institutional.x12"},
	{"837I-lfh", "corpus:837I/5010_lfh_two-claims-single-provider.x12"},
	{"837P", "corpus:837P/5010_lfh_example1.x12"},
	{"999", "corpus:999/5010_staedi_simple999_partial.edi"},
}

func goldenInput(t *testing.T, input string) []byte {
	t.Helper()
	path := input
	if rel, ok := strings.CutPrefix(input, "corpus:"); ok {
		path = filepath.Join(testenv.CorpusDir(t), rel)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGoldenGuideJSON compares Translate's output with testdata/golden.
// Run with -update after a deliberate change and review the diff.
func TestGoldenGuideJSON(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenInputs {
		t.Run(tc.name, func(t *testing.T) {
			var out bytes.Buffer
			err := guide.Translate(&out, bytes.NewReader(goldenInput(t, tc.input)), guide.TranslateOptions{
				Indent: true, Reader: []x12.ReaderOption{x12.WithDelimiters(x12.DefaultDelimiters)}})
			if err != nil {
				t.Fatal(err)
			}
			testenv.Golden(t, filepath.Join("testdata", "golden", tc.name+".json"), out.Bytes())
		})
	}
}

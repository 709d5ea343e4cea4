package mockpayer_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// TestGolden answers hand-written 270s (testdata/270: other delimiters, a
// payer alias, a trace only at the subscriber level, a CDT procedure) and
// compares the 271s byte for byte with testdata/golden. The goldens are
// one segment per line for review.
func TestGolden(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("testdata", "270", "*.x12"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata 270s: %v", err)
	}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".x12")
		t.Run(name, func(t *testing.T) {
			in, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out := exchange(t, newMock(), in)
			parse271(t, out) // envelope clean
			pretty := bytes.ReplaceAll(out, []byte("~"), []byte("~\n"))
			testenv.Golden(t, filepath.Join("testdata", "golden", name+".271"), pretty)
		})
	}
}

package mockpayer_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite testdata/golden from the current output")

// TestGolden answers hand-written 270s (testdata/270: other delimiters, a
// payer alias, a trace only at the subscriber level, a CDT procedure) and
// compares the 271s byte for byte with testdata/golden. The goldens are
// one segment per line for review; the comparison ignores line breaks.
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
			golden := filepath.Join("testdata", "golden", name+".271")
			if *update {
				if err := os.WriteFile(golden, pretty, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if !bytes.Equal(bytes.ReplaceAll(want, []byte("\n"), nil), out) {
				t.Errorf("271 differs from %s:\n%s", golden, pretty)
			}
		})
	}
}

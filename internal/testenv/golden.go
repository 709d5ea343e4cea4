package testenv

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// update is the -update flag of every test binary that imports testenv.
var update = flag.Bool("update", false, "rewrite golden files under testdata/ from the current output")

// Updating reports whether the test run rewrites golden files (-update).
func Updating() bool { return *update }

// Golden compares got with the golden file at path, or rewrites the file
// (creating its directory) under -update. A difference shows what the code
// produced, so the fix or the -update is an informed one.
func Golden(t testing.TB, path string, got []byte) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run go test -update and review the diff; -want +got):\n%s", path, cmp.Diff(string(want), string(got)))
	}
}

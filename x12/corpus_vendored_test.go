package x12_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestVendoredCorpus: the corpus copy in testdata/corpus holds every file
// of its manifest whose licence allows redistribution, byte for byte (the
// manifest's SHA-256 prefix), and none of the x12.org examples whose terms
// are not confirmed. So `go test ./x12/...` checks the same files in any
// clone, and nothing is shipped that may not be.
func TestVendoredCorpus(t *testing.T) {
	dir := filepath.Join("testdata", "corpus")
	raw, err := os.ReadFile(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	present := 0
	for i, line := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		cols := strings.Split(line, "\t")
		if i == 0 {
			continue
		}
		if len(cols) < 10 {
			t.Fatalf("manifest row %d has %d columns", i, len(cols))
		}
		file, licence, sum := cols[0], cols[7], cols[9]
		data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(file)))
		if strings.Contains(licence, "x12.org") {
			if err == nil {
				t.Errorf("%s is vendored but its licence is %q", file, licence)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s (%s) is redistributable but missing: %v", file, licence, err)
			continue
		}
		got := sha256.Sum256(data)
		if hex.EncodeToString(got[:])[:len(sum)] != sum {
			t.Errorf("%s differs from its source (sha256 %x…, manifest %s): git must keep corpus files byte for byte", file, got[:8], sum)
		}
		present++
	}
	if present < 100 {
		t.Errorf("only %d corpus files vendored", present)
	}
}

package x12_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// corpusFile is one row of the shared corpus manifest.
type corpusFile struct {
	Path     string // relative to the corpus directory
	Kind     string
	Txn      string
	Expected string // VALID, INVALID, EDGE, EXPECTED-ACK
	Features string
	Note     string
}

// loadManifest reads the corpus manifest (testenv.CorpusDir), leaving out
// the files the corpus does not hold.
func loadManifest(t testing.TB) (dir string, files []corpusFile) {
	t.Helper()
	dir = testenv.CorpusDir(t)
	f, err := os.Open(filepath.Join(dir, "manifest.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	header := true
	for sc.Scan() {
		if header {
			header = false
			continue
		}
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 12 {
			t.Fatalf("manifest row has %d columns: %q", len(cols), sc.Text())
		}
		if !testenv.CorpusHas(dir, cols[0]) {
			continue // withheld from the vendored corpus (see its README.md)
		}
		files = append(files, corpusFile{Path: cols[0], Kind: cols[1], Txn: cols[2], Expected: cols[3],
			Features: cols[10], Note: cols[11]})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return dir, files
}

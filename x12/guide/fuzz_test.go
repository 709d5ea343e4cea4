package guide_test

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// FuzzTranslate checks that validating and translating any input never
// panics, that what it writes is JSON whenever it succeeds, and that the
// indented output is the compact one with white space added.
func FuzzTranslate(f *testing.F) {
	dir := testenv.CorpusDir(f)
	for _, row := range manifest(f, dir) {
		data, err := os.ReadFile(filepath.Join(dir, row[0]))
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 32<<10 { // larger seeds mostly exercise copying
			f.Add(data, false)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, bare bool) {
		var ro []x12.ReaderOption
		if bare {
			ro = append(ro, x12.WithDelimiters(x12.DefaultDelimiters))
		}
		translate := func(indent bool) ([]byte, error) {
			var out bytes.Buffer
			err := guide.Translate(&out, bytes.NewReader(data), guide.TranslateOptions{Reader: ro, Indent: indent,
				Validate: true, OnFinding: func(fd x12.Finding) {
					if fd.Code == "" {
						t.Fatalf("finding without a code: %+v", fd)
					}
				}})
			return out.Bytes(), err
		}
		compact, err := translate(false)
		if err != nil {
			return // unreadable input (not X12, segment too long...)
		}
		if !json.Valid(compact) {
			t.Fatalf("output is not JSON:\n%s", compact)
		}
		indented, err := translate(true)
		if err != nil {
			t.Fatalf("indented translation failed where the compact one did not: %v", err)
		}
		var again bytes.Buffer
		if err := json.Compact(&again, indented); err != nil {
			t.Fatalf("indented output is not JSON: %v", err)
		}
		if !bytes.Equal(again.Bytes(), bytes.TrimSpace(compact)) {
			t.Fatalf("indented output differs from the compact one:\n%s\n%s", again.Bytes(), compact)
		}
	})
}

package guide

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// validateWays validates data on the calling goroutine (Workers 1) and with
// sets checked by 2 and 3 workers, streaming findings and keeping the
// report tree, and fails unless every run gives the same findings in the
// same order and the same report. It returns how many findings there were.
func validateWays(t testing.TB, name string, data []byte, ro []x12.ReaderOption) int {
	t.Helper()
	type result struct {
		out []x12.Finding
		rep *x12.Report
		err error
	}
	run := func(workers int, noTree bool) result {
		var r result
		r.rep, r.err = x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Reader: ro, Sets: NewSetValidator(Options{}),
			NoTree: noTree, Workers: workers, OnFinding: func(f x12.Finding) { r.out = append(r.out, f) }})
		return r
	}
	n := 0
	for _, noTree := range []bool{true, false} {
		want := run(1, noTree)
		n = len(want.out)
		for _, workers := range []int{2, 3} {
			got := run(workers, noTree)
			what := fmt.Sprintf("%s (%d workers, NoTree %v)", name, workers, noTree)
			if (got.err == nil) != (want.err == nil) {
				t.Fatalf("%s: error %v, sequentially %v", what, got.err, want.err)
			}
			for i := range max(len(got.out), len(want.out)) {
				var a, b x12.Finding
				if i < len(got.out) {
					a = got.out[i]
				}
				if i < len(want.out) {
					b = want.out[i]
				}
				if !reflect.DeepEqual(a, b) {
					t.Fatalf("%s: finding %d of %d/%d differs:\npipeline   %+v\nsequential %+v", what, i, len(got.out), len(want.out), a, b)
				}
			}
			if !reflect.DeepEqual(got.rep, want.rep) {
				t.Fatalf("%s: the reports differ:\npipeline   %+v\nsequential %+v", what, got.rep, want.rep)
			}
		}
	}
	return n
}

// eachCorpusFile calls f with every corpus file (there must be 50 at least).
func eachCorpusFile(t testing.TB, f func(path string, data []byte)) {
	t.Helper()
	files := 0
	err := filepath.WalkDir(testenv.CorpusDir(t), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) == ".tsv" || filepath.Ext(path) == ".md" {
			return err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f(path, data)
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("only %d corpus files", files)
	}
}

// smallBuffers reads with the smallest reader buffer, so that sets and
// segments straddle many of the chunks the pipeline hands over.
var smallBuffers = []x12.ReaderOption{x12.WithBufferSize(512)}

// TestPipelineAgrees: checking sets on other goroutines gives exactly the
// findings, in the same order, and the report of a sequential run: on every
// corpus file, on generated files of every kind (several sets, line breaks,
// other delimiters), with the default and the smallest buffers, and on a
// generated 837P of several sets with one byte replaced here and there.
func TestPipelineAgrees(t *testing.T) {
	t.Parallel()
	eachCorpusFile(t, func(path string, data []byte) {
		validateWays(t, path, data, nil)
		validateWays(t, path+" (small buffers)", data, smallBuffers)
	})
	for name, data := range fastPathSamples(t, 40) {
		validateWays(t, name, data, nil)
		validateWays(t, name+" (small buffers)", data, smallBuffers)
	}
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 12, PerSet: 2, Seed: 5, LineBreaks: true}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	found := 0
	for i := 106; i < len(data); i += 11 { // past the ISA
		for _, c := range []byte{'*', '~', '\n', 0, 'X'} {
			if data[i] == c {
				continue
			}
			mut := bytes.Clone(data)
			mut[i] = c
			found += validateWays(t, fmt.Sprintf("byte %d = %q", i, c), mut, smallBuffers)
		}
	}
	if found == 0 {
		t.Fatal("no mutation gave a finding")
	}
	// Cut off anywhere: sets without SE, the input ending inside a segment.
	for n := 200; n < len(data); n += 97 {
		validateWays(t, fmt.Sprintf("first %d bytes", n), data[:n], smallBuffers)
	}
}

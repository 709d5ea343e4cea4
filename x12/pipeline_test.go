package x12_test

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// TestPipelineConcurrency runs Validate with sets checked on other
// goroutines over files of many sets, small buffers (many chunks handed
// over) and findings in every set, and compares with a sequential run. It
// is small enough for the race detector (make race covers ./x12);
// x12/guide's TestPipelineAgrees holds the pipeline to the sequential run
// on the corpus and on mutated files.
func TestPipelineConcurrency(t *testing.T) {
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 300, PerSet: 7, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	// A wrong SE count in every set: findings from the reader's side
	// (envelope) and the workers' (guide) interleave in every set.
	data := bytes.ReplaceAll(buf.Bytes(), []byte("~SE*"), []byte("~SE*9"))
	run := func(workers int, ro ...x12.ReaderOption) ([]x12.Finding, *x12.Report) {
		var out []x12.Finding
		rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Reader: ro, Workers: workers,
			Sets: guide.NewSetValidator(guide.Options{}), OnFinding: func(f x12.Finding) { out = append(out, f) }})
		if err != nil {
			t.Fatal(err)
		}
		return out, rep
	}
	for _, ro := range [][]x12.ReaderOption{nil, {x12.WithBufferSize(512)}} {
		want, wantRep := run(1, ro...)
		if len(want) < 40 {
			t.Fatalf("%d findings, want one or more a set", len(want))
		}
		for _, workers := range []int{2, 4} {
			got, rep := run(workers, ro...)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%d workers: %d findings differ from the sequential run's %d", workers, len(got), len(want))
			}
			if !reflect.DeepEqual(rep, wantRep) {
				t.Fatalf("%d workers: the report differs from the sequential run's", workers)
			}
		}
	}
}

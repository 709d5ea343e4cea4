package x12_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
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
		return validateWith(t, data, workers, ro)
	}
	// Workers 0 with a source that returns a little at a time: the first
	// sets are checked on the calling goroutine, the pipeline starts at the
	// first ST once a buffer has filled.
	want, wantRep := run(1)
	var out []x12.Finding
	rep, err := x12.Validate(&trickle{data: data}, x12.ValidateOptions{Sets: guide.NewSetValidator(guide.Options{}),
		OnFinding: func(f x12.Finding) { out = append(out, f) }})
	if err != nil || !reflect.DeepEqual(out, want) || !reflect.DeepEqual(rep, wantRep) {
		t.Fatalf("read a little at a time: error %v, %d findings, sequentially %d, reports equal %v", err, len(out), len(want), reflect.DeepEqual(rep, wantRep))
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

// trickle returns at most 1,000 bytes a Read.
type trickle struct{ data []byte }

func (r *trickle) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p[:min(len(p), 1000)], r.data)
	r.data = r.data[n:]
	return n, nil
}

// failingReader returns its data and then an error that is not io.EOF.
type failingReader struct{ data []byte }

var errBroken = errors.New("connection reset")

func (r *failingReader) Read(p []byte) (int, error) {
	if len(r.data) == 0 {
		return 0, errBroken
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

// TestPipelineReadError: input that fails to read part way gives, with
// sets checked on other goroutines, the findings of the segments read
// before the failure and the error, as a sequential run does.
func TestPipelineReadError(t *testing.T) {
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 60, PerSet: 5, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	data := bytes.ReplaceAll(buf.Bytes(), []byte("~SE*"), []byte("~SE*9"))
	for _, n := range []int{3000, len(data) / 2, len(data) - 10} {
		run := func(workers int) ([]x12.Finding, error) {
			var out []x12.Finding
			_, err := x12.Validate(&failingReader{data: data[:n]}, x12.ValidateOptions{Workers: workers,
				Reader: []x12.ReaderOption{x12.WithBufferSize(1024)}, Sets: guide.NewSetValidator(guide.Options{}),
				OnFinding: func(f x12.Finding) { out = append(out, f) }})
			return out, err
		}
		want, wantErr := run(1)
		got, err := run(2)
		if !errors.Is(err, errBroken) || !errors.Is(wantErr, errBroken) {
			t.Fatalf("%d bytes: errors %v and %v, want %v", n, err, wantErr, errBroken)
		}
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%d bytes: %d findings, sequentially %d", n, len(got), len(want))
		}
	}
}

// panicky is a SetValidator that fails on a set's fifth segment.
type panicky struct{}

func (panicky) BeginSet(x12.SetHeader, func(x12.Finding)) {}
func (panicky) Segment(_ *x12.Segment, pos int, _ func(x12.Finding)) {
	if pos == 5 {
		panic("set validator bug")
	}
}
func (panicky) EndSet(func(x12.Finding)) {}
func (panicky) Fork() x12.SetValidator   { return panicky{} }

// TestPipelinePanic: a SetValidator's panic on another goroutine reaches
// the caller of Validate, as it would on the calling goroutine.
func TestPipelinePanic(t *testing.T) {
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 20, PerSet: 5, Seed: 2}); err != nil {
		t.Fatal(err)
	}
	defer func() {
		if e := recover(); e != "set validator bug" {
			t.Fatalf("recovered %v", e)
		}
	}()
	_, _ = x12.Validate(bytes.NewReader(buf.Bytes()), x12.ValidateOptions{Workers: 2, Sets: panicky{}})
	t.Fatal("no panic")
}

// segments is a SetValidator that reports every segment it is given: its
// position, offset, end and bytes, so that a test sees each segment the
// workers found again in a chunk (pipeline.go's spans) as the reader read it.
type segments struct{}

func (segments) BeginSet(x12.SetHeader, func(x12.Finding)) {}
func (segments) Segment(seg *x12.Segment, pos int, report func(x12.Finding)) {
	report(x12.Finding{Severity: x12.Info, Code: "test.segment", Offset: seg.Offset(), Position: pos,
		Message: fmt.Sprintf("%q, end %d, %d elements, unterminated %v", seg.Raw(), seg.End(), seg.Len(), seg.Unterminated())})
}
func (segments) EndSet(func(x12.Finding)) {}
func (segments) Fork() x12.SetValidator   { return segments{} }

// TestPipelineSpans: the segments checked on other goroutines are those
// the reader read, whatever lies between them and however they end: line
// breaks and indentation after the terminator, a line break as the
// terminator with blanks padding the line, line breaks inside segments,
// and the input ending without a terminator.
func TestPipelineSpans(t *testing.T) {
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 40, PerSet: 3, Seed: 5}); err != nil {
		t.Fatal(err)
	}
	base := buf.Bytes()
	lines := bytes.ReplaceAll(base, []byte("~"), []byte("\n"))
	layouts := map[string][]byte{
		"as generated":             base,
		"a line break after each":  bytes.ReplaceAll(base, []byte("~"), []byte("~\n")),
		"CRLF and indentation":     bytes.ReplaceAll(base, []byte("~"), []byte("~\r\n  ")),
		"blanks after each":        bytes.ReplaceAll(base, []byte("~"), []byte("~ \t ")),
		"a line break terminates":  lines,
		"padded lines":             bytes.ReplaceAll(bytes.ReplaceAll(lines, []byte("\nDTP"), []byte("   \nDTP")), []byte("\nREF"), []byte("\t \nREF")),
		"wrapped segments":         bytes.ReplaceAll(bytes.ReplaceAll(base, []byte("~NM1*"), []byte("~NM1*\r\n")), []byte("~SV1*HC:"), []byte("~SV1*HC\n:")),
		"no terminator at the end": bytes.TrimSuffix(bytes.TrimSuffix(base, []byte("\n")), []byte("~")),
		// Segments the reader's loop over a span (validator.spans) leaves
		// to the usual path: trailing separators, ids not of letters and
		// digits or of one letter, ids beginning with I or H.
		"trailing separators": bytes.ReplaceAll(base, []byte("~DTP*"), []byte("*~DTP*")),
		"odd ids": bytes.ReplaceAll(bytes.ReplaceAll(bytes.ReplaceAll(bytes.ReplaceAll(bytes.ReplaceAll(base,
			[]byte("~REF*"), []byte("~rEF*")), []byte("~N3*"), []byte("~N*")), []byte("~SV1*"), []byte("~IV1*")),
			[]byte("~DMG*"), []byte("~HMG*")), []byte("~LX*"), []byte("~AB~X~LX*")),
		// Longer than a span's lengths hold (maxSpanLen).
		"a segment of 70,000 bytes": bytes.Replace(base, []byte("~DMG*"), []byte("~NTE*ADD*"+strings.Repeat("A", 70000)+"~DMG*"), 2),
	}
	defer x12.SetHelpTest(nil)()
	for name, data := range layouts {
		for _, size := range []int{512, 4096, 1 << 17} {
			run := func(workers int) ([]x12.Finding, *x12.Report) {
				var out []x12.Finding
				rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Workers: workers, Sets: segments{},
					Reader: []x12.ReaderOption{x12.WithBufferSize(size)}, OnFinding: func(f x12.Finding) { out = append(out, f) }})
				if err != nil {
					t.Fatal(err)
				}
				return out, rep
			}
			want, wantRep := run(1)
			if len(want) < 1000 {
				t.Fatalf("%s: %d findings, want one a segment", name, len(want))
			}
			for _, help := range []func(int) int{nil, func(int) int { return 1 }} {
				x12.SetHelpTest(help)
				for _, workers := range []int{2, 3} {
					got, rep := run(workers)
					if !reflect.DeepEqual(rep, wantRep) {
						t.Fatalf("%s, %d-byte buffers, %d workers: the report differs from the sequential run's", name, size, workers)
					}
					if !reflect.DeepEqual(got, want) {
						i := 0
						for i < min(len(got), len(want)) && reflect.DeepEqual(got[i], want[i]) {
							i++
						}
						t.Fatalf("%s, %d-byte buffers, %d workers: finding %d of %d differs from the sequential run's (of %d)",
							name, size, workers, i, len(got), len(want))
					}
				}
			}
		}
	}
}

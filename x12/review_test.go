package x12_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// reviewValidate validates data on workers goroutines with sets (the
// guides, or segments{}, which reports every segment it is given as a
// finding: its bytes, offset, end, element count and position).
func reviewValidate(data []byte, sets x12.SetValidator, workers int, ro []x12.ReaderOption) ([]x12.Finding, *x12.Report, string) {
	var out []x12.Finding
	var src io.Reader = bytes.NewReader(data)
	if reviewSource != nil {
		src = reviewSource(src)
	}
	rep, err := x12.Validate(src, x12.ValidateOptions{Workers: workers, Sets: sets, Reader: ro,
		OnFinding: func(f x12.Finding) { out = append(out, f) }})
	if err != nil {
		return out, rep, err.Error()
	}
	return out, rep, ""
}

// reviewSource, when set, wraps the input reviewValidate reads.
var reviewSource func(io.Reader) io.Reader

// chunkReader returns its reader's bytes a few at a time (1 to 97 bytes,
// varying), as a slow network connection would.
type chunkReader struct {
	r io.Reader
	n int
}

func (c *chunkReader) Read(p []byte) (int, error) {
	c.n = (c.n*31 + 7) % 97
	return c.r.Read(p[:min(len(p), c.n+1)])
}

// TestReviewSlowSourcesAgree: input that arrives a byte, a few bytes or
// half a buffer at a time, or ends in an error with its last bytes, fills
// the reader's buffer with parts of segments: the pipeline's findings and
// report are still the sequential run's.
func TestReviewSlowSourcesAgree(t *testing.T) {
	base := reviewBase(t, x12gen.Options{Kind: x12gen.Claims837P, Items: 10, PerSet: 3, Seed: 65})
	inputs := map[string][]byte{
		"as generated":        base,
		"CRLF":                bytes.ReplaceAll(base, []byte("~"), []byte("~\r\n")),
		"trailing separators": bytes.ReplaceAll(base, []byte("~DTP*"), []byte("*~DTP*")),
		"IK3 ids":             bytes.ReplaceAll(base, []byte("~REF*"), []byte("~IK3*")),
	}
	defer func() { reviewSource = nil }()
	for _, src := range []struct {
		name string
		wrap func(io.Reader) io.Reader
	}{
		{"a byte at a time", iotest.OneByteReader},
		{"half at a time", iotest.HalfReader},
		{"data with the error", iotest.DataErrReader},
		{"chunks", func(r io.Reader) io.Reader { return &chunkReader{r: r} }},
		{"a timeout", func(r io.Reader) io.Reader { return iotest.TimeoutReader(&chunkReader{r: r}) }},
	} {
		reviewSource = src.wrap
		for name, data := range inputs {
			for _, ro := range [][]x12.ReaderOption{nil, {x12.WithBufferSize(512)}} {
				reviewPipelineAgrees(t, fmt.Sprintf("%s, %s, %d reader options", name, src.name, len(ro)), data, ro)
			}
		}
	}
}

// reviewPipelineAgrees fails unless data gives, on 2, 3 and 4 goroutines,
// with the reader checking jobs as it chooses, every one it can or none,
// the findings and report of one goroutine, with the guides and with
// segments{}.
func reviewPipelineAgrees(t *testing.T, name string, data []byte, ro []x12.ReaderOption) {
	t.Helper()
	defer x12.SetHelpTest(nil)()
	helps := []func(int) int{nil, func(int) int { return 1 }, func(int) int { return 1 << 30 }}
	for _, s := range []struct {
		name string
		sets func() x12.SetValidator
	}{
		{"guides", func() x12.SetValidator { return guide.NewSetValidator(guide.Options{}) }},
		{"segments", func() x12.SetValidator { return segments{} }},
	} {
		x12.SetHelpTest(nil)
		want, wantRep, wantErr := reviewValidate(data, s.sets(), 1, ro)
		for i, workers := range []int{2, 3, 4, 0} {
			x12.SetHelpTest(helps[i%len(helps)])
			if workers == 0 {
				// Validate's choice: the pipeline starts at the first ST
				// after the reader's buffer filled, in the middle of the
				// input.
				defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(4))
			}
			got, rep, err := reviewValidate(data, s.sets(), workers, ro)
			what := fmt.Sprintf("%s, %s, %d workers, help %d", name, s.name, workers, i)
			if err != wantErr {
				t.Fatalf("%s: error %q, sequentially %q", what, err, wantErr)
			}
			if !reflect.DeepEqual(got, want) {
				k := 0
				for k < min(len(got), len(want)) && reflect.DeepEqual(got[k], want[k]) {
					k++
				}
				var a, b x12.Finding
				if k < len(got) {
					a = got[k]
				}
				if k < len(want) {
					b = want[k]
				}
				t.Fatalf("%s: finding %d of %d (sequentially %d) differs:\ngot        %+v\nsequential %+v", what, k, len(got), len(want), a, b)
			}
			if !reflect.DeepEqual(rep, wantRep) {
				t.Fatalf("%s: the report differs from the sequential run's", what)
			}
		}
	}
}

// reviewBase is a generated 837P of small sets whose segments the
// reader's loop over a span reads (validator.spans).
func reviewBase(t testing.TB, o x12gen.Options) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, o); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestReviewSpanEdgesAgree: input aimed at the reader's loop over a span
// and at the records handed to the workers gives the sequential run's
// findings and report: ids that begin like an envelope's or an HL, odd and
// empty ids, trailing separators, segments of exactly the longest length a
// span holds and one byte more, an interchange beginning in the middle of
// a set with other delimiters, an SE or GE missing, blanks and line breaks
// where segments begin, and delimiters that are blanks or line breaks.
func TestReviewSpanEdgesAgree(t *testing.T) {
	base := reviewBase(t, x12gen.Options{Kind: x12gen.Claims837P, Items: 12, PerSet: 3, Seed: 61})
	other := reviewBase(t, x12gen.Options{Kind: x12gen.Remittances835, Items: 2, Seed: 62,
		Delimiters: x12.Delimiters{Element: '|', Repetition: '!', Component: '>', Segment: '\n'}})
	rep := func(data []byte, old, new string) []byte { return bytes.ReplaceAll(data, []byte(old), []byte(new)) }
	long := func(n int) string { return "~NTE*ADD*" + strings.Repeat("A", n-len("NTE*ADD*")) + "~DMG*" }
	inputs := map[string][]byte{
		"IN ids":                      rep(base, "~REF*", "~IN*"),
		"IK3 ids":                     rep(base, "~DTP*", "~IK3*"),
		"ISX ids":                     rep(base, "~DTP*", "~ISX*"),
		"IEA in a set":                rep(base, "~DTP*", "~IEA*"),
		"ISA-like in a set":           rep(base, "~REF*", "~ISA*"),
		"GE in a set":                 rep(base, "~DTP*", "~GE*"),
		"GS in a set":                 rep(base, "~DTP*", "~GS*"),
		"ST in a set":                 rep(base, "~REF*", "~ST*"),
		"SE dropped":                  rep(base, "~SE*", "~XSE*"),
		"H ids":                       rep(base, "~DTP*", "~HXX*"),
		"HL without elements":         rep(base, "~SBR*", "~HL~SBR*"),
		"odd ids":                     rep(rep(base, "~REF*", "~R*"), "~DTP*", "~D1P2*"),
		"empty ids":                   rep(base, "~DTP*", "~*"),
		"empty segments":              rep(base, "~DTP*", "~~~DTP*"),
		"blank segments":              rep(base, "~DTP*", "~  ~DTP*"),
		"trailing separators":         rep(base, "~DTP*", "*~DTP*"),
		"a trailing separator alone":  rep(base, "~DTP*", "~DT*~DTP*"),
		"ids alone":                   rep(base, "~DTP*", "~DTP~DTP*"),
		"separator after id's end":    rep(base, "~DTP*", "~DT1*~DTP*"),
		"a segment of 65,535 bytes":   bytes.Replace(base, []byte("~DMG*"), []byte(long(65535)), 3),
		"a segment of 65,536 bytes":   bytes.Replace(base, []byte("~DMG*"), []byte(long(65536)), 3),
		"CR only":                     rep(base, "~", "~\r"),
		"blanks then ids":             rep(base, "~", "~ \t \r\n"),
		"an interchange in a set":     bytes.Replace(base, []byte("~LX*"), append(append([]byte("~"), other...), []byte("LX*")...), 2),
		"a NUL before segments":       rep(base, "~DTP*", "~\x00DTP*"),
		"non-ASCII in ids":            rep(base, "~DTP*", "~D\xc3\xa9P*"),
		"lower-case ids":              rep(base, "~REF*", "~ref*"),
		"the element separator as id": rep(base, "~DTP*", "~*TP*"),
		// The buffers before have no line break, those after have some.
		"line breaks from the middle on": append(bytes.Clone(base[:len(base)/2]), rep(base[len(base)/2:], "~", "~\n")...),
		"a line break inside a few":      rep(base, "~SV1*HC:", "~SV1*HC\r\n:"),
	}
	for _, d := range []x12.Delimiters{
		{Element: '\t', Repetition: '^', Component: ':', Segment: '~'},
		{Element: ' ', Repetition: '^', Component: ':', Segment: '~'},
		{Element: '*', Repetition: '^', Component: ':', Segment: ' '},
		{Element: '*', Repetition: '\n', Component: ':', Segment: '~'},
		{Element: '*', Repetition: '^', Component: '\r', Segment: '~'},
		{Element: 'I', Repetition: '^', Component: ':', Segment: '~'},
		{Element: '*', Repetition: '^', Component: ':', Segment: 'H'},
	} {
		var buf bytes.Buffer
		if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 6, PerSet: 2, Seed: 63, Delimiters: d}); err != nil {
			continue // delimiters the generator refuses
		}
		inputs[fmt.Sprintf("delimiters %q", []byte{d.Element, d.Repetition, d.Component, d.Segment})] = buf.Bytes()
	}
	// A segment longer than the reader takes.
	huge := bytes.Replace(base, []byte("~DMG*"), []byte(long(90000)), 1)
	reviewPipelineAgrees(t, "a segment over the maximum size", huge, []x12.ReaderOption{x12.WithMaxSegmentSize(80000)})
	reviewPipelineAgrees(t, "a segment of the maximum size", huge, []x12.ReaderOption{x12.WithMaxSegmentSize(90000)})
	for name, data := range inputs {
		if bytes.Equal(data, base) {
			t.Fatalf("%s: the edit changed nothing", name)
		}
		for _, ro := range [][]x12.ReaderOption{nil, {x12.WithBufferSize(512)}} {
			reviewPipelineAgrees(t, fmt.Sprintf("%s, %d reader options", name, len(ro)), data, ro)
		}
	}
}

// TestReviewSplitSetAgrees: one large set, cut into pieces checked from
// guessed states, with the edits above made in it, gives the sequential
// run's findings and report.
func TestReviewSplitSetAgrees(t *testing.T) {
	base := reviewBase(t, x12gen.Options{Kind: x12gen.Claims837P, Items: 300, PerSet: 300, Seed: 64})
	rep := func(old, new string, n int) []byte { return bytes.Replace(base, []byte(old), []byte(new), n) }
	inputs := map[string][]byte{
		"HL ids broken":       rep("~HL*", "~HX*", 20),
		"HL-like ids":         rep("~DTP*", "~HLX*", -1),
		"HL01 not numbers":    rep("~HL*1", "~HL*A", -1),
		"HL twice":            rep("~HL*", "~HL*2*1*22*0~HL*", 10),
		"IEA in the set":      rep("~DTP*", "~IEA*1*000000001~DTP*", 1),
		"SE in the set":       rep("~LX*", "~SE*5*0001~LX*", 3),
		"trailing separators": rep("~HL*", "*~HL*", -1),
		"many findings":       bytes.ReplaceAll(rep("~REF*", "*~REF*", -1), []byte("~DTP*"), []byte("*~DTP*")),
	}
	// The pieces' guessed states found right, all found wrong, every
	// third guess panicking.
	var n atomic.Int64
	modes := []struct {
		name string
		same func(bool) bool
		fail func() bool
	}{
		{"guesses as found", nil, nil},
		{"every guess wrong", func(bool) bool { return false }, nil},
		{"every third guess panics", nil, func() bool { return n.Add(1)%3 == 0 }},
	}
	pieces := 0
	defer x12.SetSplitTest(nil, nil, nil)()
	for _, m := range modes {
		x12.SetSplitTest(m.same, m.fail, func(s x12.SplitStats) { pieces += s.Pieces })
		for name, data := range inputs {
			reviewPipelineAgrees(t, name+", "+m.name, data, []x12.ReaderOption{x12.WithBufferSize(4096)})
		}
	}
	if pieces == 0 {
		t.Fatal("no set was split")
	}
}

// FuzzReviewPipeline: whatever the input, read with small buffers or the
// default ones, the pipeline's findings and report are the sequential
// run's. Seeded with the corpus and generated files.
func FuzzReviewPipeline(f *testing.F) {
	for _, kind := range []x12gen.Kind{x12gen.Claims837P, x12gen.Remittances835, x12gen.Inquiries270} {
		f.Add(reviewBase(f, x12gen.Options{Kind: kind, Items: 4, PerSet: 2, Seed: 71}), false)
		f.Add(reviewBase(f, x12gen.Options{Kind: kind, Items: 2, Seed: 72, LineBreaks: true}), true)
	}
	dir := testenv.CorpusDir(f)
	for _, sub := range []string{"837P", "837I", "837D", "835", "270", "271", "276", "277", "277CA", "997"} {
		paths, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil && len(data) <= 8<<10 {
				f.Add(data, false)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, small bool) {
		if len(data) > 64<<10 {
			return
		}
		var ro []x12.ReaderOption
		if small {
			ro = []x12.ReaderOption{x12.WithBufferSize(512)}
		}
		reviewPipelineAgrees(t, "input", data, ro)
	})
}

package guide

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// stepSets is a SetValidator that records where each segment landed.
type stepSets struct {
	*SetValidator
	steps []string
}

func (s *stepSets) Segment(seg *x12.Segment, position int, report func(x12.Finding)) {
	s.SetValidator.Segment(seg, position, report)
	if position > 1 && s.active {
		st := s.v.last
		s.steps = append(s.steps, fmt.Sprintf("%d %p %p %d %v %d", st.Closed, st.Opened, st.Segment, st.Depth, st.OutOfOrder, st.child))
	}
}

// placeBoth validates data with the placement memo and without it (every
// segment located by the walker), with the fast scan and with every
// segment read through its accessors, and fails unless the findings, in
// order, and every segment's place are the same. It returns the number of
// findings and how many segments the memo placed.
func placeBoth(t testing.TB, name string, data []byte, ro []x12.ReaderOption) (findings, memo int) {
	t.Helper()
	return placeBothLimit(t, name, data, ro, maxShapes)
}

// placeBothLimit is placeBoth with a memo of at most limit shapes.
func placeBothLimit(t testing.TB, name string, data []byte, ro []x12.ReaderOption, limit int) (findings, memo int) {
	t.Helper()
	type result struct {
		findings []x12.Finding
		steps    []string
		err      error
		hits     int
	}
	run := func(noMemo, slow bool) result {
		sv := &stepSets{SetValidator: NewSetValidator(Options{})}
		sv.v.noMemo, sv.v.slowOnly = noMemo, slow
		if !noMemo {
			sv.v.memo = newPlaceMemo()
			sv.v.memo.limit = limit
		}
		var r result
		_, r.err = x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Reader: ro, Sets: sv, NoTree: true, Workers: 1,
			OnFinding: func(f x12.Finding) { r.findings = append(r.findings, f) }})
		r.steps = sv.steps
		if sv.v.memo != nil {
			r.hits = len(sv.steps) - sv.v.memo.misses
		}
		return r
	}
	ref := run(true, false)
	for _, slow := range []bool{false, true} {
		got := run(false, slow)
		if (got.err == nil) != (ref.err == nil) {
			t.Fatalf("%s (slow %v): memo error %v, reference %v", name, slow, got.err, ref.err)
		}
		if i, a, b, differ := firstDiff(got.findings, ref.findings); differ {
			t.Fatalf("%s (slow %v): finding %d differs:\nmemo      %+v\nreference %+v", name, slow, i, a, b)
		}
		if i, a, b, differ := firstDiff(got.steps, ref.steps); differ {
			t.Fatalf("%s (slow %v): step %d differs: memo %s, reference %s", name, slow, i, a, b)
		}
		memo += got.hits
	}
	return len(ref.findings), memo
}

// firstDiff returns the first index where a and b differ (the zero value
// standing for a missing element) and their elements there.
func firstDiff[T any](a, b []T) (i int, x, y T, differ bool) {
	for i = range max(len(a), len(b)) {
		x, y = *new(T), *new(T)
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if !reflect.DeepEqual(x, y) {
			return i, x, y, true
		}
	}
	return 0, x, y, false
}

// segmentsOf splits X12 with the default delimiters and "~\n" terminators
// (x12gen's with line breaks) into its segments, terminators kept.
func segmentsOf(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			i = len(data) - 1
		}
		out = append(out, data[:i+1])
		data = data[i+1:]
	}
	return out
}

// mutations returns files made from one generated file by whole-segment
// edits inside its sets: each segment dropped, repeated, repeated 60
// times, swapped with the next, moved three segments later; each service
// line (LX to the next LX) repeated 60 times (more than the 2400 loop's 50).
func mutations(data []byte) map[string][]byte {
	segs := segmentsOf(data)
	join := func(parts ...[][]byte) []byte {
		var b []byte
		for _, p := range parts {
			for _, s := range p {
				b = append(b, s...)
			}
		}
		return b
	}
	out := map[string][]byte{}
	inSet := func(i int) bool {
		id := string(segs[i][:2])
		return id != "IS" && id != "GS" && id != "ST" && id != "SE" && id != "GE" && id != "IE"
	}
	for i := range segs {
		if !inSet(i) {
			continue
		}
		out[fmt.Sprintf("drop %d", i)] = join(segs[:i], segs[i+1:])
		out[fmt.Sprintf("repeat %d", i)] = join(segs[:i+1], segs[i:])
		many := make([][]byte, 60)
		for k := range many {
			many[k] = segs[i]
		}
		out[fmt.Sprintf("repeat %d 60 times", i)] = join(segs[:i], many, segs[i:])
		if i+1 < len(segs) && inSet(i+1) {
			out[fmt.Sprintf("swap %d", i)] = join(segs[:i], segs[i+1:i+2], segs[i:i+1], segs[i+2:])
		}
		if i+3 < len(segs) && inSet(i+3) {
			out[fmt.Sprintf("move %d", i)] = join(segs[:i], segs[i+1:i+4], segs[i:i+1], segs[i+4:])
		}
		if bytes.HasPrefix(segs[i], []byte("LX*")) {
			j := i + 1
			for j < len(segs) && inSet(j) && !bytes.HasPrefix(segs[j], []byte("LX*")) && !bytes.HasPrefix(segs[j], []byte("HL*")) &&
				!bytes.HasPrefix(segs[j], []byte("CLM*")) {
				j++
			}
			lines := make([][]byte, 0, 60*(j-i))
			for range 60 {
				lines = append(lines, segs[i:j]...)
			}
			out[fmt.Sprintf("service line %d 60 times", i)] = join(segs[:i], lines, segs[j:])
		}
	}
	return out
}

// TestPlaceMemoAgrees: placing segments through the memo gives exactly the
// findings, in order, and the places of locating every segment: on every
// corpus file, on generated files of every kind (several sets, so that the
// memo's entries of one set serve the next), on every one-byte mutation
// TestFastPathAgrees makes of a generated 837P, and on whole segments of
// generated 837P, 835 and 270 files dropped, repeated, swapped and moved,
// and service lines over their loop's maximum.
func TestPlaceMemoAgrees(t *testing.T) {
	t.Parallel()
	hits := 0
	eachCorpusFile(t, func(path string, data []byte) {
		_, h := placeBoth(t, path, data, nil)
		hits += h
	})
	if hits == 0 {
		t.Fatal("the memo placed no corpus segment")
	}
	for name, data := range fastPathSamples(t, 12) {
		if _, h := placeBoth(t, name, data, nil); h == 0 {
			t.Errorf("%s: the memo placed no segment", name)
		}
	}
	var all bytes.Buffer
	for _, kind := range []x12gen.Kind{x12gen.Claims837P, x12gen.Remittances835, x12gen.Inquiries270} {
		var buf bytes.Buffer
		if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: kind, Items: 3, PerSet: 2, Seed: 5, LineBreaks: true}); err != nil {
			t.Fatal(err)
		}
		all.Write(buf.Bytes())
		found := 0
		for name, mut := range mutations(buf.Bytes()) {
			n, _ := placeBoth(t, fmt.Sprintf("%s %s", kind, name), mut, nil)
			found += n
		}
		if found == 0 {
			t.Errorf("%s: no mutation gave a finding", kind)
		}
	}
	// Three interchanges of three guides in one file: one Validator, its
	// memo's shapes of one guide never taken for another's.
	placeBoth(t, "mixed", append(all.Bytes(), all.Bytes()...), nil)

	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 1, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	for i := 106; i < len(data); i++ { // past the ISA
		for _, c := range []byte{'*', ':', '^', '~', '\n', ' ', 'X', '9'} {
			if data[i] != c {
				mut := bytes.Clone(data)
				mut[i] = c
				placeBoth(t, fmt.Sprintf("byte %d %q", i, c), mut, nil)
			}
		}
	}
}

// TestPlaceMemoShapes: a memo whose shapes are renumbered (more than
// maxShapes met, forced here by a limit of a few) still places as locate.
func TestPlaceMemoShapes(t *testing.T) {
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 4, Seed: 9}); err != nil {
		t.Fatal(err)
	}
	for _, limit := range []int{1, 5, 20} {
		placeBothLimit(t, fmt.Sprintf("limit %d", limit), buf.Bytes(), nil, limit)
	}
}

// FuzzPlaceMemo: whatever the input, placing through the memo gives the
// findings and places of locating every segment. The input is a file and
// edits of its segments (each pair of bytes: an edit and a segment).
func FuzzPlaceMemo(f *testing.F) {
	for _, kind := range []x12gen.Kind{x12gen.Claims837P, x12gen.Remittances835, x12gen.Inquiries270} {
		var buf bytes.Buffer
		if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: kind, Items: 2, Seed: 11, LineBreaks: true}); err != nil {
			f.Fatal(err)
		}
		f.Add(buf.Bytes(), []byte{})
		f.Add(buf.Bytes(), []byte{0, 20, 1, 30, 2, 25, 3, 40})
	}
	dir := testenv.CorpusDir(f)
	for _, sub := range []string{"837P", "837I", "837D", "835", "270", "271"} {
		paths, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil && len(data) <= 4<<10 {
				f.Add(data, []byte{})
			}
		}
	}
	f.Fuzz(func(t *testing.T, data, edits []byte) {
		if len(edits) > 64 {
			return
		}
		segs := bytes.SplitAfter(data, []byte("~"))
		for k := 0; k+1 < len(edits) && len(segs) > 1; k += 2 {
			i := int(edits[k+1]) % len(segs)
			s := segs[i]
			switch edits[k] % 4 {
			case 0: // drop
				segs = append(segs[:i:i], segs[i+1:]...)
			case 1: // repeat
				segs = append(segs[:i+1:i+1], segs[i:]...)
			case 2: // move to the end of the next four
				j := min(i+4, len(segs))
				rest := append(append([][]byte{}, segs[i+1:j]...), s)
				segs = append(append(segs[:i:i], rest...), segs[j:]...)
			case 3: // repeat 55 times
				many := make([][]byte, 55)
				for m := range many {
					many[m] = s
				}
				segs = append(append(segs[:i:i], many...), segs[i:]...)
			}
		}
		placeBoth(t, "input", bytes.Join(segs, nil), nil)
	})
}

// TestHLNumber: hlNumber reads an HL01 as strconv.Atoi does.
func TestHLNumber(t *testing.T) {
	for _, s := range []string{"", "0", "1", "9", "10", "007", "123456789", "1234567890", "99999999999999999999", "+5", "-3",
		"1a", "a1", " 1", "1 ", "١", "12345678a"} {
		want, err := strconv.Atoi(s)
		got, ok := hlNumber([]byte(s))
		if ok != (err == nil) || ok && got != want {
			t.Errorf("hlNumber(%q) = %d, %v; strconv.Atoi %d, %v", s, got, ok, want, err)
		}
	}
}

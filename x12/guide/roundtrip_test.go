package guide_test

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"testing"

	"pgregory.net/rapid"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// tb is what the helpers need from *testing.T and *rapid.T.
type tb interface {
	Helper()
	Fatalf(format string, args ...any)
}

// roundTrip translates X12 to Guide JSON and back.
func roundTrip(t tb, in []byte, d x12.Delimiters) (jsonText, out []byte) {
	t.Helper()
	var js, back bytes.Buffer
	if err := guide.Translate(&js, bytes.NewReader(in), guide.TranslateOptions{Reader: []x12.ReaderOption{x12.WithDelimiters(d)}}); err != nil {
		t.Fatalf("translate: %v", err)
	}
	if err := guide.DecodeJSON(&back, bytes.NewReader(js.Bytes()), guide.DecodeOptions{}); err != nil {
		t.Fatalf("decode: %v\n%s", err, js.String())
	}
	return js.Bytes(), back.Bytes()
}

// canonical reads X12 and renders each segment delimiter-free: the id, then
// per element its repetitions and components, trailing empties dropped (X12
// writers never write them).
func canonical(t tb, b []byte, d x12.Delimiters) []string {
	t.Helper()
	r := x12.NewReader(bytes.NewReader(b), x12.WithDelimiters(d))
	var out []string
	for {
		seg, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatalf("read: %v", err)
		}
		sd := seg.Delimiters()
		var els []string
		for i := 1; i <= seg.Len(); i++ {
			v := seg.ElementBytes(i)
			if seg.Is("ISA") {
				els = append(els, string(v))
				continue
			}
			reps := [][]byte{v}
			if sd.Repetition != 0 {
				reps = bytes.Split(v, []byte{sd.Repetition})
			}
			var rs []string
			for _, rep := range reps {
				comps := strings.Split(string(rep), string(sd.Component))
				for len(comps) > 0 && comps[len(comps)-1] == "" {
					comps = comps[:len(comps)-1]
				}
				rs = append(rs, strings.Join(comps, "|"))
			}
			for len(rs) > 0 && rs[len(rs)-1] == "" {
				rs = rs[:len(rs)-1]
			}
			els = append(els, strings.Join(rs, "^"))
		}
		for len(els) > 0 && els[len(els)-1] == "" {
			els = els[:len(els)-1]
		}
		out = append(out, seg.ID()+"*"+strings.Join(els, "*"))
	}
}

// roundTripSkip lists corpus files whose segments cannot be written back
// as X12: ids that are not 2-3 upper-case letters or digits.
var roundTripSkip = map[string]string{
	"invalid/837P_ims_bad-segment-identifiers.txt": "segment ids Nd4 and an empty id cannot be written",
}

// TestRoundTripCorpus: X12 → Guide JSON → X12 gives back the same segments
// for every corpus file in the guide table, valid or not.
func TestRoundTripCorpus(t *testing.T) {
	t.Parallel()
	dir := testenv.CorpusDir(t)
	for file, tc := range corpusCases {
		if roundTripSkip[file] != "" || !testenv.CorpusHas(dir, file) {
			continue
		}
		t.Run(file, func(t *testing.T) {
			in := goldenInput(t, "corpus:"+file)
			d := x12.DefaultDelimiters
			if tc.rep != 0 {
				d.Repetition = tc.rep
			}
			_, out := roundTrip(t, in, d)
			a, b := canonical(t, in, d), canonical(t, out, d)
			if !slices.Equal(a, b) {
				for i := range min(len(a), len(b)) {
					if a[i] != b[i] {
						t.Fatalf("segment %d:\n in  %s\n out %s", i+1, a[i], b[i])
					}
				}
				t.Fatalf("%d segments in, %d out", len(a), len(b))
			}
		})
	}
}

// TestRoundTripProperty generates transactions from the guides (mostly
// guide-shaped, sometimes shuffled or with foreign segments) and checks
// that X12 → Guide JSON → X12 is the identity on segments.
func TestRoundTripProperty(t *testing.T) {
	t.Parallel()
	guides := guide.Guides()
	rapid.Check(t, func(rt *rapid.T) {
		g := rapid.SampledFrom(guides).Draw(rt, "guide")
		segs := genTransaction(rt, g)
		if rapid.IntRange(0, 4).Draw(rt, "perturb") == 0 && len(segs) > 3 {
			i := rapid.IntRange(1, len(segs)-2).Draw(rt, "from")
			j := rapid.IntRange(1, len(segs)-2).Draw(rt, "to")
			segs[i], segs[j] = segs[j], segs[i]
		}
		if rapid.IntRange(0, 4).Draw(rt, "foreign") == 0 {
			i := rapid.IntRange(1, len(segs)-1).Draw(rt, "at")
			segs = slices.Insert(segs, i, genSeg{id: "ZZZ", fields: []x12.Field{x12.Simple("X"), x12.Composite("A", "", "B")}})
		}
		in := writeX12(rt, g, segs)
		d := x12.DefaultDelimiters
		_, out := roundTrip(rt, in, d)
		a, b := canonical(rt, in, d), canonical(rt, out, d)
		if !slices.Equal(a, b) {
			rt.Fatalf("round trip changed the segments:\n in  %q\n out %q", a, b)
		}
	})
}

type genSeg struct {
	id     string
	fields []x12.Field
}

// genTransaction draws an ST..SE set that follows g's loop tree: required
// children at least once, situational ones sometimes, repeats up to 2.
func genTransaction(rt *rapid.T, g *guide.Guide) []genSeg {
	var out []genSeg
	var loop func(l *guide.Loop, depth int)
	loop = func(l *guide.Loop, depth int) {
		for i, c := range l.Children {
			if c.Segment != nil && (c.Segment.ID == "ST" || c.Segment.ID == "SE") {
				continue
			}
			u := c.Segment
			if c.Loop != nil {
				u = nil
			}
			n := 0
			switch {
			case i == 0:
				n = 1 // the loop's first segment: the caller decided to open it
			case c.Loop != nil && (depth > 6 || c.Loop.Usage == guide.NotUsed):
			case c.Loop != nil:
				lo := 0
				if c.Loop.Usage == guide.Required {
					lo = 1
				}
				n = rapid.IntRange(lo, min(2, max(lo, c.Loop.Max+boolInt(c.Loop.Max == 0)*2))).Draw(rt, "loops")
			case u.Usage == guide.NotUsed:
			default:
				lo := 0
				if u.Usage == guide.Required {
					lo = 1
				}
				n = rapid.IntRange(lo, min(2, max(lo, u.Max+boolInt(u.Max == 0)*2))).Draw(rt, "uses")
			}
			for range n {
				if c.Loop != nil {
					loop(c.Loop, depth+1)
				} else {
					out = append(out, genSeg{id: u.ID, fields: genElements(rt, u)})
				}
			}
		}
	}
	out = append(out, genSeg{id: "ST", fields: []x12.Field{x12.Simple(g.Transaction), x12.Simple("0001"), x12.Simple(g.Version)}})
	loop(g.Root(), 0)
	return append(out, genSeg{id: "SE", fields: []x12.Field{x12.Simple(fmt.Sprint(len(out) + 1)), x12.Simple("0001")}})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func genElements(rt *rapid.T, s *guide.Segment) []x12.Field {
	var fields []x12.Field
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.Usage == guide.NotUsed || (e.Usage == guide.Situational && rapid.Bool().Draw(rt, "present")) {
			fields = append(fields, x12.Simple(""))
			continue
		}
		one := func() x12.Field {
			if !e.IsComposite() {
				return x12.Simple(genValue(rt, e))
			}
			var parts []string
			for j := range e.Components {
				c := &e.Components[j]
				if c.Usage == guide.NotUsed || (c.Usage == guide.Situational && rapid.Bool().Draw(rt, "comp")) {
					parts = append(parts, "")
					continue
				}
				parts = append(parts, genValue(rt, c))
			}
			return x12.Composite(parts...)
		}
		if e.Repeat > 1 {
			n := rapid.IntRange(1, min(3, e.Repeat)).Draw(rt, "reps")
			var reps []x12.Field
			for range n {
				reps = append(reps, one())
			}
			fields = append(fields, x12.Repeated(reps...))
			continue
		}
		fields = append(fields, one())
	}
	return fields
}

// genValue draws a value of the element's type (codes from its list).
func genValue(rt *rapid.T, e *guide.Element) string {
	if codes := e.Codes(); len(codes) > 0 {
		slices.Sort(codes)
		return rapid.SampledFrom(codes).Draw(rt, "code")
	}
	lo, hi := max(e.Min, 1), max(e.Max, 1)
	hi = min(hi, 12)
	lo = min(lo, hi)
	switch e.Type {
	case "DT":
		return fmt.Sprintf("%04d%02d%02d", rapid.IntRange(1950, 2030).Draw(rt, "y"), rapid.IntRange(1, 12).Draw(rt, "m"), rapid.IntRange(1, 28).Draw(rt, "d"))
	case "TM":
		return fmt.Sprintf("%02d%02d", rapid.IntRange(0, 23).Draw(rt, "h"), rapid.IntRange(0, 59).Draw(rt, "min"))
	case "R":
		return rapid.SampledFrom([]string{"0", "1", "12.5", "100", "-3.25", "007", "1.50"}).Draw(rt, "amount")
	case "N0", "N1", "N2":
		return rapid.StringMatching(fmt.Sprintf(`[1-9][0-9]{%d,%d}`, lo-1, hi-1)).Draw(rt, "n")
	}
	return rapid.StringMatching(fmt.Sprintf(`[A-Z0-9][A-Z0-9 .-]{%d,%d}`, lo-1, hi-1)).Draw(rt, "text")
}

func writeX12(rt *rapid.T, g *guide.Guide, segs []genSeg) []byte {
	var buf bytes.Buffer
	w := x12.NewWriter(&buf, x12.DefaultDelimiters)
	for _, s := range segs {
		if err := w.WriteSegmentFields(s.id, s.fields...); err != nil {
			rt.Fatalf("write %s: %v", s.id, err)
		}
	}
	if err := w.Flush(); err != nil {
		rt.Fatal(err)
	}
	return buf.Bytes()
}

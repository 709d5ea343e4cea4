package guide_test

import (
	"bytes"
	"io"
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

var afterST = regexp.MustCompile(`(~\s*ST\*[^~]*~)`)

// TestSegmentFromMatchesSegment: an encoder fed with SegmentFrom (copying a
// validating encoder's JSON of each segment) writes exactly what one fed
// with Segment writes, for every golden input, with a segment the guide does
// not place and a value that needs escaping added to each set.
func TestSegmentFromMatchesSegment(t *testing.T) {
	t.Parallel()
	for _, tc := range goldenInputs {
		t.Run(tc.name, func(t *testing.T) {
			in := string(goldenInput(t, tc.input))
			// A stray segment with a quote after every set's ST.
			in = afterST.ReplaceAllString(in, `${1}ZZZ*1*A"B~`)
			r := x12.NewReader(strings.NewReader(in), x12.WithDelimiters(x12.DefaultDelimiters))
			var main, copied, plain bytes.Buffer
			var src, follow, fresh *guide.JSONEncoder
			var gs08 string
			sets := 0
			for {
				seg, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				switch {
				case seg.Is("GS"):
					gs08 = seg.Element(8)
				case seg.Is("ST"):
					g, ok := guide.For(gs08, seg.Element(1), seg.Element(3))
					if !ok {
						t.Fatalf("no guide for %s %s", gs08, seg.Element(1))
					}
					src, follow, fresh = guide.NewJSONEncoder(&main), guide.NewJSONEncoder(&copied), guide.NewJSONEncoder(&plain)
					src.SetValidation(guide.Options{}, func(x12.Finding) {})
					for _, e := range []*guide.JSONEncoder{src, follow, fresh} {
						e.Begin(g, seg)
					}
					sets++
				case src != nil:
					src.Segment(seg)
					follow.SegmentFrom(src, seg)
					fresh.Segment(seg)
					if seg.Is("SE") {
						for _, e := range []*guide.JSONEncoder{src, follow, fresh} {
							e.End()
							if err := e.Flush(); err != nil {
								t.Fatal(err)
							}
						}
						src = nil
					}
				}
			}
			if sets == 0 {
				t.Fatal("no transaction set read")
			}
			if !bytes.Equal(copied.Bytes(), plain.Bytes()) {
				t.Fatalf("SegmentFrom wrote\n%s\nSegment wrote\n%s", copied.Bytes(), plain.Bytes())
			}
			if !bytes.Equal(main.Bytes(), plain.Bytes()) {
				t.Fatalf("the validating encoder wrote other JSON:\n%s\nwant\n%s", main.Bytes(), plain.Bytes())
			}
			if !bytes.Contains(plain.Bytes(), []byte(`A\"B`)) {
				t.Fatalf("the escaped value is missing from %s", plain.Bytes())
			}
		})
	}
}

// TestJSONEncoderReset: a reset encoder writes the same document again.
func TestJSONEncoderReset(t *testing.T) {
	t.Parallel()
	in := goldenInput(t, goldenInputs[len(goldenInputs)-2].input) // 837P
	encode := func(e *guide.JSONEncoder) {
		r := x12.NewReader(bytes.NewReader(in), x12.WithDelimiters(x12.DefaultDelimiters))
		var g *guide.Guide
		inSet := false
		for {
			seg, err := r.Next()
			if err != nil {
				return
			}
			switch {
			case seg.Is("GS"):
				g, _ = guide.For(seg.Element(8), "837", "")
			case seg.Is("ST"):
				e.Begin(g, seg)
				inSet = true
			case seg.Is("SE"):
				e.Segment(seg)
				e.End()
				e.Flush()
				return
			case inSet:
				e.Segment(seg)
			}
		}
	}
	var first, second bytes.Buffer
	e := guide.NewJSONEncoder(&first)
	encode(e)
	e.Reset(&second)
	encode(e)
	if first.Len() == 0 || !bytes.Equal(first.Bytes(), second.Bytes()) {
		t.Fatalf("after Reset:\n%s\nfirst:\n%s", second.Bytes(), first.Bytes())
	}
}

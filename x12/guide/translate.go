package guide

import (
	"errors"
	"io"

	"github.com/clearhouse/clearhouse/x12"
)

// TranslateOptions configure Translate.
type TranslateOptions struct {
	// Reader options: delimiters for bare ST..SE fragments, strict ISA...
	Reader []x12.ReaderOption
	// Validate checks every set against its guide while translating (one
	// pass), with Options; findings go to OnFinding.
	Validate  bool
	Options   Options
	OnFinding func(x12.Finding)
	// Indent indents the JSON.
	Indent bool
}

// Translate reads X12 from r and writes Guide JSON to w, streaming:
//
//	{"interchanges":[{"interchangeHeader":{…ISA…},
//	  "functionalGroups":[{"groupHeader":{…GS…},
//	    "transactionSets":[{"heading":{…},"detail":{…},"summary":{…}}],
//	    "groupTrailer":{…GE…}}],
//	  "interchangeTrailer":{…IEA…}}]}
//
// Envelope elements are kept as written (ISA fields keep their padding).
// A set without a guide is written as {"segments":[…]} with elements keyed
// by position. A bare ST..SE fragment has no header objects. Segments
// outside any set (TA1, stray data) go to "otherSegments".
func Translate(w io.Writer, r io.Reader, opts TranslateOptions) error {
	t := &translator{enc: NewJSONEncoder(w), env: embedded().envelope}
	t.enc.SetIndent(opts.Indent)
	if opts.Validate {
		report := opts.OnFinding
		if report == nil {
			report = func(x12.Finding) {}
		}
		t.enc.SetValidation(opts.Options, report)
	}
	j := t.enc.j
	j.beginObject()
	j.key("interchanges")
	j.beginArray()
	rd := x12.NewReader(r, opts.Reader...)
	var err error
	for {
		var seg *x12.Segment
		seg, err = rd.Next()
		if err != nil {
			break
		}
		t.segment(seg)
		j.maybeFlush()
	}
	t.closeSet()
	t.closeGroup()
	t.closeInterchange()
	j.endArray()
	j.endObject()
	j.buf = append(j.buf, '\n')
	if ferr := j.flush(); ferr != nil {
		return ferr
	}
	if errors.Is(err, io.EOF) {
		return nil
	}
	return err
}

// translator tracks the envelope levels open in the JSON output.
type translator struct {
	enc   *JSONEncoder
	env   map[string]*Segment
	ic    *jframe // open interchange object
	grp   *jframe // open group object
	set   int     // 0 none, 1 guided set, 2 set without guide
	gs08  string
	icBuf jframe
	gBuf  jframe
}

func (t *translator) segment(seg *x12.Segment) {
	switch string(seg.IDBytes()) {
	case "ISA":
		t.closeSet()
		t.closeGroup()
		t.closeInterchange()
		t.openInterchange()
		t.envelopeMember(t.ic, "interchangeHeader", seg)
	case "GS":
		t.closeSet()
		t.closeGroup()
		t.openGroup()
		t.gs08 = seg.Element(8)
		t.envelopeMember(t.grp, "groupHeader", seg)
	case "ST":
		t.closeSet()
		t.openSet(seg)
	case "SE":
		if t.set == 0 {
			t.other(seg)
			return
		}
		t.inSet(seg)
		t.closeSet()
	case "GE":
		t.closeSet()
		if t.grp == nil {
			t.other(seg)
			return
		}
		t.envelopeMember(t.grp, "groupTrailer", seg)
		t.closeGroup()
	case "IEA":
		t.closeSet()
		t.closeGroup()
		if t.ic == nil {
			t.other(seg)
			return
		}
		t.envelopeMember(t.ic, "interchangeTrailer", seg)
		t.closeInterchange()
	default:
		if t.set == 0 {
			t.other(seg)
			return
		}
		t.inSet(seg)
	}
}

func (t *translator) openInterchange() {
	j := t.enc.j
	j.item()
	j.beginObject()
	t.icBuf = jframe{}
	t.ic = &t.icBuf
}

func (t *translator) closeInterchange() {
	if t.ic == nil {
		return
	}
	t.enc.closeMembers(t.ic)
	t.enc.j.endObject()
	t.ic = nil
}

func (t *translator) openGroup() {
	if t.ic == nil {
		t.openInterchange()
	}
	t.enc.member(t.ic, "functionalGroups", true)
	t.enc.j.beginObject()
	t.gBuf = jframe{}
	t.grp = &t.gBuf
}

func (t *translator) closeGroup() {
	if t.grp == nil {
		return
	}
	t.enc.closeMembers(t.grp)
	t.enc.j.endObject()
	t.grp = nil
	t.gs08 = ""
}

func (t *translator) openSet(st *x12.Segment) {
	if t.grp == nil {
		t.openGroup()
	}
	t.enc.member(t.grp, "transactionSets", true)
	g, ok := For(t.gs08, st.Element(1), st.Element(3))
	if !ok {
		t.set = 2
		j := t.enc.j
		j.beginObject()
		j.key("segments")
		j.beginArray()
		t.inSet(st)
		return
	}
	t.set = 1
	t.enc.Begin(g, st)
}

func (t *translator) inSet(seg *x12.Segment) {
	if t.set == 1 {
		t.enc.Segment(seg)
		return
	}
	t.enc.j.item()
	t.enc.genericSegment(seg)
}

func (t *translator) closeSet() {
	switch t.set {
	case 1:
		t.enc.End()
	case 2:
		t.enc.j.endArray()
		t.enc.j.endObject()
	}
	t.set = 0
}

// envelopeMember writes an envelope segment under key, elements as written.
func (t *translator) envelopeMember(f *jframe, key string, seg *x12.Segment) {
	t.enc.member(f, key, false)
	t.enc.segment(seg, t.env[seg.ID()], true)
}

// other keeps a segment found outside any transaction set.
func (t *translator) other(seg *x12.Segment) {
	f := t.grp
	if f == nil {
		if t.ic == nil {
			t.openInterchange()
		}
		f = t.ic
	}
	t.enc.member(f, "otherSegments", true)
	t.enc.genericSegment(seg)
}

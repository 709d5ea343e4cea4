package x12

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// SetValidator checks the content of transaction sets while the envelope
// validator streams through them; x12/guide implements it to add
// implementation-guide findings. Calls arrive in input order:
// BeginSet at ST, Segment for every segment from ST to SE inclusive, and
// EndSet at SE (or where the set was cut off). report files a finding under
// the current set; it fills Line/Column (and Offset and SegmentID from the
// current segment when they are zero/empty).
type SetValidator interface {
	BeginSet(h SetHeader, report func(Finding))
	Segment(seg *Segment, position int, report func(Finding))
	EndSet(report func(Finding))
}

// SetHeader tells a SetValidator what the set claims to be.
type SetHeader struct {
	ID                string // ST01
	ControlNumber     string // ST02
	ImplementationRef string // ST03
	FunctionalID      string // GS01
	GroupVersion      string // GS08
	InterchangeVer    string // ISA12
	Delimiters        Delimiters
	Offset            int64
}

// ValidateOptions configure Validate.
type ValidateOptions struct {
	// Reader options (delimiters for bare fragments, strict ISA...).
	Reader []ReaderOption
	// Sets, when set, receives every transaction set's segments.
	Sets SetValidator
	// OnFinding, when set, receives every finding as it is found (the
	// report keeps at most MaxFindingsPerEnvelope per envelope).
	OnFinding func(Finding)
	// OnSegment, when set, sees every segment read, envelopes included,
	// before it is checked (the segment is valid until the next one; Clone
	// keeps it). Processing pipelines use it to follow the envelopes in the
	// same pass.
	OnSegment func(seg *Segment)
	// NoTree stops the report from keeping per-envelope records, so memory
	// stays flat whatever the number of sets; use OnFinding to see findings.
	NoTree bool
	// Workers is how many goroutines check transaction sets (Sets): the
	// calling one, which also reads the input and checks the envelopes, and
	// Workers-1 others. 0 chooses: as many as GOMAXPROCS (at most 4) when
	// Sets is a ForkingSetValidator, OnSegment is nil and GOMAXPROCS is
	// above 1, from the first ST after the input has filled the reader's
	// buffer; otherwise, or with 1 (or less), everything runs on the
	// calling goroutine. The findings, their order and the report are the
	// same either way; OnFinding is always called on the calling goroutine.
	Workers int
}

// Validate reads an X12 stream to the end and checks its envelopes:
// ISA/IEA, GS/GE and ST/SE pairing, every count and control number
// (SE01, GE01, IEA01, SE02, GE02, IEA02), duplicate control numbers,
// version consistency (ISA12, GS08, ST03), ISA field values, and segment
// syntax (ids, trailing separators). Problems are findings in the Report;
// the error is only for input that could not be read (an I/O error). Input
// that is not X12 at all yields a Fatal finding, not an error.
func Validate(src io.Reader, opts ValidateOptions) (*Report, error) {
	v := newValidator(src, opts)
	return v.run()
}

// validator is the envelope state machine.
type validator struct {
	r    *Reader
	opts ValidateOptions
	rep  *Report

	ic  *InterchangeReport
	grp *GroupReport
	set *SetReport

	// Scratch records used when NoTree is set.
	icBuf  InterchangeReport
	grpBuf GroupReport
	setBuf SetReport

	groups   int // GS seen in the interchange
	sets     int // ST seen in the group
	position int // segment position in the set (ST = 1)
	seg      *Segment

	isaSeen map[string]bool
	gsSeen  map[string]bool
	stSeen  map[string]bool

	reportFn func(Finding)

	// pipe is set once sets are checked on other goroutines (pipeline.go);
	// noPipe once they never will be.
	pipe   *pipeline
	noPipe bool
	// rawLen is the length of seg's bytes as read: splitting a segment
	// with line breaks in it replaces them by a copy without.
	rawLen int
}

// maxSeen bounds the duplicate-detection sets.
const maxSeen = 100000

func newValidator(src io.Reader, opts ValidateOptions) *validator {
	v := &validator{r: NewReader(src, opts.Reader...), opts: opts, rep: &Report{},
		isaSeen: map[string]bool{}}
	v.reportFn = v.guideFinding
	return v
}

func (v *validator) run() (*Report, error) {
	for {
		if v.pipe != nil {
			v.spans()
		}
		seg, err := v.r.Next()
		v.drainReader()
		if err == io.EOF {
			break
		}
		if err != nil {
			var se *SyntaxError
			if errors.As(err, &se) {
				f := se.Finding()
				v.file(f)
				break
			}
			if v.pipe != nil {
				v.pipe.finish()
			}
			return v.rep, err
		}
		v.seg, v.rawLen = seg, len(seg.raw)
		v.rep.Segments++
		if v.opts.OnSegment != nil {
			v.opts.OnSegment(seg)
		}
		v.segment(seg)
		v.drainReader()
	}
	v.eof()
	if v.pipe != nil {
		v.pipe.finish()
	}
	v.rep.Bytes = v.r.offset()
	return v.rep, nil
}

// drainReader files the reader's own findings. It runs twice a segment
// and nearly always finds none: the test is kept small enough to inline.
func (v *validator) drainReader() {
	if len(v.r.notes) > 0 {
		v.fileReaderFindings()
	}
}

func (v *validator) fileReaderFindings() {
	for _, f := range v.r.TakeFindings() {
		v.file(f)
	}
}

func (v *validator) segment(seg *Segment) {
	// Nearly every segment is inside a set, with an id of two or three
	// letters or digits followed by the element separator, not an envelope
	// segment's: then its id is raw[:2] or raw[:3] (what IDBytes returns),
	// valid, and the segment not empty, so only the trailing-separator test
	// of checkSyntax is left to make.
	// inSetValid and toSets are written out here: this runs for every
	// segment, and each call level cost a frame and its spills.
	if raw, e := seg.raw, seg.d.Element; v.set != nil && len(raw) >= 3 &&
		idChars[raw[0]] && idChars[raw[1]] && raw[0] != e && raw[1] != e {
		n := 0
		switch {
		case raw[2] == e:
			if c, d := raw[0], raw[1]; !(c == 'S' && (d == 'T' || d == 'E') || c == 'G' && (d == 'S' || d == 'E')) {
				n = 2
			}
		case len(raw) >= 4 && raw[3] == e && idChars[raw[2]] && raw[2] != ' ' && raw[0] != 'I':
			n = 3
		}
		if n > 0 {
			v.position++
			v.set.Segments++
			if raw[len(raw)-1] == e {
				v.checkSyntax(seg, raw[:n])
			}
			if v.pipe != nil {
				v.pipe.segment(seg, v.position)
			} else if v.opts.Sets != nil {
				v.opts.Sets.Segment(seg, v.position, v.reportFn)
			}
			return
		}
	}
	id := seg.IDBytes()
	switch string(id) {
	case "ISA":
		v.beginInterchange(seg)
	case "IEA":
		v.endInterchange(seg)
	case "GS":
		v.beginGroup(seg)
	case "GE":
		v.endGroup(seg)
	case "ST":
		v.beginSet(seg)
	case "SE":
		v.endSet(seg)
	default:
		if v.set != nil {
			v.inSet(seg, id)
			return
		}
		v.outsideSet(seg, id)
	}
}

// inSet handles a segment between ST and SE: count it, check its syntax,
// pass it on.
func (v *validator) inSet(seg *Segment, id []byte) {
	v.position++
	v.set.Segments++
	v.checkSyntax(seg, id)
	v.toSets(seg)
}

// toSets passes a segment of the current set on to the SetValidator.
func (v *validator) toSets(seg *Segment) {
	if v.pipe != nil {
		v.pipe.segment(seg, v.position)
	} else if v.opts.Sets != nil {
		v.opts.Sets.Segment(seg, v.position, v.reportFn)
	}
}

// outsideSet handles a non-envelope segment outside a transaction set.
func (v *validator) outsideSet(seg *Segment, id []byte) {
	if v.ic != nil && v.grp == nil && len(v.ic.Groups) == 0 {
		switch string(id) {
		case "TA1":
			v.checkTA1(seg)
			return
		case "ISB", "ISE", "TA3":
			return // interchange service segments may precede the first GS
		}
	}
	where := "outside any transaction set"
	if v.ic == nil {
		where = "outside any interchange"
	}
	v.file(Finding{Severity: Error, Code: CodeInterchangeContent, Offset: seg.Offset(), SegmentID: seg.ID(),
		TA1: ta1If(v.ic != nil, "024"), Message: fmt.Sprintf("segment %s stands %s", seg.ID(), where)})
}

func ta1If(cond bool, code string) string {
	if cond {
		return code
	}
	return ""
}

// checkSyntax applies the checks every segment gets: a valid id, no
// trailing element separators, not empty.
func (v *validator) checkSyntax(seg *Segment, id []byte) {
	if !validSegmentID(id) {
		v.file(Finding{Severity: Error, Code: CodeSegmentID, Offset: seg.Offset(), SegmentID: clip(string(id), 3),
			Position: v.position, IK3: "1", Message: fmt.Sprintf("segment id %q is not 2-3 upper-case letters or digits", clip(string(id), 20))})
		return
	}
	raw := seg.raw
	if n := len(raw); n > 0 && raw[n-1] == seg.d.Element {
		v.file(Finding{Severity: Error, Code: CodeTrailingSeparator, Offset: seg.Offset(), SegmentID: seg.ID(),
			Position: v.position, Element: seg.Len(), IK3: "8",
			Message: fmt.Sprintf("segment %s ends with an empty element (trailing element separators)", seg.ID())})
	} else if len(raw) == len(id) {
		v.file(Finding{Severity: Error, Code: CodeEmptySegment, Offset: seg.Offset(), SegmentID: seg.ID(),
			Position: v.position, IK3: "8", Message: fmt.Sprintf("segment %s has no elements", seg.ID())})
	}
}

func validSegmentID(id []byte) bool {
	switch len(id) {
	case 2:
		return idChars[id[0]] && idChars[id[1]]
	case 3:
		return idChars[id[0]] && idChars[id[1]] && idChars[id[2]]
	}
	return false
}

// idChars marks the bytes of segment ids: upper-case letters and digits.
var idChars = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
	}
	return t
}()

// ---- interchange ----

func (v *validator) beginInterchange(seg *Segment) {
	v.closeOpen(seg.Offset(), true)
	ic := record(v, &v.icBuf, func(ic *InterchangeReport) { v.rep.Interchanges = append(v.rep.Interchanges, ic) })
	v.ic, v.groups = ic, 0
	v.gsSeen = map[string]bool{}
	ic.Offset, ic.End = seg.Offset(), seg.Offset()
	ic.Delimiters = seg.d
	field := func(n int) string { return string(bytes.TrimSpace(seg.ElementBytes(n))) }
	ic.SenderQualifier, ic.SenderID = field(5), field(6)
	ic.ReceiverQualifier, ic.ReceiverID = field(7), field(8)
	ic.Date, ic.Time = field(9), field(10)
	ic.Version, ic.ControlNumber = field(12), field(13)
	ic.AckRequested = field(14) == "1"
	ic.Usage = field(15)
	v.checkISA(seg, field)
	if cn := ic.ControlNumber; cn != "" {
		if v.isaSeen[cn] {
			v.file(Finding{Severity: Error, Code: CodeISADuplicate, Offset: seg.Offset(), SegmentID: "ISA", Element: 13,
				TA1: "025", Value: cn, Message: fmt.Sprintf("ISA13 %s repeats an earlier interchange's control number", cn)})
		} else if len(v.isaSeen) < maxSeen {
			v.isaSeen[cn] = true
		}
	}
}

// checkISA checks the ISA field values (widths were checked by the reader).
func (v *validator) checkISA(seg *Segment, field func(int) string) {
	bad := func(n int, why string) {
		v.file(Finding{Severity: Error, Code: CodeISAValue, Offset: seg.Offset(), SegmentID: "ISA", Element: n,
			TA1: isaFields[n-1].ta1, Value: clipValue(field(n)), Message: fmt.Sprintf("ISA%02d %q: %s", n, field(n), why)})
	}
	if seg.Len() != 16 {
		v.file(Finding{Severity: Error, Code: CodeISAMalformed, Offset: seg.Offset(), SegmentID: "ISA", TA1: "022",
			Message: fmt.Sprintf("ISA has %d elements, want 16", seg.Len())})
		return
	}
	// Qualifier values are the HIPAA implementation guides' subsets of the
	// base standard's lists (every 005010 TR3's ISA, and the 4010 ones).
	if q := field(1); !oneOf(q, "00", "03") {
		bad(1, "authorization information qualifier must be 00 (none) or 03 (additional data identification) in a HIPAA interchange")
	} else if q == "00" && field(2) != "" {
		bad(2, "must be blank when ISA01 is 00")
	}
	if q := field(3); !oneOf(q, "00", "01") {
		bad(3, "security information qualifier must be 00 or 01")
	} else if q == "00" && field(4) != "" {
		bad(4, "must be blank when ISA03 is 00")
	}
	for _, n := range []int{5, 7} {
		if q := field(n); !oneOf(q, hipaaIDQualifiers...) {
			bad(n, "interchange id qualifier must be one of 01 14 20 27 28 29 30 33 ZZ in a HIPAA interchange")
		}
		if field(n+1) == "" {
			bad(n+1, "interchange id is required")
		}
	}
	if !validYYMMDD(field(9)) {
		bad(9, "not a date YYMMDD")
	}
	if !validHHMM(field(10)) {
		bad(10, "not a time HHMM")
	}
	if !allDigits(field(12), 5, 5) {
		bad(12, "version must be 5 digits")
	}
	if !allDigits(field(13), 9, 9) {
		bad(13, "interchange control number must be 9 digits")
	}
	if !oneOf(field(14), "0", "1") {
		bad(14, "acknowledgment requested must be 0 or 1")
	}
	if !oneOf(field(15), "P", "T") {
		bad(15, "usage indicator must be P (production) or T (test) in a HIPAA interchange")
	}
}

func (v *validator) endInterchange(seg *Segment) {
	if v.ic == nil {
		v.file(Finding{Severity: Error, Code: CodeInterchangeContent, Offset: seg.Offset(), SegmentID: "IEA",
			Message: "IEA without a preceding ISA"})
		return
	}
	v.closeOpen(seg.Offset(), false)
	if v.grp != nil {
		v.closeGroup(seg.Offset())
	}
	ic := v.ic
	ic.End = seg.Offset()
	cn := string(seg.ElementBytes(2))
	switch {
	case !allDigits(cn, 9, 9):
		v.file(Finding{Severity: Error, Code: CodeIEAControl, Offset: seg.Offset(), SegmentID: "IEA", Element: 2, TA1: "018",
			Value: clipValue(cn), Message: fmt.Sprintf("IEA02 %q is not a 9-digit control number (ISA13 is %s)", cn, ic.ControlNumber)})
	case cn != ic.ControlNumber:
		v.file(Finding{Severity: Error, Code: CodeIEAControl, Offset: seg.Offset(), SegmentID: "IEA", Element: 2, TA1: "001",
			Value: cn, Message: fmt.Sprintf("IEA02 %s does not match ISA13 %s", cn, ic.ControlNumber)})
	}
	if n, ok := atoi(seg.ElementBytes(1)); !ok || n != v.groups {
		v.file(Finding{Severity: Error, Code: CodeIEACount, Offset: seg.Offset(), SegmentID: "IEA", Element: 1, TA1: "021",
			Value: clipValue(seg.Element(1)), Message: fmt.Sprintf("IEA01 %q but the interchange has %d functional groups", seg.Element(1), v.groups)})
	}
	v.ic = nil
}

// ---- group ----

func (v *validator) beginGroup(seg *Segment) {
	v.closeOpen(seg.Offset(), false)
	if v.grp != nil {
		v.closeGroup(seg.Offset())
	}
	if v.ic == nil {
		v.file(Finding{Severity: Error, Code: CodeInterchangeContent, Offset: seg.Offset(), SegmentID: "GS",
			Message: "GS outside an interchange (no ISA before it)"})
		v.syntheticInterchange(seg.Offset(), seg.d)
	}
	g := record(v, &v.grpBuf, func(g *GroupReport) { v.ic.Groups = append(v.ic.Groups, g) })
	v.grp, v.sets = g, 0
	v.groups++
	v.stSeen = map[string]bool{}
	g.Offset, g.End, g.DeclaredSets = seg.Offset(), seg.Offset(), -1
	g.FunctionalID, g.SenderCode, g.ReceiverCode = seg.Element(1), seg.Element(2), seg.Element(3)
	g.ControlNumber, g.Version = seg.Element(6), seg.Element(8)
	v.checkGS(seg)
}

// record returns a new envelope record, handed to add to join the report,
// or with NoTree the cleared scratch record (memory stays flat).
func record[T any](v *validator, scratch *T, add func(*T)) *T {
	if v.opts.NoTree {
		var zero T
		*scratch = zero
		return scratch
	}
	r := new(T)
	add(r)
	return r
}

// syntheticInterchange opens a record for envelopes found without an ISA.
func (v *validator) syntheticInterchange(offset int64, d Delimiters) {
	ic := record(v, &v.icBuf, func(ic *InterchangeReport) { v.rep.Interchanges = append(v.rep.Interchanges, ic) })
	ic.Offset, ic.End, ic.Delimiters, ic.Synthetic = offset, offset, d, true
	v.ic, v.groups = ic, 0
	v.gsSeen = map[string]bool{}
}

// checkGS checks the GS values. GS01 (unsupported group), GS02/GS03
// (application codes, as pyx12 maps them), GS06 (control number) and GS08
// (version) reject the group with their AK905 codes. The 999 has no code
// for a malformed GS04 date, GS05 time or GS07 agency: those are errors of
// the report (validate exits 1) without an acknowledgment code, so the 999
// acknowledges the group by its sets and never says AK9 R beside the IK5 A
// of every set it holds.
func (v *validator) checkGS(seg *Segment) {
	bad := func(n int, code, why string) {
		v.file(Finding{Severity: Error, Code: CodeGSValue, Offset: seg.Offset(), SegmentID: "GS", Element: n, AK9: code,
			Value: clipValue(seg.Element(n)), Message: fmt.Sprintf("GS%02d %q: %s", n, seg.Element(n), why)})
	}
	if f := seg.Element(1); len(f) != 2 || !isUpperAlnum(f) {
		bad(1, "1", "functional identifier must be 2 letters")
	}
	for _, n := range []int{2, 3} {
		e := seg.ElementBytes(n)
		if len(e) < 2 || len(e) > 15 {
			bad(n, "1", "application code must be 2-15 characters")
		} else if e[0] == ' ' || e[len(e)-1] == ' ' {
			bad(n, "1", "has leading or trailing spaces")
		}
	}
	if !validCCYYMMDD(seg.Element(4)) {
		bad(4, "", "not a date CCYYMMDD")
	}
	if !validGSTime(seg.Element(5)) {
		bad(5, "", "not a time HHMM[SS[dd]]")
	}
	cn := seg.Element(6)
	if !allDigits(cn, 1, 9) {
		bad(6, "6", "group control number must be 1-9 digits")
	} else if v.gsSeen[cn] {
		v.file(Finding{Severity: Error, Code: CodeGSDuplicate, Offset: seg.Offset(), SegmentID: "GS", Element: 6, AK9: "19",
			Value: cn, Message: fmt.Sprintf("GS06 %s repeats within the interchange", cn)})
	} else if len(v.gsSeen) < maxSeen {
		v.gsSeen[cn] = true
	}
	if a := seg.Element(7); !oneOf(a, "X", "T") {
		bad(7, "", "responsible agency code must be X or T")
	}
	ver := seg.Element(8)
	if ver == "" || len(ver) > 12 {
		bad(8, "2", "version/release/industry identifier must be 1-12 characters")
		return
	}
	if iv := v.ic.Version; iv != "" && len(ver) >= 5 && ver[:5] != iv {
		v.file(Finding{Severity: Warning, Code: CodeVersionMismatch, Offset: seg.Offset(), SegmentID: "GS", Element: 8,
			Value: ver, Message: fmt.Sprintf("GS08 %s is not version %s of the ISA12 envelope", ver, iv)})
	}
}

func (v *validator) endGroup(seg *Segment) {
	v.closeOpen(seg.Offset(), false)
	if v.grp == nil {
		v.file(Finding{Severity: Error, Code: CodeInterchangeContent, Offset: seg.Offset(), SegmentID: "GE",
			TA1: ta1If(v.ic != nil, "024"), Message: "GE without a preceding GS"})
		return
	}
	g := v.grp
	g.End = seg.Offset()
	n, ok := atoi(seg.ElementBytes(1))
	if ok {
		g.DeclaredSets = n
	}
	if !ok || n != v.sets {
		v.file(Finding{Severity: Error, Code: CodeGECount, Offset: seg.Offset(), SegmentID: "GE", Element: 1, AK9: "5",
			Value: clipValue(seg.Element(1)), Message: fmt.Sprintf("GE01 %q but the group has %d transaction sets", seg.Element(1), v.sets)})
	}
	cn := seg.Element(2)
	if !allDigits(cn, 1, 9) {
		v.file(Finding{Severity: Error, Code: CodeGEControl, Offset: seg.Offset(), SegmentID: "GE", Element: 2, AK9: "6",
			Value: clipValue(cn), Message: fmt.Sprintf("GE02 %q is not a 1-9 digit control number", cn)})
	}
	if cn != g.ControlNumber {
		v.file(Finding{Severity: Error, Code: CodeGEControl, Offset: seg.Offset(), SegmentID: "GE", Element: 2, AK9: "4",
			Value: clipValue(cn), Message: fmt.Sprintf("GE02 %q does not match GS06 %q", cn, g.ControlNumber)})
	}
	v.grp = nil
}

// closeGroup ends a group that has no GE (silently for a synthetic one).
func (v *validator) closeGroup(at int64) {
	if v.grp.Synthetic {
		v.grp.End = at
		v.grp = nil
		return
	}
	v.file(Finding{Severity: Error, Code: CodeGEMissing, Offset: v.grp.Offset, SegmentID: "GS", AK9: "3",
		Message: fmt.Sprintf("functional group %s has no GE trailer", v.grp.ControlNumber)})
	v.grp.End = at
	v.grp = nil
}

// ---- transaction set ----

func (v *validator) beginSet(seg *Segment) {
	if v.set != nil {
		v.closeSet(seg.Offset())
	}
	if v.pipe == nil && !v.noPipe && v.opts.Sets != nil {
		fork, n, never := v.usePipeline()
		v.noPipe = never
		if fork != nil {
			v.pipe = newPipeline(v, fork, n)
		}
	}
	if v.pipe != nil {
		v.pipe.rotate(seg.Offset())
	}
	if v.grp == nil {
		if v.ic == nil && v.r.supplied != nil && len(v.rep.Interchanges) == 0 {
			v.rep.Fragment = true
		} else if !v.rep.Fragment {
			v.file(Finding{Severity: Error, Code: CodeInterchangeContent, Offset: seg.Offset(), SegmentID: "ST",
				TA1: ta1If(v.ic != nil, "024"), Message: "ST outside a functional group (no GS before it)"})
		}
		if v.ic == nil {
			v.syntheticInterchange(seg.Offset(), seg.d)
		}
		g := record(v, &v.grpBuf, func(g *GroupReport) { v.ic.Groups = append(v.ic.Groups, g) })
		g.Offset, g.End, g.DeclaredSets, g.Synthetic = seg.Offset(), seg.Offset(), -1, true
		v.grp, v.sets = g, 0
		v.stSeen = map[string]bool{}
	}
	s := record(v, &v.setBuf, func(s *SetReport) { v.grp.Sets = append(v.grp.Sets, s) })
	v.set, v.position = s, 1
	v.sets++
	s.Offset, s.End, s.Segments = seg.Offset(), seg.Offset(), 1
	s.ID, s.ControlNumber, s.ImplementationRef = seg.Element(1), seg.Element(2), seg.Element(3)
	v.checkST(seg)
	if v.opts.Sets == nil {
		return
	}
	h := SetHeader{ID: s.ID, ControlNumber: s.ControlNumber, ImplementationRef: s.ImplementationRef,
		FunctionalID: v.grp.FunctionalID, GroupVersion: v.grp.Version, InterchangeVer: v.ic.Version,
		Delimiters: seg.d, Offset: seg.Offset()}
	if v.pipe != nil {
		info := setInfo{h: h}
		if !v.opts.NoTree {
			info.ic, info.grp, info.set = v.ic, v.grp, v.set
		}
		v.pipe.begin(seg, info)
		return
	}
	v.opts.Sets.BeginSet(h, v.reportFn)
	v.opts.Sets.Segment(seg, 1, v.reportFn)
}

func (v *validator) checkST(seg *Segment) {
	s := v.set
	if !allDigits(s.ID, 3, 3) {
		v.file(Finding{Severity: Error, Code: CodeSTID, Offset: seg.Offset(), SegmentID: "ST", Element: 1, Position: 1, IK5: "6",
			Value: clipValue(s.ID), Message: fmt.Sprintf("ST01 %q is not a transaction set identifier", s.ID)})
	} else if fid, ok := functionalIDs[s.ID]; ok && v.grp.FunctionalID != "" && !oneOf(v.grp.FunctionalID, fid...) {
		v.file(Finding{Severity: Error, Code: CodeSTID, Offset: seg.Offset(), SegmentID: "ST", Element: 1, Position: 1, IK5: "6",
			Value: s.ID, Message: fmt.Sprintf("transaction set %s does not belong in a functional group %q (GS01 should be %s)", s.ID, v.grp.FunctionalID, fid[0])})
	}
	cn := s.ControlNumber
	if len(cn) < 4 || len(cn) > 9 || bytes.ContainsAny([]byte(cn), " \t") {
		v.file(Finding{Severity: Error, Code: CodeSTControl, Offset: seg.Offset(), SegmentID: "ST", Element: 2, Position: 1, IK5: "7",
			Value: clipValue(cn), Message: fmt.Sprintf("ST02 %q must be 4-9 characters without spaces", cn)})
	} else if v.stSeen[cn] {
		v.file(Finding{Severity: Error, Code: CodeSTDuplicate, Offset: seg.Offset(), SegmentID: "ST", Element: 2, Position: 1, IK5: "23",
			Value: cn, Message: fmt.Sprintf("ST02 %s repeats within the functional group", cn)})
	} else if len(v.stSeen) < maxSeen {
		v.stSeen[cn] = true
	}
	if ref, gv := s.ImplementationRef, v.grp.Version; ref != "" && gv != "" && ref != gv {
		v.file(Finding{Severity: Warning, Code: CodeSTReference, Offset: seg.Offset(), SegmentID: "ST", Element: 3, Position: 1, IK5: "19",
			Value: clipValue(ref), Message: fmt.Sprintf("ST03 %s differs from GS08 %s", ref, gv)})
	}
}

func (v *validator) endSet(seg *Segment) {
	if v.set == nil {
		v.file(Finding{Severity: Error, Code: CodeInterchangeContent, Offset: seg.Offset(), SegmentID: "SE",
			TA1: ta1If(v.ic != nil, "024"), Message: "SE without a preceding ST"})
		return
	}
	s := v.set
	v.position++
	s.Segments++
	s.End = seg.Offset()
	if v.pipe != nil {
		v.pipe.segment(seg, v.position)
	} else if v.opts.Sets != nil {
		v.opts.Sets.Segment(seg, v.position, v.reportFn)
	}
	if n, ok := atoi(seg.ElementBytes(1)); !ok || n != s.Segments {
		v.file(Finding{Severity: Error, Code: CodeSECount, Offset: seg.Offset(), SegmentID: "SE", Element: 1, Position: v.position, IK5: "4",
			Value: clipValue(seg.Element(1)), Message: fmt.Sprintf("SE01 %q but the transaction set has %d segments (ST and SE included)", seg.Element(1), s.Segments)})
	}
	if cn := seg.Element(2); cn != s.ControlNumber {
		v.file(Finding{Severity: Error, Code: CodeSEControl, Offset: seg.Offset(), SegmentID: "SE", Element: 2, Position: v.position, IK5: "3",
			Value: clipValue(cn), Message: fmt.Sprintf("SE02 %q does not match ST02 %q", cn, s.ControlNumber)})
	}
	v.endSets()
	v.set = nil
}

// endSets ends the current set for the SetValidator.
func (v *validator) endSets() {
	switch {
	case v.pipe != nil:
		v.pipe.end(v.seg.Offset(), v.seg.ID(), v.position)
	case v.opts.Sets != nil:
		v.opts.Sets.EndSet(v.reportFn)
	}
}

// closeSet ends a set that has no SE.
func (v *validator) closeSet(at int64) {
	s := v.set
	v.file(Finding{Severity: Error, Code: CodeSEMissing, Offset: s.Offset, SegmentID: "ST", Position: 1, IK5: "2",
		Message: fmt.Sprintf("transaction set %s %s has no SE trailer", s.ID, s.ControlNumber)})
	if at > s.End {
		s.End = at - 1
	}
	v.endSets()
	v.set = nil
}

// closeOpen closes a set (and, for a new ISA, the group and interchange)
// left open when an enclosing envelope segment arrives.
func (v *validator) closeOpen(at int64, all bool) {
	if v.set != nil {
		v.closeSet(at)
	}
	if !all {
		return
	}
	if v.grp != nil {
		v.closeGroup(at)
	}
	if v.ic != nil && !v.rep.Fragment {
		v.missingIEA(at)
	}
}

func (v *validator) missingIEA(at int64) {
	v.file(Finding{Severity: Error, Code: CodeIEAMissing, Offset: v.ic.Offset, SegmentID: "ISA", TA1: "023",
		Message: fmt.Sprintf("interchange %s has no IEA trailer (input ends or a new ISA starts first)", v.ic.ControlNumber)})
	v.ic.End = at
	v.ic = nil
}

func (v *validator) eof() {
	end := v.r.offset()
	if v.set != nil {
		v.closeSet(end)
	}
	if v.grp != nil {
		v.closeGroup(end)
	}
	if v.ic != nil {
		if v.rep.Fragment {
			v.ic.End = end
			v.ic = nil
		} else {
			v.missingIEA(end)
		}
	}
}

// ---- filing findings ----

// file completes a finding's location and stores it under the envelope its
// codes name (the current one), then passes it to OnFinding.
func (v *validator) file(f Finding) {
	if f.Line == 0 && f.Offset >= 0 {
		f.Line, f.Column = v.r.LineCol(f.Offset)
	}
	var dst *[]Finding
	switch {
	case v.opts.NoTree:
	case v.ic == nil:
		dst = &v.rep.Findings
	case f.Level() == LevelInterchange || (v.grp == nil && v.set == nil):
		dst = &v.ic.Findings
	case f.Level() == LevelGroup || v.set == nil:
		dst = &v.grp.Findings
	default:
		dst = &v.set.Findings
	}
	if v.pipe != nil {
		// Behind findings of sets still being checked: it keeps its place.
		v.pipe.finding(f, dst)
		return
	}
	v.deliver(f, dst)
}

// deliver passes a finding to OnFinding and keeps it in dst (nil: none).
func (v *validator) deliver(f Finding, dst *[]Finding) {
	if v.opts.OnFinding != nil {
		v.opts.OnFinding(f)
	}
	if dst != nil {
		v.rep.keep(dst, f)
	}
}

// guideFinding is the report func handed to a SetValidator.
func (v *validator) guideFinding(f Finding) {
	if f.Offset == 0 && v.seg != nil {
		f.Offset = v.seg.Offset()
	}
	if f.SegmentID == "" && v.seg != nil {
		f.SegmentID = v.seg.ID()
	}
	if f.Position == 0 && v.set != nil {
		f.Position = v.position
	}
	v.file(f)
}

// ---- value checks ----

// hipaaIDQualifiers are the ISA05/ISA07 codes the HIPAA guides allow:
// D-U-N-S (01), D-U-N-S+4 (14), HIN (20), carrier and intermediary ids
// (27, 28, 29), FEIN (30), NAIC (33) and mutually defined (ZZ).
var hipaaIDQualifiers = []string{"01", "14", "20", "27", "28", "29", "30", "33", "ZZ"}

// functionalIDs maps transaction sets to the GS01 codes that may carry
// them (the HIPAA and acknowledgment sets, where a mismatch is certain).
var functionalIDs = map[string][]string{
	"270": {"HS"}, "271": {"HB"}, "276": {"HR"}, "277": {"HN", "HI"}, "278": {"HI"},
	"834": {"BE"}, "835": {"HP"}, "837": {"HC"}, "820": {"RA"},
	"997": {"FA"}, "999": {"FA"},
}

func oneOf(s string, opts ...string) bool {
	for _, o := range opts {
		if s == o {
			return true
		}
	}
	return false
}

func allDigits(s string, min, max int) bool {
	if len(s) < min || len(s) > max {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

func isUpperAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; !(c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return s != ""
}

// atoi parses a non-negative decimal without allocating.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 9 {
		return 0, false
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return 0, false
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

func validYYMMDD(s string) bool {
	return allDigits(s, 6, 6) && validMonthDay(2000+num(s[0:2]), num(s[2:4]), num(s[4:6]))
}

func validCCYYMMDD(s string) bool {
	return allDigits(s, 8, 8) && validMonthDay(num(s[0:4]), num(s[4:6]), num(s[6:8]))
}

func validMonthDay(y, m, d int) bool {
	if m < 1 || m > 12 || d < 1 {
		return false
	}
	days := [13]int{0, 31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31}[m]
	if m == 2 && (y%4 == 0 && (y%100 != 0 || y%400 == 0)) {
		days = 29
	}
	return d <= days
}

func validHHMM(s string) bool {
	return allDigits(s, 4, 4) && num(s[0:2]) < 24 && num(s[2:4]) < 60
}

// validGSTime accepts HHMM, HHMMSS and HHMMSSd..dd.
func validGSTime(s string) bool {
	if len(s) != 4 && (len(s) < 6 || len(s) > 8) {
		return false
	}
	if !allDigits(s, 4, 8) || !validHHMM(s[:4]) {
		return false
	}
	return len(s) == 4 || num(s[4:6]) < 60
}

func num(s string) int {
	n, _ := strconv.Atoi(s)
	return n
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

package guide

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// Options configure validation. The zero value checks everything.
type Options struct {
	// SkipNPI turns off the NPI check-digit rule: some official examples
	// (x12.org's 837D examples, moov-io's samples) carry NPIs that fail it.
	SkipNPI bool
	// SkipBusiness turns off the rules beyond the TR3 syntax: balancing and
	// NPI check digits (SNIP types 3 and 5).
	SkipBusiness bool
	// SkipElements stops element-level checks (types, lengths, codes);
	// structure, repeats and rules are still checked. The JSON encoder uses
	// it when asked for translation only.
	SkipElements bool
}

// Validator checks one transaction set at a time against a guide. Call
// Begin with the ST segment, Step with every following segment up to and
// including SE, then End. Findings go to the report function given to Begin.
// A Validator is reused across sets and is not safe for concurrent use.
type Validator struct {
	walker
	opts   Options
	report func(x12.Finding)
	d      x12.Delimiters
	cls    classTable
	seg    *x12.Segment // segment being checked
	// loop is the loop of the segment being checked, nil or the root for
	// the header and trailer (loopID names it, for findings only).
	loop   *Loop
	errors int // findings that reject the set
	// slowOnly makes step read every segment through its accessors and
	// check it with checkElements: the reference the tests hold the fast
	// path (fields.scan, elementsOK) to.
	slowOnly bool
}

// NewValidator returns a Validator with the given options.
func NewValidator(opts Options) *Validator {
	v := &Validator{opts: opts}
	v.onSkip = v.missing
	v.onClose = v.closeFrame
	return v
}

// Begin starts a transaction set: st is its ST segment. report receives the
// findings (it must not keep the *x12.Segment passed to Step).
func (v *Validator) Begin(g *Guide, st *x12.Segment, report func(x12.Finding)) {
	v.reset(g)
	v.report = report
	v.errors = 0
	v.d = st.Delimiters()
	v.pos = 1
	v.f.use(st)
	f := v.push(g.root, st.Offset())
	v.seg, v.loop = st, nil
	if !v.opts.SkipElements {
		v.checkElements(st, g.root.Children[0].Segment)
	}
	_ = f
}

// Step checks the next segment of the set and says where it belongs.
func (v *Validator) Step(seg *x12.Segment) Step { return *v.step(seg) }

// step is Step returning the walker's Step in place (valid until the next).
// The segment's bytes are scanned once (fields.scan); when the scan vouches
// for them, elementsOK checks the elements without reporting, and only a
// segment it does not pass is checked again by checkElements, which finds
// and reports what is wrong, in the order it always has.
func (v *Validator) step(seg *x12.Segment) *Step {
	if v.slowOnly {
		v.f.use(seg)
	} else {
		v.f.scan(seg, v.d)
	}
	st := v.place(seg)
	if st.Segment != nil {
		if !v.opts.SkipElements && !(v.f.fast && v.elementsOK(st.Segment)) {
			v.checkElements(seg, st.Segment)
		}
		v.applyRules(seg, st)
	}
	return st
}

// structure places a segment and checks what its place implies (order,
// repeats, usage, HL hierarchy), leaving its elements and the rules to the
// caller: the JSON encoder checks elements while it writes them.
func (v *Validator) structure(seg *x12.Segment) *Step {
	v.f.use(seg)
	return v.place(seg)
}

// placeFull is place by the walker's full step: locate, then the loops
// the segment closes and opens, and the checks its place implies.
func (v *Validator) placeFull(seg *x12.Segment) *Step {
	st := v.walker.step(seg)
	v.seg = seg
	if st.Segment == nil {
		v.unknown(seg)
		return st
	}
	f := v.top()
	v.loop = f.loop
	if st.OutOfOrder {
		v.segmentFinding(CodeOutOfOrder, "7", x12.Error, st.Segment,
			fmt.Sprintf("%s is out of order in loop %s (expected earlier)", st.Segment.ID, v.loopName()))
	}
	if st.Opened != nil {
		parent := &v.stack[v.depth-2]
		n := parent.counts[parent.idx]
		if st.OutOfOrder {
			n = 0
		}
		if max := st.Opened.Max; max > 0 && int(n) > max {
			v.loopOverMax(st, int(n))
		}
		if st.Opened.hasHL {
			v.checkHL(seg)
		}
	} else {
		n := int(f.counts[st.child])
		if max := st.Segment.Max; max > 0 && n > max {
			v.segmentOverMax(st, n)
		}
	}
	if st.Segment.Usage == NotUsed {
		v.notUsed(st.Segment)
	}
	return st
}

// loopOverMax reports the loop st opened, its nth, over its maximum.
func (v *Validator) loopOverMax(st *Step, n int) {
	v.segmentFinding(CodeLoopOverMax, "4", x12.Error, st.Segment,
		fmt.Sprintf("loop %s occurs %d times, more than its maximum %d", st.Opened.ID, n, st.Opened.Max))
}

// segmentOverMax reports st's segment, its nth in its loop, over its maximum.
func (v *Validator) segmentOverMax(st *Step, n int) {
	v.segmentFinding(CodeSegmentOverMax, "5", x12.Error, st.Segment,
		fmt.Sprintf("%s is used %d times in loop %s, more than its maximum %d", st.Segment.ID, n, v.loopName(), st.Segment.Max))
}

// notUsed reports a segment the guide marks not used.
func (v *Validator) notUsed(s *Segment) {
	v.segmentFinding(CodeSegmentNotUsed, "I4", x12.Error, s,
		fmt.Sprintf("%s (%s) is not used in this guide", s.ID, s.Name))
}

// End closes the set: required segments and loops never seen are reported,
// and the rules of every open loop are evaluated. It returns how many
// findings reject the set.
func (v *Validator) End() int {
	for v.depth > 0 {
		v.pop()
	}
	return v.errors
}

// loopID is the LoopID of the current segment's findings: "" in the
// header and trailer.
func (v *Validator) loopID() string {
	if v.loop == nil || v.loop == v.g.root {
		return ""
	}
	return v.loop.ID
}

func (v *Validator) loopName() string {
	if id := v.loopID(); id != "" {
		return id
	}
	return "header/trailer"
}

// emit files a finding, filling what every finding of the current segment shares.
func (v *Validator) emit(f x12.Finding) {
	if f.Severity >= x12.Error {
		v.errors++
	}
	if v.report != nil {
		v.report(f)
	}
}

// segmentFinding reports a problem with the current segment (IK3 level).
func (v *Validator) segmentFinding(code x12.Code, ik3 string, sev x12.Severity, s *Segment, msg string) {
	id := v.seg.ID()
	if s != nil {
		id = s.ID
	}
	v.emit(x12.Finding{Severity: sev, Code: code, Message: msg, Offset: v.seg.Offset(), SegmentID: id,
		Position: v.pos, LoopID: v.loopID(), IK3: ik3})
}

// unknown reports a segment that fits nowhere in the guide.
func (v *Validator) unknown(seg *x12.Segment) {
	id := seg.ID()
	code, ik3, why := CodeUnexpected, "2", "is not expected here"
	switch {
	case !validID(id):
		code, ik3, why = CodeUnrecognized, "1", "is not a segment identifier"
	case !v.g.segIDs[id] && knownSegment(id):
		code, ik3, why = CodeNotInSet, "6", "is not part of transaction set "+v.g.Transaction
	case !v.g.segIDs[id]:
		code, ik3, why = CodeUnrecognized, "1", "is not a segment this guide knows"
	}
	v.loop = v.top().loop
	v.segmentFinding(code, ik3, x12.Error, nil, fmt.Sprintf("segment %q %s (in loop %s)", clip(id), why, v.loopName()))
}

// missing reports a required child of frame f that was not present.
func (v *Validator) missing(f *frame, child int) {
	n := f.loop.Children[child]
	loop := f.loop.ID
	if f.loop == v.g.root {
		loop = ""
	}
	what := n.trigger()
	msg := fmt.Sprintf("required segment %s (%s) is missing", what.ID, what.Name)
	code := CodeSegmentMissing
	if n.Loop != nil {
		code = CodeLoopMissing
		msg = fmt.Sprintf("required loop %s (%s) is missing", n.Loop.ID, n.Loop.Name)
		loop = n.Loop.ID
	}
	pos, off := f.before(child)
	v.emit(x12.Finding{Severity: x12.Error, Code: code, Message: msg, Offset: off, SegmentID: what.ID,
		Position: pos, LoopID: loop, IK3: "3"})
}

// closeFrame runs when a loop instance ends.
func (v *Validator) closeFrame(f *frame) {
	if f.loop.hasHL && f.hlChild == '1' && !f.hlKids {
		// A warning: HL04 = 1 says children may follow, and the X12
		// standard's own example (HL*2*1*21*1 with no child) does this.
		v.emit(x12.Finding{Severity: x12.Warning, Code: CodeHLChild, Offset: f.hlOffset, SegmentID: "HL", Position: f.hlPos,
			LoopID: f.loop.ID, Element: 4, ElementRef: "736", Value: "1",
			Message: fmt.Sprintf("HL04 is 1 but no subordinate HL follows level %s", f.loop.ID)})
	}
	v.closeRules(f)
}

// checkHL checks an HL that opened a loop: HL01 numbering, HL02 pointing at
// the enclosing level, and the parent's HL04.
func (v *Validator) checkHL(seg *x12.Segment) {
	f := v.top()
	id, p, c := v.f.el(1), v.f.el(2), v.f.el(4)
	if len(id) <= 8 && cap(id) >= 8 {
		// One word, bytes past the id with it (hlIDLen bounds them): no call.
		binary.LittleEndian.PutUint64(f.hlID[:8], binary.LittleEndian.Uint64(id[:8]))
		f.hlIDLen = uint8(len(id))
	} else {
		f.hlIDLen = uint8(copy(f.hlID[:], id))
	}
	f.hlPos, f.hlOffset = v.pos, seg.Offset()
	if len(c) == 1 {
		f.hlChild = c[0]
	}
	if n, ok := hlNumber(id); ok {
		if n != v.lastHL+1 {
			v.elementFinding(CodeHLSequence, "7", 1, 0, 0, "628", id,
				fmt.Sprintf("HL01 %s does not follow %d (hierarchical ids count up by one from 1)", clip(string(id)), v.lastHL))
		}
		v.lastHL = n
	}
	var parent *frame
	for d := v.depth - 2; d >= 0; d-- {
		if v.stack[d].loop.hasHL {
			parent = &v.stack[d]
			break
		}
	}
	switch {
	case parent == nil && len(p) > 0:
		v.elementFinding(CodeHLParent, "7", 2, 0, 0, "734", p,
			fmt.Sprintf("HL02 %s names a parent, but level %s is at the top of the hierarchy", clip(string(p)), f.loop.ID))
	case parent != nil && string(p) != string(parent.hlID[:parent.hlIDLen]):
		v.elementFinding(CodeHLParent, "7", 2, 0, 0, "734", p,
			fmt.Sprintf("HL02 %q should be %s, the HL01 of the enclosing level %s", clip(string(p)), parent.hlID[:parent.hlIDLen], parent.loop.ID))
	}
	if parent != nil {
		parent.hlKids = true
		if parent.hlChild == '0' {
			v.elementFinding(CodeHLChild, "7", 2, 0, 0, "734", p,
				fmt.Sprintf("level %s has a parent HL %s whose HL04 says it has no children", f.loop.ID, parent.hlID[:parent.hlIDLen]))
		}
	}
}

// hlNumber is strconv.Atoi of an HL01, without the string for the usual
// one of up to nine digits.
func hlNumber(id []byte) (int, bool) {
	if len(id) == 0 || len(id) > 9 {
		n, err := strconv.Atoi(string(id))
		return n, err == nil
	}
	n := 0
	for _, c := range id {
		if c < '0' || c > '9' {
			n, err := strconv.Atoi(string(id))
			return n, err == nil
		}
		n = n*10 + int(c-'0')
	}
	return n, true
}

// elementFinding reports an element problem of the current segment (IK4).
func (v *Validator) elementFinding(code x12.Code, ik4 string, elem, comp, rep int, de string, value []byte, msg string) {
	v.elementFindingSev(x12.Error, code, ik4, elem, comp, rep, de, value, msg)
}

func (v *Validator) elementFindingSev(sev x12.Severity, code x12.Code, ik4 string, elem, comp, rep int, de string, value []byte, msg string) {
	f := x12.Finding{Severity: sev, Code: code, Message: msg, Offset: v.seg.Offset(), SegmentID: v.seg.ID(),
		Position: v.pos, LoopID: v.loopID(), Element: elem, Component: comp, Repetition: rep, ElementRef: de,
		Value: clip(string(value))}
	if sev >= x12.Error {
		f.IK4 = ik4
	}
	v.emit(f)
}

func clip(s string) string {
	if len(s) > 99 {
		return s[:99]
	}
	return s
}

// validID reports whether id looks like an X12 segment id: 2-3 upper-case
// letters and digits, starting with a letter.
func validID(id string) bool {
	if len(id) < 2 || len(id) > 3 || id[0] < 'A' || id[0] > 'Z' {
		return false
	}
	for i := 1; i < len(id); i++ {
		c := id[i]
		if (c < 'A' || c > 'Z') && (c < '0' || c > '9') {
			return false
		}
	}
	return true
}

// knownSegment reports whether any embedded guide defines segment id.
func knownSegment(id string) bool {
	for _, g := range embedded().guides {
		if g.segIDs[id] {
			return true
		}
	}
	return false
}

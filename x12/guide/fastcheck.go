package guide

import "math"

// The encoder checks the values of the commonest elements itself, with the
// checks below, and calls the validator only when one fails (the validator
// then finds and reports the problem). Each must accept exactly the values
// the validator reports nothing about; fastpath_test.go checks that on every
// element of every guide.

// textValid reports whether v, a value of a text element (e.text) without
// control characters, component or repetition separators, passes every
// check checkSimple makes.
func (e *Element) textValid(v []byte) bool {
	if len(v) < e.Min || (e.Max > 0 && len(v) > e.Max) {
		return false
	}
	if e.codes != nil {
		return e.codes.has(v)
	}
	if e.codeList != nil {
		return e.codeList.codes.has(v)
	}
	return true
}

// numberValid reports whether v, a value of a number element (e.number)
// without control characters or separators, passes every check
// checkSimple makes.
func (e *Element) numberValid(v []byte) bool {
	if e.kind == kindDecimal && !validDecimal(v) || e.kind == kindInteger && !validInteger(v) {
		return false
	}
	n := valueLength(e, v)
	return n >= e.Min && (e.Max <= 0 || n <= e.Max)
}

// quick is how elementsOK checks a value of an element, chosen when the
// guide is loaded: by type for a used element without a pattern, and
// never (quickNone: checkElements decides) for the rest.
type quick uint8

const (
	quickNone quick = iota
	quickText
	quickDecimal
	quickInteger
	quickDate
	quickTime
	quickComposite
)

// quickOf chooses the quick check of an element.
func quickOf(e *Element) quick {
	switch {
	case e.Usage == NotUsed || e.pattern != nil:
		return quickNone
	case len(e.Components) > 0:
		return quickComposite
	}
	switch e.kind {
	case kindDate:
		return quickDate
	case kindTime:
		return quickTime
	case kindDecimal:
		return quickDecimal
	case kindInteger:
		return quickInteger
	}
	return quickText
}

// qcheck is what elementsOK needs of an element, in 64 bytes: a segment's
// checks are one small array (Segment.qs) instead of its Elements. Its
// layout is read by checkSegment (checkvalues_amd64.s; TestAsmLayout).
type qcheck struct {
	op     quick
	req    bool  // a required element (what a composite asks of a component)
	pshift uint8 // codes.pshift
	// aop picks checkSegment's shortest path for a simple element:
	// aopText (text checked by its length alone), aopCode (text whose
	// codes have a collision-free table), 0 for the rest (by op).
	aop uint8
	// A value's length n passes when uint(n-min) <= span.
	min, span uint32
	// lastReq is the position of a composite's last required component.
	lastReq int32
	// perfect and mul are the codes' collision-free table (codeSet.perfect);
	// perfect is nil when there are no codes or they have no such table.
	perfect *uint64
	mul     uint64
	codes   *codeSet // the guide's codes or the external list's
	// comps are the checks of a composite's components, ncomps of them.
	comps  *qcheck
	ncomps int32
	// maxLeft is the most of comps a value may leave unused: those after
	// the last required component (ncomps - lastReq).
	maxLeft int32
	el      *Element // the element (its components, for a composite)
}

// qcheckOf compiles e's quick check (qchecks sets comps).
func qcheckOf(e *Element) qcheck {
	q := qcheck{op: e.quick, el: e, req: e.Usage == Required, min: uint32(max(e.Min, 0)), span: math.MaxUint32}
	if e.Max > 0 {
		if e.Max < e.Min {
			q.op = quickNone // no length passes
		}
		q.span = uint32(e.Max) - q.min
	}
	switch {
	case e.codes != nil:
		q.codes = e.codes
	case e.codeList != nil:
		q.codes = e.codeList.codes
	}
	if q.codes != nil && q.codes.perfect != nil {
		q.perfect, q.mul, q.pshift = &q.codes.perfect[0], q.codes.mul, q.codes.pshift
	}
	for i := range e.Components {
		if e.Components[i].Usage == Required {
			q.lastReq = int32(i + 1)
		}
	}
	switch {
	case q.op == quickText && q.codes == nil:
		q.aop = aopText
	case q.op == quickText && q.perfect != nil:
		q.aop = aopCode
	}
	return q
}

// Values of qcheck.aop.
const (
	aopText = 1
	aopCode = 2
)

// qchecks compiles the quick checks of elements (which must not move
// afterwards: each check points at its element, and a composite's at its
// components' checks).
func qchecks(elements []Element) []qcheck {
	qs := make([]qcheck, len(elements))
	for i := range elements {
		q := &qs[i]
		*q = qcheckOf(&elements[i])
		if cs := elements[i].qs; q.op == quickComposite && len(cs) > 0 {
			q.comps, q.ncomps = &cs[0], int32(len(cs))
		}
		q.maxLeft = q.ncomps - q.lastReq
	}
	return qs
}

// qseg is what checkSegment reads of a guide segment, in one place (its
// layout is read by checkvalues_amd64.s: TestAsmLayout).
type qseg struct {
	qs *qcheck // the checks of positions 1 to nqs (Segment.qs)
	// nqs is len(qs), or -1 when elementsOK must not run (noQuick).
	nqs     int
	lastReq int    // Segment.lastReq
	reqMask uint64 // Segment.reqMask
	syntax  *qsyntax
	nsyntax int
	// compMask has bit p set for a composite at position p (up to 62).
	compMask uint64
	// dateQual and dateVal are the positions of the segment's first date
	// pair (0: none); moreDates is set when it has another.
	dateQual, dateVal int32
	moreDates         bool
}

// qsyntax is a syntax rule as checkSegment reads it (see
// syntaxRule.broken): a P rule is read as a C rule whose first is its mask.
type qsyntax struct {
	mask, first uint64
	kind        byte
}

// Answers of checkSegment.
const (
	segmentBad    = 0 // checkElements will report something
	segmentOK     = 1
	segmentUnsure = 2 // elementsOKGo decides
	segmentDates  = 3 // all but the dates checked: datesOK decides
)

// qsegOf compiles s's checkSegment view (after qs, syntax and reqMask).
func qsegOf(s *Segment) qseg {
	q := qseg{nqs: len(s.qs), lastReq: s.lastReq, reqMask: s.reqMask}
	if s.noQuick {
		q.nqs = -1
	}
	if len(s.qs) > 0 {
		q.qs = &s.qs[0]
	}
	if len(s.dates) > 0 {
		q.dateQual, q.dateVal, q.moreDates = int32(s.dates[0].qual), int32(s.dates[0].value), len(s.dates) > 1
	}
	for i := range s.qs {
		if s.qs[i].op == quickComposite && i+1 <= maxSyntaxPos {
			q.compMask |= 1 << (i + 1)
		}
	}
	if len(s.syntax) > 0 {
		rules := make([]qsyntax, len(s.syntax))
		for i, r := range s.syntax {
			rules[i] = qsyntax{mask: r.mask, first: r.first, kind: r.kind}
			if r.kind == 'P' {
				rules[i].kind, rules[i].first = 'C', r.mask
			}
		}
		q.syntax, q.nsyntax = &rules[0], len(rules)
	}
	return q
}

// elementsOK reports whether checkElements would find nothing wrong with
// the scanned segment (v.f, fast) as def: the same checks, in one pass,
// without reporting. False may also mean "not sure" (a repeated element, a
// segment longer than its definition): checkElements then decides.
//
// checkSegment (assembly on amd64) makes every check but those of dates
// other than D8 ones; what it is not sure of, elementsOKGo decides.
func (v *Validator) elementsOK(def *Segment) bool {
	switch checkSegment(&v.f, &def.q, v.d.Component) {
	case segmentOK:
		return true
	case segmentDates:
		return v.datesOK(def)
	case segmentBad:
		return false
	}
	return v.elementsOKGo(def)
}

// elementsOKGo is elementsOK in Go, without checkSegment.
func (v *Validator) elementsOKGo(def *Segment) bool {
	f := &v.f
	n := f.n
	if n > len(def.qs) || n > maxFields || def.lastReq > n || def.noQuick {
		return false
	}
	var present uint64
	if n > 0 {
		var ok bool
		if present, ok = v.valuesOK(def, f.raw[:cap(f.raw)]); !ok {
			return false
		}
	}
	if def.reqMask&^present != 0 {
		return false
	}
	for i := range def.syntax {
		if def.syntax[i].broken(present) {
			return false
		}
	}
	return v.datesOK(def)
}

// datesOK reports whether checkElements finds nothing wrong with the date
// pairs (1250 format, 1251 value) of the scanned segment as def.
func (v *Validator) datesOK(def *Segment) bool {
	f := &v.f
	// buf runs to the end of the segment's buffer (fields.scan leaves 16
	// bytes after the segment at least), so a value reads as a word.
	buf := f.raw[:cap(f.raw)]
	for _, p := range def.dates {
		if p.value > f.n {
			continue // an empty value: nothing to check
		}
		qv, vv := f.span[p.qual&maxFields], f.span[p.value&maxFields]
		if !datePairOK(buf[qv&0xffff:qv>>16], buf[vv&0xffff:vv>>16]) {
			return false
		}
	}
	return true
}

// valuesOK is checkSegment's loop over the values in Go: whether checkElements finds nothing wrong
// with the values of the n elements of the scanned segment (v.f), and the
// positions of those not empty (bit min(p, 63) for position p).
func (v *Validator) valuesOK(def *Segment, buf []byte) (uint64, bool) {
	f := &v.f
	csep, special := v.d.Component, f.compEl|f.repEl
	var present uint64
	spans := f.span[1 : f.n+1]
	qs := def.qs[:len(spans)]
	for j, p := range spans {
		lo, hi := p&0xffff, p>>16
		if lo == hi {
			continue
		}
		bit := uint64(1) << min(j+1, 63)
		present |= bit
		q := &qs[j]
		if special&bit != 0 && (f.repEl&bit != 0 || q.op != quickComposite) {
			return 0, false
		}
		if q.op == quickComposite {
			if !compositeOK(q, buf, lo, hi, csep) {
				return 0, false
			}
		} else if !q.valueOK(buf, lo, hi) {
			return 0, false
		}
	}
	return present, true
}

// valueOK reports whether checkSimple finds nothing wrong with buf[lo:hi]
// (not empty), a value without control characters or separators. buf has
// bytes after the value when it can: a value of 1 to 7 bytes with 8 from
// lo is read as one word for its codes. False may also mean "not sure".
func (q *qcheck) valueOK(buf []byte, lo, hi uint32) bool {
	if hi > uint32(len(buf)) || lo >= hi {
		return false // not a value of buf (never for a scanned segment)
	}
	v := buf[lo:hi]
	n := uint32(len(v))
	switch q.op {
	case quickText:
	case quickDecimal, quickInteger:
		// validDecimal or validInteger, and valueLength, in one pass:
		// an optional minus, digits, at most one point (none in an
		// integer); the length counts the digits.
		if v[0] == '-' {
			v = v[1:]
		}
		digits, dots := uint32(0), uint32(0)
		for _, c := range v {
			switch {
			case c-'0' <= 9:
				digits++
			case c == '.':
				dots++
			default:
				return false
			}
		}
		if digits == 0 || dots > 1 || dots == 1 && q.op == quickInteger {
			return false
		}
		n = digits
	case quickDate:
		if !validDate(v) {
			return false
		}
	case quickTime:
		if !validTime(v) {
			return false
		}
	default:
		return false
	}
	if n-q.min > q.span {
		return false
	}
	return q.codes == nil || q.codes.hasAt(buf, lo, hi)
}

// compositeOK reports whether checkElement finds nothing wrong with
// buf[lo:hi], a value of composite q without control characters or
// repetition separators (csep is the component separator), buf as for
// valueOK.
func compositeOK(q *qcheck, buf []byte, lo, hi uint32, csep byte) bool {
	if hi > uint32(len(buf)) || lo > hi {
		return false
	}
	cs := q.el.qs
	c := 0 // components read
	start := lo
	for k, b := range buf[lo:hi] {
		if b != csep {
			continue
		}
		end := lo + uint32(k)
		if !componentOK(cs, c, buf, start, end) {
			return false
		}
		c++
		start = end + 1
	}
	if !componentOK(cs, c, buf, start, hi) {
		return false
	}
	return c+1 >= int(q.lastReq) // no required component after the last one sent
}

// componentOK reports whether buf[lo:hi] passes as component c (0-based)
// of a composite whose components' checks are cs.
func componentOK(cs []qcheck, c int, buf []byte, lo, hi uint32) bool {
	if c >= len(cs) {
		return false
	}
	q := &cs[c]
	if lo == hi {
		return !q.req
	}
	return q.valueOK(buf, lo, hi)
}

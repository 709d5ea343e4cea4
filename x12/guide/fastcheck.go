package guide

import (
	"encoding/binary"
	"math"
)

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

// qcheck is what elementsOK needs of an element, in 32 bytes: a segment's
// checks are one small array (Segment.qs) instead of its Elements.
type qcheck struct {
	op quick
	// A value's length n passes when uint(n-min) <= span.
	min, span uint32
	codes     *codeSet // the guide's codes or the external list's
	packed    []uint64 // codes.packed of a short list of short codes
	el        *Element // the element (its components, for a composite)
	// lastReq is the position of a composite's last required component.
	lastReq int
}

// qcheckOf compiles e's quick check.
func qcheckOf(e *Element) qcheck {
	q := qcheck{op: e.quick, el: e, min: uint32(max(e.Min, 0)), span: math.MaxUint32}
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
	for i := range e.Components {
		if e.Components[i].Usage == Required {
			q.lastReq = i + 1
		}
	}
	if q.codes != nil && q.codes.table == nil && q.codes.other == nil {
		q.packed = q.codes.packed
	}
	return q
}

// valueOK reports whether checkSimple finds nothing wrong with v, a value
// without control characters, component or repetition separators. False
// may also mean "not sure": the caller then lets checkElements decide.
func (q *qcheck) valueOK(v []byte) bool {
	n := len(v)
	switch q.op {
	case quickText:
	case quickDecimal:
		if !validDecimal(v) {
			return false
		}
		n = valueLength(q.el, v)
	case quickInteger:
		if !validInteger(v) {
			return false
		}
		n = valueLength(q.el, v)
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
	if uint32(n)-q.min > q.span {
		return false
	}
	return q.codes == nil || q.hasCode(v)
}

// hasCode is q.codes.has(v), with a short list's scan inline.
func (q *qcheck) hasCode(v []byte) bool {
	if n := len(v); q.packed != nil && uint(n-1) < 7 && cap(v) >= 8 {
		p := binary.LittleEndian.Uint64(v[:8])&lowBytes[n&7] | uint64(n)<<56
		for _, x := range q.packed {
			if x == p {
				return true
			}
		}
		return false
	}
	return q.codes.has(v)
}

// compositeOK reports whether checkElement finds nothing wrong with v, a
// value of composite e without control characters or repetition
// separators (csep is the component separator).
func compositeOK(q *qcheck, v []byte, csep byte) bool {
	e := q.el
	c := 0
	for {
		c++
		part := v
		j := indexByte(v, csep)
		if j >= 0 {
			part, v = v[:j], v[j+1:]
		}
		if c > len(e.qs) {
			return false
		}
		q := &e.qs[c-1]
		if len(part) == 0 {
			if q.el.Usage == Required {
				return false
			}
		} else if !q.valueOK(part) {
			return false
		}
		if j < 0 {
			break
		}
	}
	return c >= q.lastReq // no required component after the last one sent
}

// elementsOK reports whether checkElements would find nothing wrong with
// the scanned segment (v.f, fast) as def: the same checks, in one pass,
// without reporting. False may also mean "not sure" (a repeated element, a
// segment longer than its definition): checkElements then decides.
func (v *Validator) elementsOK(def *Segment) bool {
	f := &v.f
	n := f.n
	qs := def.qs
	if n > len(qs) || def.lastReq > n || def.noQuick {
		return false
	}
	raw, csep, special := f.raw, v.d.Component, f.compEl|f.repEl
	var present uint64
	qs = qs[:n]
	for j := range qs {
		q, i := &qs[j], j+1
		p := f.span[i&maxFields]
		lo, hi := p&0xffff, p>>16
		if lo == hi {
			continue
		}
		bit := uint64(1) << min(i, 63)
		present |= bit
		if special&bit == 0 && q.op == quickText {
			// The common case: a plain text value, checked by its length
			// and codes without slicing it unless it has codes.
			if hi-lo-q.min > q.span {
				return false
			}
			if q.codes != nil && !q.hasCode(raw[lo:hi]) {
				return false
			}
			continue
		}
		val := raw[lo:hi]
		if special&bit == 0 {
			// A plain value (a composite of one component).
			if q.op == quickComposite {
				if !compositeOK(q, val, csep) {
					return false
				}
				continue
			}
			if !q.valueOK(val) {
				return false
			}
			continue
		}
		if f.repEl&bit != 0 || q.op != quickComposite || !compositeOK(q, val, csep) {
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
	for _, p := range def.dates {
		if !datePairOK(f.el(p.qual), f.el(p.value)) {
			return false
		}
	}
	return true
}

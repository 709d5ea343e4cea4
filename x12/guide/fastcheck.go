package guide

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
)

// quickOf chooses the quick check of an element.
func quickOf(e *Element) quick {
	if e.Usage == NotUsed || e.pattern != nil || len(e.Components) > 0 {
		return quickNone
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

// valueOK reports whether checkSimple finds nothing wrong with v, a value
// without control characters, component or repetition separators. False
// may also mean "not sure": the caller then lets checkElements decide.
func (e *Element) valueOK(v []byte) bool {
	n := len(v)
	switch e.quick {
	case quickText:
	case quickDecimal:
		if !validDecimal(v) {
			return false
		}
		n = valueLength(e, v)
	case quickInteger:
		if !validInteger(v) {
			return false
		}
		n = valueLength(e, v)
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
	if n < e.Min || (e.Max > 0 && n > e.Max) {
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

// compositeOK reports whether checkElement finds nothing wrong with v, a
// value of composite e without control characters or repetition
// separators (csep is the component separator).
func compositeOK(e *Element, v []byte, csep byte) bool {
	if e.Usage == NotUsed {
		return false
	}
	c := 0
	for {
		c++
		part := v
		j := indexByte(v, csep)
		if j >= 0 {
			part, v = v[:j], v[j+1:]
		}
		if c > len(e.Components) {
			return false
		}
		comp := &e.Components[c-1]
		if len(part) == 0 {
			if comp.Usage == Required {
				return false
			}
		} else if !comp.valueOK(part) {
			return false
		}
		if j < 0 {
			break
		}
	}
	for c++; c <= len(e.Components); c++ {
		if e.Components[c-1].Usage == Required {
			return false
		}
	}
	return true
}

// elementsOK reports whether checkElements would find nothing wrong with
// the scanned segment (v.f, fast) as def: the same checks, in one pass,
// without reporting. False may also mean "not sure" (a repeated element, a
// segment longer than its definition): checkElements then decides.
func (v *Validator) elementsOK(def *Segment) bool {
	f := &v.f
	n := f.n
	if n > len(def.Elements) || def.lastReq > n || def.noQuick {
		return false
	}
	raw, csep := f.raw, v.d.Component
	var present uint64
	for i := 1; i <= n; i++ {
		val := raw[f.b[i]+1 : f.b[i+1]]
		if len(val) == 0 {
			continue
		}
		bit := uint64(1) << min(i, 63)
		present |= bit
		e := &def.Elements[i-1]
		switch {
		case f.repEl&bit != 0:
			return false
		case e.Components != nil:
			if !compositeOK(e, val, csep) {
				return false
			}
		case f.compEl&bit != 0 || !e.valueOK(val):
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

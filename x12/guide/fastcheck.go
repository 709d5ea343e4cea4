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

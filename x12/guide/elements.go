package guide

import (
	"encoding/binary"
	"fmt"

	"github.com/clearhouse/clearhouse/x12"
)

// checkElements checks every element of seg against its guide definition:
// usage, repetitions, components, type, length, codes and patterns, then the
// segment's syntax rules and date formats. It allocates only to report.
func (v *Validator) checkElements(seg *x12.Segment, def *Segment) {
	cls := v.cls.table(v.d)
	n := seg.Len()
	var present uint64
	for i := 1; i <= n; i++ {
		raw := seg.ElementBytes(i)
		if len(raw) > 0 {
			present |= 1 << min(i, 63) // later ones share bit 63 (see maxSyntaxPos)
		}
		v.checkElementAt(def, i, raw, cls.scan(raw))
	}
	v.checkTail(seg, def, n, present)
}

// unknownBits stands for "byte classes not computed": every check runs.
const unknownBits = 0xff

// checkElementAt checks element i of a segment, inside or past its
// definition. bits are the value's byte classes when the JSON encoder has
// scanned it already (clsComp, clsEscape), else unknownBits.
func (v *Validator) checkElementAt(def *Segment, i int, raw []byte, bits uint8) {
	if i > len(def.Elements) {
		if len(raw) > 0 {
			v.elementFinding(CodeTooManyElements, "3", i, 0, 0, "", raw,
				fmt.Sprintf("%s has data in element %02d, past its last element %02d", def.ID, i, len(def.Elements)))
		}
		return
	}
	e := &def.Elements[i-1]
	// The common case first: a used, simple, single value.
	if len(raw) > 0 && e.Usage != NotUsed && e.Components == nil && (e.Repeat <= 1 || v.d.Repetition == 0) && bits&clsComp == 0 {
		v.checkSimple(e, def, i, 0, 0, raw, bits)
		return
	}
	v.checkElement(e, def, i, raw, bits)
}

// checkTail finishes a segment of n elements: required elements past the
// last one present, syntax rules, date formats. present has bit p set when
// element p is not empty (p < 64; syntax rules name no later position).
func (v *Validator) checkTail(seg *x12.Segment, def *Segment, n int, present uint64) {
	for i := n + 1; i <= def.lastReq; i++ {
		if e := &def.Elements[i-1]; e.Usage == Required {
			v.elementFinding(CodeElementMissing, "1", i, 0, 0, e.DE, nil,
				fmt.Sprintf("%s%02d (%s) is required", def.ID, i, e.Name))
		}
	}
	for i := range def.syntax {
		v.checkSyntax(seg, def, &def.syntax[i], present)
	}
	for _, p := range def.dates {
		v.checkDatePair(seg, def, p)
	}
}

// checkElement checks element i of a segment.
func (v *Validator) checkElement(e *Element, def *Segment, i int, raw []byte, bits uint8) {
	if len(raw) == 0 {
		if e.Usage == Required {
			v.elementFinding(CodeElementMissing, "1", i, 0, 0, e.DE, nil,
				fmt.Sprintf("%s%02d (%s) is required", def.ID, i, e.Name))
		}
		return
	}
	if e.Usage == NotUsed {
		v.elementFinding(CodeElementNotUsed, "I10", i, 0, 0, e.DE, raw,
			fmt.Sprintf("%s%02d (%s) is not used in this guide", def.ID, i, elementName(e)))
		return
	}
	rep := v.d.Repetition
	if e.Repeat <= 1 || rep == 0 {
		v.checkValue(e, def, i, 0, raw, bits)
		return
	}
	count := 0
	for len(raw) > 0 || count == 0 {
		part := raw
		if j := indexByte(raw, rep); j >= 0 {
			part, raw = raw[:j], raw[j+1:]
		} else {
			raw = nil
		}
		count++
		if count > e.Repeat {
			v.elementFinding(CodeTooManyRepeats, "12", i, 0, count, e.DE, part,
				fmt.Sprintf("%s%02d repeats more than %d times", def.ID, i, e.Repeat))
			return
		}
		if len(part) > 0 {
			v.checkValue(e, def, i, count, part, unknownBits)
		}
	}
}

// checkValue checks one occurrence of an element (a repetition when rep > 0).
func (v *Validator) checkValue(e *Element, def *Segment, i, rep int, val []byte, bits uint8) {
	csep := v.d.Component
	if !e.IsComposite() {
		if csep != 0 && bits&clsComp != 0 && indexByte(val, csep) >= 0 {
			v.elementFinding(CodeTooManyComponents, "13", i, 0, rep, e.DE, val,
				fmt.Sprintf("%s%02d is a simple element but holds components", def.ID, i))
			return
		}
		v.checkSimple(e, def, i, 0, rep, val, bits)
		return
	}
	c := 0
	rest := val
	for {
		c++
		part := rest
		j := -1
		if csep != 0 {
			j = indexByte(rest, csep)
		}
		if j >= 0 {
			part, rest = rest[:j], rest[j+1:]
		}
		if c > len(e.Components) {
			v.elementFinding(CodeTooManyComponents, "13", i, c, rep, e.DE, part,
				fmt.Sprintf("%s%02d has more than %d components", def.ID, i, len(e.Components)))
			return
		}
		comp := &e.Components[c-1]
		switch {
		case len(part) == 0:
			if comp.Usage == Required {
				v.elementFinding(CodeElementMissing, "1", i, c, rep, comp.DE, nil,
					fmt.Sprintf("%s%02d-%d (%s) is required", def.ID, i, c, comp.Name))
			}
		case comp.Usage == NotUsed:
			v.elementFinding(CodeElementNotUsed, "I10", i, c, rep, comp.DE, part,
				fmt.Sprintf("%s%02d-%d (%s) is not used in this guide", def.ID, i, c, elementName(comp)))
		default:
			v.checkSimple(comp, def, i, c, rep, part, bits)
		}
		if j < 0 {
			break
		}
	}
	for c++; c <= len(e.Components); c++ {
		if comp := &e.Components[c-1]; comp.Usage == Required {
			v.elementFinding(CodeElementMissing, "1", i, c, rep, comp.DE, nil,
				fmt.Sprintf("%s%02d-%d (%s) is required", def.ID, i, c, comp.Name))
		}
	}
}

func elementName(e *Element) string {
	if e.Name == "" {
		return "undefined"
	}
	return e.Name
}

// checkSimple checks a simple value: type, length, code list, pattern.
func (v *Validator) checkSimple(e *Element, def *Segment, i, c, rep int, val []byte, bits uint8) {
	switch e.kind {
	case kindDate:
		if !validDate(val) {
			v.elementFinding(CodeBadDate, "8", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is not a valid date", refName(def.ID, i, c), clip(string(val))))
			return
		}
	case kindTime:
		if !validTime(val) {
			v.elementFinding(CodeBadTime, "9", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is not a valid time", refName(def.ID, i, c), clip(string(val))))
			return
		}
	case kindDecimal:
		if !validDecimal(val) {
			v.elementFinding(CodeBadCharacter, "6", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is not a decimal number", refName(def.ID, i, c), clip(string(val))))
			return
		}
	case kindInteger:
		if !validInteger(val) {
			v.elementFinding(CodeBadCharacter, "6", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is not a whole number", refName(def.ID, i, c), clip(string(val))))
			return
		}
	default:
		if bits&clsEscape != 0 && !validText(val) {
			v.elementFinding(CodeBadCharacter, "6", i, c, rep, e.DE, val, fmt.Sprintf("%s holds a control character", refName(def.ID, i, c)))
			return
		}
	}
	// A bad length still gets its code checked, as pyx12 does (IK403 5 and
	// 7 for one value).
	n := valueLength(e, val)
	if e.Min > 0 && n < e.Min {
		v.elementFinding(CodeTooShort, "4", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is shorter than %d", refName(def.ID, i, c), clip(string(val)), e.Min))
	} else if e.Max > 0 && n > e.Max {
		v.elementFinding(CodeTooLong, "5", i, c, rep, e.DE, val, fmt.Sprintf("%s is longer than %d", refName(def.ID, i, c), e.Max))
	}
	if e.codes != nil {
		if !e.codes.has(val) {
			v.elementFinding(CodeBadCode, "7", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is not a code this guide allows", refName(def.ID, i, c), clip(string(val))))
			return
		}
	} else if e.codeList != nil {
		if !e.codeList.codes.has(val) {
			if e.codeList.Advisory {
				v.elementFindingSev(x12.Warning, CodeAdvisoryCode, "", i, c, rep, e.DE, val,
					fmt.Sprintf("%s %q is not in the %s list as of %s (the code may be newer)", refName(def.ID, i, c), clip(string(val)), e.codeList.Name, e.codeList.AsOf))
			} else {
				v.elementFinding(CodeBadCode, "7", i, c, rep, e.DE, val, fmt.Sprintf("%s %q is not in the %s list", refName(def.ID, i, c), clip(string(val)), e.codeList.Name))
			}
			return
		}
	}
	if e.pattern != nil && !e.pattern.Match(val) {
		v.elementFinding(CodePattern, "I12", i, c, rep, e.DE, val, fmt.Sprintf("%s %q does not have the required format", refName(def.ID, i, c), clip(string(val))))
	}
}

func refName(seg string, i, c int) string {
	if c > 0 {
		return fmt.Sprintf("%s%02d-%d", seg, i, c)
	}
	return fmt.Sprintf("%s%02d", seg, i)
}

// valueLength is the X12 length of a value: numbers count digits only
// (no sign, no decimal point).
func valueLength(e *Element, val []byte) int {
	if e.kind != kindDecimal && e.kind != kindInteger {
		return len(val)
	}
	n := 0
	for _, b := range val {
		if b >= '0' && b <= '9' {
			n++
		}
	}
	return n
}

// validText accepts anything but control characters: X12's extended
// character set includes lower case and UTF-8 text.
func validText(val []byte) bool {
	for _, b := range val {
		if b < 0x20 || b == 0x7f {
			return false
		}
	}
	return true
}

func validInteger(val []byte) bool {
	if len(val) > 0 && val[0] == '-' {
		val = val[1:]
	}
	if len(val) == 0 {
		return false
	}
	for _, b := range val {
		if b < '0' || b > '9' {
			return false
		}
	}
	return true
}

// validDecimal accepts X12 R values: optional minus, digits with at most one
// decimal point, at least one digit.
func validDecimal(val []byte) bool {
	if len(val) > 0 && val[0] == '-' {
		val = val[1:]
	}
	digits, dots := 0, 0
	for _, b := range val {
		switch {
		case b >= '0' && b <= '9':
			digits++
		case b == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// validDate accepts CCYYMMDD (or YYMMDD) naming a real calendar day.
func validDate(val []byte) bool {
	var y, m, d int
	switch len(val) {
	case 8:
		return date8(binary.LittleEndian.Uint64(val))
	case 6:
		y, m, d = 2000+digits(val[0:2]), digits(val[2:4]), digits(val[4:6])
	default:
		return false
	}
	if y < 0 || m < 1 || m > 12 || d < 1 {
		return false
	}
	return d <= daysIn(y, m)
}

// date8 is validDate of a CCYYMMDD value read as a little-endian word:
// the digits checked and read together, without a loop.
func date8(w uint64) bool {
	// Byte by byte: t = b - '0', which sets the top bit of a byte below
	// '0' (and borrows only from bytes after one that fails), and t + 118
	// sets it for one above '9'. Exactly the words of 8 digits pass.
	const ones = 0x0101010101010101
	t := w - '0'*ones
	if (t|(t+118*ones))&(0x80*ones) != 0 {
		return false
	}
	y := int(t&0xff)*1000 + int(t>>8&0xff)*100 + int(t>>16&0xff)*10 + int(t>>24&0xff)
	m := int(t>>32&0xff)*10 + int(t>>40&0xff)
	d := int(t>>48&0xff)*10 + int(t>>56)
	return m >= 1 && m <= 12 && d >= 1 && d <= daysIn(y, m)
}

func daysIn(y, m int) int {
	switch m {
	case 2:
		if y%4 == 0 && (y%100 != 0 || y%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// validTime accepts HHMM, HHMMSS and HHMMSS followed by decimal seconds.
func validTime(val []byte) bool {
	if len(val) < 4 || len(val) > 8 || len(val) == 5 {
		return false
	}
	h, m := digits(val[0:2]), digits(val[2:4])
	if h < 0 || h > 23 || m < 0 || m > 59 {
		return false
	}
	if len(val) >= 6 {
		s := digits(val[4:6])
		if s < 0 || s > 59 {
			return false
		}
		if len(val) > 6 && digits(val[6:]) < 0 {
			return false
		}
	}
	return true
}

// digits parses a run of ASCII digits, -1 when there is anything else.
func digits(b []byte) int {
	if len(b) == 0 {
		return -1
	}
	n := 0
	for _, c := range b {
		if c < '0' || c > '9' {
			return -1
		}
		n = n*10 + int(c-'0')
	}
	return n
}

// datePair is a date format qualifier (data element 1250) followed by the
// value it describes (1251), as in DTP02/DTP03 and DMG01/DMG02.
type datePair struct{ qual, value int }

// checkDatePair checks a 1251 value against its 1250 format: D8 and RD8 must
// be real dates, and a range must not end before it starts.
func (v *Validator) checkDatePair(seg *x12.Segment, def *Segment, p datePair) {
	q, val := seg.ElementBytes(p.qual), seg.ElementBytes(p.value)
	if !datePairOK(q, val) {
		v.elementFinding(CodeBadDate, "8", p.value, 0, 0, def.Elements[p.value-1].DE, val,
			fmt.Sprintf("%s%02d %q is not a valid %s date", def.ID, p.value, clip(string(val)), q))
	}
}

// datePairOK reports whether val is a valid value of date format q (or
// empty, or of a format not checked).
func datePairOK(q, val []byte) bool {
	if len(val) == 0 || len(q) < 2 || len(q) > 3 {
		return true
	}
	// The common case without a string switch.
	if len(q) == 2 && q[0] == 'D' && q[1] == '8' {
		return len(val) == 8 && date8(binary.LittleEndian.Uint64(val))
	}
	switch string(q) {
	case "D8":
		return len(val) == 8 && validDate(val)
	case "RD8":
		return len(val) == 17 && val[8] == '-' && validDate(val[:8]) && validDate(val[9:]) && string(val[:8]) <= string(val[9:])
	case "DT":
		return len(val) == 12 && validDate(val[:8]) && validTime(val[8:])
	case "D6":
		return len(val) == 6 && validDate(val)
	case "TM":
		return validTime(val)
	}
	return true
}

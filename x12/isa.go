package x12

import (
	"bytes"
	"fmt"
)

// isaField describes one fixed-width ISA field: its width and the TA1 note
// code that reports a bad value in it.
type isaField struct {
	width int
	ta1   string
}

// isaFields are ISA01..ISA16 (index 0 is ISA01).
var isaFields = [16]isaField{
	{2, "010"}, {10, "011"}, {2, "012"}, {10, "013"}, // authorization, security
	{2, "005"}, {15, "006"}, {2, "007"}, {15, "008"}, // sender, receiver
	{6, "014"}, {4, "015"}, // date, time
	{1, "016"}, {5, "017"}, {9, "018"}, // ISA11, version, control number
	{1, "019"}, {1, "020"}, {1, "027"}, // ack requested, usage, ISA16
}

// isaLength is the length of a well-formed ISA including its terminator.
const isaLength = 106

// isaWindow is how many bytes the reader offers ISA detection: enough for a
// padded or hard-wrapped header.
const isaWindow = 512

// isaResult is what detection learns from an ISA header.
type isaResult struct {
	d       Delimiters
	n       int // bytes of input the ISA takes, including its terminator
	rawEnd  int // index of the terminator in the input
	notes   []Finding
	version string // ISA12
}

// isISAStart reports whether b starts an ISA segment: "ISA" followed by a
// byte that cannot continue a segment id. Never a substring search.
func isISAStart(b []byte) bool {
	return len(b) >= 4 && b[0] == 'I' && b[1] == 'S' && b[2] == 'A' && !isAlnum(b[3])
}

// detectISA reads the delimiters from the ISA at the start of b. In strict
// mode only the fixed 106-character layout is accepted; otherwise the fields
// are found by counting element separators, and deviations become findings.
// needMore is set when b is too short and more input may follow.
func detectISA(b []byte, atEOF, strict bool, offset int64) (res isaResult, needMore bool, err error) {
	if len(b) >= isaLength {
		if d, ok := fixedISA(b); ok {
			res.d = d
			res.n = isaLength
			res.rawEnd = isaLength - 1
			res.version = string(b[84:89])
			return finishISA(res, b[:isaLength-1], offset)
		}
	} else if !atEOF {
		return res, true, nil
	}
	if strict {
		return res, false, &SyntaxError{Offset: offset, Code: CodeISAMalformed,
			Msg: "ISA is not the fixed 106-character header (strict mode)"}
	}
	res, needMore, err = countedISA(b, atEOF, offset)
	if err != nil || needMore {
		return res, needMore, err
	}
	return finishISA(res, b[:res.rawEnd], offset)
}

// fixedISA checks the separators at their fixed positions.
func fixedISA(b []byte) (Delimiters, bool) {
	e := b[3]
	pos := 3
	for i := 0; i < 15; i++ {
		pos += isaFields[i].width + 1
		if b[pos] != e {
			return Delimiters{}, false
		}
	}
	// pos is now 103, the separator before ISA16.
	c, t := b[104], b[105]
	if c == e || t == e || t == c {
		return Delimiters{}, false
	}
	return Delimiters{Element: e, Component: c, Segment: t, Repetition: b[82]}, true
}

// countedISA finds the ISA fields by counting separators, skipping line
// breaks (hard-wrapped files) and spaces before the first separator
// ("ISA *00 *...").
func countedISA(b []byte, atEOF bool, offset int64) (res isaResult, needMore bool, err error) {
	i := 3
	for i < len(b) && b[i] == ' ' {
		i++
	}
	if i >= len(b) {
		if !atEOF && len(b) < isaWindow {
			return res, true, nil
		}
		return res, false, &SyntaxError{Offset: offset, Code: CodeISAMalformed, Msg: "ISA header is truncated"}
	}
	e := b[i]
	if isAlnum(e) {
		return res, false, &SyntaxError{Offset: offset, Code: CodeISAMalformed,
			Msg: fmt.Sprintf("ISA element separator %q is a letter or digit", e)}
	}
	lineBreak := func(c byte) bool { return (c == '\n' || c == '\r') && c != e }
	var widths [15]int
	field, seps, wrapped := -1, 0, false
	var isa11, version []byte
	for i < len(b) && seps < 16 {
		c := b[i]
		switch {
		case c == e:
			seps++
			field++
		case lineBreak(c):
			wrapped = true
		case field >= 0 && field < 15:
			widths[field]++
			if field == 10 {
				isa11 = append(isa11, c)
			} else if field == 11 {
				version = append(version, c)
			}
		}
		i++
	}
	// Skip line breaks between the 16th separator and ISA16.
	for i < len(b) && lineBreak(b[i]) {
		i++
		wrapped = true
	}
	if seps < 16 || i+1 >= len(b) {
		if !atEOF && len(b) < isaWindow {
			return res, true, nil
		}
		return res, false, &SyntaxError{Offset: offset, Code: CodeISAMalformed,
			Msg: fmt.Sprintf("ISA header has %d of its 16 element separators %q", seps, e)}
	}
	c, t := b[i], b[i+1]
	res.d = Delimiters{Element: e, Component: c, Segment: t}
	if r := bytes.TrimSpace(isa11); len(r) == 1 {
		res.d.Repetition = r[0]
	}
	res.version = string(bytes.TrimSpace(version))
	res.rawEnd = i + 1
	res.n = i + 2
	if wrapped {
		res.notes = append(res.notes, Finding{Severity: Warning, Code: CodeISALineBreak, Offset: offset,
			SegmentID: "ISA", Message: "ISA header contains line breaks (hard-wrapped file); they were removed"})
	}
	for f, w := range widths {
		if w != isaFields[f].width {
			res.notes = append(res.notes, Finding{Severity: Error, Code: CodeISAWidth, Offset: offset,
				SegmentID: "ISA", Element: f + 1, TA1: isaFields[f].ta1,
				Message: fmt.Sprintf("ISA%02d is %d characters, the fixed width is %d; the ISA is not 106 characters", f+1, w, isaFields[f].width)})
			break // one is enough to explain the header; the rest follow from it
		}
	}
	return res, false, nil
}

// finishISA checks the delimiters and decides the repetition separator.
func finishISA(res isaResult, raw []byte, offset int64) (isaResult, bool, error) {
	d := &res.d
	switch {
	case d.Component == d.Element:
		return res, false, &SyntaxError{Offset: offset, Code: CodeDelimiters, TA1: "027",
			Msg: fmt.Sprintf("component separator %q equals the element separator", d.Component)}
	case d.Segment == d.Element:
		return res, false, &SyntaxError{Offset: offset, Code: CodeDelimiters, TA1: "026",
			Msg: fmt.Sprintf("segment terminator %q equals the element separator", d.Segment)}
	case d.Segment == d.Component:
		return res, false, &SyntaxError{Offset: offset, Code: CodeDelimiters, TA1: "004",
			Msg: fmt.Sprintf("segment terminator %q equals the component separator", d.Segment)}
	case isAlnum(d.Segment):
		return res, false, &SyntaxError{Offset: offset, Code: CodeDelimiters, TA1: "004",
			Msg: fmt.Sprintf("segment terminator %q is a letter or digit", d.Segment)}
	}
	r := d.Repetition
	d.Repetition = 0
	if res.version < "00402" {
		// Before 4020 ISA11 is the standards identifier "U", not a separator.
		if r != 'U' {
			res.notes = append(res.notes, Finding{Severity: Error, Code: CodeISAValue, Offset: offset,
				SegmentID: "ISA", Element: 11, TA1: "016", Value: string(r),
				Message: fmt.Sprintf("ISA11 %q: a %s interchange needs the standards identifier \"U\" (repetition separators start with 00402)", r, res.version)})
		}
		return res, false, nil
	}
	switch {
	case isAlnum(r) || r == ' ':
		res.notes = append(res.notes, Finding{Severity: Warning, Code: CodeRepetitionIgnored, Offset: offset,
			SegmentID: "ISA", Element: 11,
			Message: fmt.Sprintf("ISA11 %q in a %s interchange cannot be a repetition separator; repetitions are not split", r, res.version)})
	case r == d.Component:
		res.notes = append(res.notes, Finding{Severity: Warning, Code: CodeRepetitionIgnored, Offset: offset,
			SegmentID: "ISA", Element: 11,
			Message: fmt.Sprintf("ISA11 %q equals the component separator ISA16; components are split, repetitions are not", r)})
	case r == d.Element || r == d.Segment:
		res.notes = append(res.notes, Finding{Severity: Error, Code: CodeISAValue, Offset: offset,
			SegmentID: "ISA", Element: 11, TA1: "016",
			Message: fmt.Sprintf("ISA11 %q equals another delimiter", r)})
	default:
		d.Repetition = r
	}
	return res, false, nil
}

// SyntaxError reports input that cannot be read as X12 at all.
type SyntaxError struct {
	Offset int64
	Line   int
	Column int
	Code   Code
	TA1    string // TA1 note code, when the error is about an ISA
	Msg    string
}

func (e *SyntaxError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("x12: offset %d (line %d col %d): %s", e.Offset, e.Line, e.Column, e.Msg)
	}
	return fmt.Sprintf("x12: offset %d: %s", e.Offset, e.Msg)
}

// Finding renders the error as a Fatal finding.
func (e *SyntaxError) Finding() Finding {
	ta1 := e.TA1
	if ta1 == "" && (e.Code == CodeISAMalformed) {
		ta1 = "022"
	}
	return Finding{Severity: Fatal, Code: e.Code, Offset: e.Offset, Line: e.Line, Column: e.Column,
		TA1: ta1, Message: e.Msg}
}

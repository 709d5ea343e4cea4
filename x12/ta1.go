package x12

import "fmt"

// checkTA1 checks a TA1 segment carried in an interchange (an interchange
// acknowledgment received from a partner): TA101 control number (9 digits),
// TA102 date (YYMMDD), TA103 time (HHMM), TA104 A/E/R, TA105 note code.
func (v *validator) checkTA1(seg *Segment) {
	bad := func(n int, why string) {
		v.file(Finding{Severity: Error, Code: CodeTA1Segment, Offset: seg.Offset(), SegmentID: "TA1", Element: n,
			TA1: "024", Value: clipValue(seg.Element(n)), Message: fmt.Sprintf("TA1%02d %q: %s", n, seg.Element(n), why)})
	}
	if seg.Len() > 5 {
		v.file(Finding{Severity: Error, Code: CodeTA1Segment, Offset: seg.Offset(), SegmentID: "TA1", Element: seg.Len(),
			TA1: "024", Message: fmt.Sprintf("TA1 has %d elements, at most 5 are defined", seg.Len())})
	}
	if !allDigits(seg.Element(1), 9, 9) {
		bad(1, "interchange control number must be 9 digits")
	}
	if !validYYMMDD(seg.Element(2)) {
		bad(2, "not a date YYMMDD")
	}
	if !validHHMM(seg.Element(3)) {
		bad(3, "not a time HHMM")
	}
	if !oneOf(seg.Element(4), "A", "E", "R") {
		bad(4, "acknowledgment code must be A, E or R")
	}
	if !allDigits(seg.Element(5), 3, 3) {
		bad(5, "note code must be 3 digits")
	}
}

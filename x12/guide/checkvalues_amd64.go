package guide

// checkSegment is elementsOK's check of the scanned segment f (fast)
// against q, the checks of its guide segment: segmentOK when
// checkElements finds nothing wrong, segmentBad when it will report
// something, segmentUnsure for a value it does not check itself (a date or
// time as an element type, codes without a collision-free table or longer
// than 7 bytes, a check that is not quick, more than 62 elements), which
// elementsOKGo then decides, and segmentDates when only the date pairs are
// left (a format other than D8, 29 February, two pairs), for datesOK.
//
// It is in checkvalues_amd64.s: one loop over the values, each element's
// or each of a composite's components, checked by type (text, decimal,
// integer), length and code with one probe, then the required elements
// and the syntax rules. In Go, the calls of such a loop and the spills
// around them cost more than its checks (see elementsOKGo, which the other
// architectures use).
//
//go:noescape
func checkSegment(f *fields, q *qseg, csep byte) uint8

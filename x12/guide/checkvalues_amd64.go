package guide

// checkValues reports whether checkElements finds nothing wrong with the
// values of elements 1 to n of a scanned segment — buf holds its bytes and
// those after them, span their spans (fields.span), qs the checks of its
// n elements (qcheck, layout checked by TestQcheckLayout); special has bit
// min(p, 63) set for an element p holding a component or repetition
// separator (csep, or rep's bits) — and returns the positions of the values
// not empty (present, as elementsOK builds it). False may also mean "not
// sure": a date or time, codes without a collision-free table or longer
// than 7 bytes, a check that is not quick; valuesOK then decides.
//
// It is in checkvalues_amd64.s: one loop over the values, each element's
// or each of a composite's components, checked by type (text, decimal,
// integer), length and code with one probe.
//
//go:noescape
func checkValues(buf []byte, span *[maxFields + 1 + 16]uint32, n int, qs *qcheck, csep byte, special, rep uint64) (present uint64, ok bool)

package guide

import "github.com/clearhouse/clearhouse/x12"

// scanSSE is in fields_amd64.s: it reads raw into f.span, f.n, f.compEl,
// f.repEl and f.fast with f.vec's constants (raw is f.raw, set by the
// caller: the assembly does not write pointers).
//
//go:noescape
func scanSSE(raw []byte, f *fields) bool

// scan reads seg's bytes into f, marking the elements that hold d's
// component or repetition separator (d are the set's delimiters, which the
// element checks use); it returns false, leaving f to seg's accessors, for
// a segment it does not vouch for. On amd64 it reads 16 bytes a round
// with SSE2 (scanSSE): the byte at a time scanBytes cost as much as the
// rest of a segment's element checks.
func (f *fields) scan(seg *x12.Segment, d x12.Delimiters) bool {
	// The common case in few enough instructions that its spills are
	// few: delimiters as last time, and readable bytes after the segment.
	sd, raw := seg.Delimiters(), seg.Unsplit()
	if sd.Element != f.vecE || d.Component != f.vecC || d.Repetition != f.vecR || !f.vecSSE || cap(raw)-len(raw) < 16 {
		return f.scanSlow(seg, d)
	}
	if f.seg != seg { // the reader's one Segment, nearly always: no store
		f.seg = seg
	}
	f.csep, f.raw = sd.Component, raw
	return scanSSE(raw, f)
}

// scanSlow is scan for new delimiters, delimiters scanSSE does not read,
// or a segment without 16 readable bytes after it.
func (f *fields) scanSlow(seg *x12.Segment, d x12.Delimiters) bool {
	sd := seg.Delimiters()
	if sd.Element != f.vecE || d.Component != f.vecC || d.Repetition != f.vecR {
		f.setVec(sd.Element, d.Component, d.Repetition)
	}
	if !f.vecSSE {
		return f.scanBytes(seg, d) // the table sorts out unusual delimiters
	}
	f.seg, f.csep = seg, sd.Component
	raw := seg.Unsplit()
	if cap(raw)-len(raw) < 16 {
		// The last bytes of the reader's buffer, or a segment built
		// alone: scanSSE reads whole blocks, and elementsOK reads short
		// values as words, so both want readable bytes after the last.
		raw = f.padded(raw)
	}
	f.raw = raw
	return scanSSE(raw, f)
}

// setVec makes f.vec scanSSE's constants for element separator e and
// the set's component and repetition separators c and r, or sets vecSSE
// false for delimiters it does not read.
func (f *fields) setVec(e, c, r byte) {
	f.vecE, f.vecC, f.vecR = e, c, r
	f.vecSSE = !(odd(e) || odd(c) || odd(r) || c == e || r == e || c == r || c == 0 || r == 0)
	for i, b := range [5]byte{e, c, r, 0x1f, 0x7f} {
		for j := range f.vec[i] {
			f.vec[i][j] = b
		}
	}
}

// odd reports whether a delimiter is a line break, which x12.Segment
// removes from hard-wrapped segments unless it is the element separator.
func odd(b byte) bool { return b == '\r' || b == '\n' }

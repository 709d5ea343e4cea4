package guide

import "github.com/clearhouse/clearhouse/x12"

// scanSSE is in fields_amd64.s.
//
//go:noescape
func scanSSE(raw []byte, e, c, r byte, span *[maxFields + 1]uint32) (k int, comp, rep uint64, ok bool)

// scan reads seg's bytes into f, marking the elements that hold d's
// component or repetition separator (d are the set's delimiters, which the
// element checks use); it returns false, leaving f to seg's accessors, for
// a segment it does not vouch for. On amd64 it reads 16 bytes a round
// with SSE2 (scanSSE): the byte at a time scanBytes cost as much as the
// rest of a segment's element checks.
func (f *fields) scan(seg *x12.Segment, d x12.Delimiters) bool {
	e, c, r := seg.Delimiters().Element, d.Component, d.Repetition
	if odd(e) || odd(c) || odd(r) || c == e || r == e || c == r || c == 0 || r == 0 {
		return f.scanBytes(seg, d) // the table sorts out unusual delimiters
	}
	f.use(seg)
	raw := seg.Unsplit()
	if len(raw) >= 1<<16 {
		return false
	}
	if cap(raw)-len(raw) < 16 {
		// The last bytes of the reader's buffer, or a segment built
		// alone: scanSSE reads whole blocks, and elementsOK reads short
		// values as words, so both want readable bytes after the last.
		f.tmp = append(append(f.tmp[:0], raw...), make([]byte, 16)...)
		raw = f.tmp[:len(raw)]
	}
	k, comp, rep, ok := scanSSE(raw, e, c, r, &f.span)
	return ok && f.done(raw, k, comp, rep)
}

// odd reports whether a delimiter is a line break, which x12.Segment
// removes from hard-wrapped segments unless it is the element separator.
func odd(b byte) bool { return b == '\r' || b == '\n' }

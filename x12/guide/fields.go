package guide

import (
	"github.com/clearhouse/clearhouse/x12"
)

// fields is the validator's view of the elements of the segment it is
// checking. The validator scans a segment's bytes once itself (scan): one
// pass, eight bytes at a time, that finds the element separators and marks
// the elements holding a component or repetition separator, without the
// slice headers of x12.Segment's split. A segment the scan does not vouch
// for — a control character or line break anywhere (hard-wrapped files),
// an id padded with blanks, more than maxFields elements — is read through
// x12.Segment's accessors instead (fast false), as is every segment of an
// encoder, which has split it already.
type fields struct {
	seg  *x12.Segment
	raw  []byte
	fast bool
	csep byte // the segment's component separator
	n    int  // elements after the id
	// compEl and repEl have bit k set when element k holds a component or
	// repetition separator (elements past 63 share bit 63).
	compEl, repEl uint64
	// span[k] is where element k (0 is the id) lies in raw: it is
	// raw[span[k]&0xffff : span[k]>>16]. Segments scan reads are shorter
	// than 64 KiB. scanSSE may write 16 entries past the last element it
	// allows before it gives up (it counts once a block).
	span [maxFields + 1 + 16]uint32
	// tbl holds scan's byte classes for element separator tblE and set
	// delimiters tblD.
	tbl   [256]uint8
	tblE  byte
	tblD  x12.Delimiters
	tblOK bool
	tmp   []byte // a copy of a segment at the end of its buffer, for scan
	// vec holds scanSSE's constants for the element separator vecE and
	// the set's component and repetition separators vecC and vecR, 16
	// times each, then 0x1f and 0x7f; vecSSE is false for delimiters
	// scanSSE does not read (see scan), as the zero ones.
	vec              [5][16]byte
	vecE, vecC, vecR byte
	vecSSE           bool
}

// maxFields is the most elements a segment read by scan may have (X12
// segments have at most a few dozen): one less than a power of two, so el
// can mask an index into span instead of testing it.
const maxFields = 127

// use makes f read seg through its own accessors.
func (f *fields) use(seg *x12.Segment) {
	f.seg, f.fast, f.n, f.csep = seg, false, -1, seg.Delimiters().Component
}

// el returns element i (0: the segment id), nil past the last one: what
// seg.ElementBytes(i) returns.
func (f *fields) el(i int) []byte {
	if i <= f.n { // n is -1 unless fast; i is never negative
		p := f.span[i&maxFields]
		return f.raw[p&0xffff : p>>16]
	}
	return f.elSlow(i)
}

// elSlow is el past the last element, or for a segment scan did not read.
func (f *fields) elSlow(i int) []byte {
	if f.fast {
		return nil
	}
	return f.seg.ElementBytes(i)
}

// Byte classes of scan's table.
const (
	byteSep  = 1 + iota // the element separator
	byteComp            // the component separator
	byteRep             // the repetition separator
	byteBad             // a control character or DEL
)

// table returns the byte classes of scan for an element separator e and
// the set's delimiters d (cached: a set's segments share them).
func (f *fields) table(e byte, d x12.Delimiters) *[256]uint8 {
	if f.tblOK && f.tblE == e && f.tblD == d {
		return &f.tbl
	}
	f.tbl = [256]uint8{}
	for c := 0; c < 0x20; c++ {
		f.tbl[c] = byteBad
	}
	f.tbl[0x7f] = byteBad
	// The separators last: one may be a control character (GS-separated
	// files), and then it is read as the separator.
	f.tbl[d.Repetition] = byteRep
	f.tbl[d.Component] = byteComp
	// No such separator: a NUL is data. And x12.Segment drops the line
	// breaks of hard-wrapped segments unless one is the element separator.
	f.tbl[0], f.tbl['\r'], f.tbl['\n'] = byteBad, byteBad, byteBad
	f.tbl[e] = byteSep
	f.tblOK, f.tblE, f.tblD = true, e, d
	return &f.tbl
}

// scanBytes is scan a byte at a time, with a table of byte classes: the
// scan of other architectures and of unusual delimiters, and the reference
// of scanSSE's test.
func (f *fields) scanBytes(seg *x12.Segment, d x12.Delimiters) bool {
	f.use(seg)
	raw := seg.Unsplit()
	if len(raw) >= 1<<16 {
		return false
	}
	if cap(raw)-len(raw) < 16 {
		raw = f.padded(raw)
	}
	tbl := f.table(seg.Delimiters().Element, d)
	var comp, rep uint64
	k, start := 0, 0 // elements ended so far (the id first); start of the next
	for i, c := range raw {
		cl := tbl[c]
		if cl == 0 {
			continue
		}
		switch cl {
		case byteSep:
			if k >= maxFields {
				return false
			}
			f.span[k] = uint32(start) | uint32(i)<<16
			k++
			start = i + 1
		case byteComp:
			comp |= 1 << min(k, 63)
		case byteRep:
			rep |= 1 << min(k, 63)
		default:
			return false // a control character, CR or LF among them
		}
	}
	f.span[k] = uint32(start) | uint32(len(raw))<<16
	return f.done(raw, k, comp, rep)
}

// padded returns a copy of raw with 16 readable bytes after it (in f.tmp):
// the element checks read short values as words, so a scanned segment
// (fast) has such bytes after it always (checkSegment does not test it).
func (f *fields) padded(raw []byte) []byte {
	f.tmp = append(append(f.tmp[:0], raw...), make([]byte, 16)...)
	return f.tmp[:len(raw)]
}

// done completes a scan of raw that found k element separators (f.span
// holds its k+1 elements).
func (f *fields) done(raw []byte, k int, comp, rep uint64) bool {
	if id := f.span[0] >> 16; id > 0 && raw[id-1] == ' ' {
		return false // a blank-padded id, which x12.Segment trims
	}
	f.raw, f.n, f.compEl, f.repEl, f.fast = raw, k, comp, rep, true
	return true
}

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
	// b[k+1] is the offset in raw of the separator ending element k (0 is
	// the id), b[0] is -1 and b[n+1] is len(raw): element k is
	// raw[b[k]+1 : b[k+1]].
	b [maxFields + 2]int32
	// tbl holds scan's byte classes for element separator tblE and set
	// delimiters tblD.
	tbl   [256]uint8
	tblE  byte
	tblD  x12.Delimiters
	tblOK bool
}

// maxFields is the most elements a segment read by scan may have; X12
// segments have at most a few dozen.
const maxFields = 126

// use makes f read seg through its own accessors.
func (f *fields) use(seg *x12.Segment) {
	f.seg, f.fast, f.csep = seg, false, seg.Delimiters().Component
}

// el returns element i (0: the segment id), nil past the last one: what
// seg.ElementBytes(i) returns.
func (f *fields) el(i int) []byte {
	if !f.fast {
		return f.seg.ElementBytes(i)
	}
	if uint(i) > uint(f.n) {
		return nil
	}
	return f.raw[f.b[i]+1 : f.b[i+1]]
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

// scan reads seg's bytes into f, marking the elements that hold d's
// component or repetition separator (d are the set's delimiters, which the
// element checks use); it returns false, leaving f to seg's accessors, for
// a segment it does not vouch for.
func (f *fields) scan(seg *x12.Segment, d x12.Delimiters) bool {
	f.use(seg)
	raw := seg.Unsplit()
	if len(raw) > 1<<30 {
		return false
	}
	tbl := f.table(seg.Delimiters().Element, d)
	var comp, rep uint64
	k := 0 // elements ended so far (the id first)
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
			k++
			f.b[k] = int32(i)
		case byteComp:
			comp |= 1 << min(k, 63)
		case byteRep:
			rep |= 1 << min(k, 63)
		default:
			return false // a control character, CR or LF among them
		}
	}
	f.b[0], f.b[k+1] = -1, int32(len(raw))
	if id := f.b[1]; id > 0 && raw[id-1] == ' ' {
		return false // a blank-padded id, which x12.Segment trims
	}
	f.raw, f.n, f.compEl, f.repEl, f.fast = raw, k, comp, rep, true
	return true
}

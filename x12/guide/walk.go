package guide

import (
	"encoding/binary"

	"github.com/clearhouse/clearhouse/x12"
)

// Step says where a segment landed in the guide, for callers that follow the
// loop structure (the Guide JSON encoder):
//   - Closed loops ended before the segment (a repeated loop counts: its
//     previous iteration is closed and Opened is the same loop again);
//   - Opened is the loop the segment starts, if any;
//   - Segment is the guide segment it matched, nil when it matched nothing;
//   - Depth is the number of open loops after the step (the transaction set
//     itself is depth 1).
type Step struct {
	Closed  int
	Opened  *Loop
	Segment *Segment
	Depth   int
	// OutOfOrder is set when the segment matched a sibling that should have
	// come earlier.
	OutOfOrder bool
	child      int32 // index of the matched child in its loop
}

// frame is one open loop instance.
type frame struct {
	loop   *Loop
	idx    int32   // child matched last (0: the loop's first segment)
	counts []int32 // uses (segments) or iterations (loops) per child
	// posOf and offOf hold the position and offset of each child's last
	// segment: a missing child is reported at the last segment before it,
	// as pyx12 does.
	posOf []int32
	offOf []int64
	// HL bookkeeping of loops that start with HL.
	hlID     [20]byte
	hlIDLen  uint8
	hlChild  byte // HL04 of this level: '0', '1' or 0 when absent
	hlKids   bool // a child HL level was seen
	hlPos    int
	hlOffset int64
	startPos int // position and offset of the loop's first segment
	startOff int64
	// rule state, one bit per rule of the loop.
	cond, seen, hits uint64
	sums             []sumState
	// shape numbers the loops and children matched last of this frame and
	// every frame under it (place.go), valid for the frames below
	// walker.known only: it is this walker's number, meaningless in
	// another's (a copy made by Save is renumbered on Resume).
	shape uint32
}

// walker follows a transaction set through its guide's loop tree: the part
// of validation that decides, for every segment, which loop and which guide
// segment it belongs to. It allocates only while its stack grows.
type walker struct {
	g       *Guide
	stack   []frame
	depth   int // open frames: stack[:depth]
	pos     int // position of the current segment in the set (ST = 1)
	lastHL  int // last HL01 seen, for the sequence check
	onClose func(f *frame)
	onSkip  func(f *frame, child int) // a required child never seen, at close
	// last is the result of the last step, filled in place: returning a
	// Step by value cost a struct copy (and a stalled load) per segment.
	last Step
	// f holds the elements of the segment being placed.
	f fields
	// known is how many frames, from the bottom, have their shape, shape
	// the innermost one's when known is depth; memo is the placement memo
	// (place.go), nil when off.
	known  int
	shape  uint32
	memo   *placeMemo
	noMemo bool // the reference for the memo's tests: every segment located
	// qn, qpos and qcomp record the qualifiers locate read: qn is 0 for
	// none, 1 for one element (qpos, qcomp) only, 2 for more.
	qn          uint8
	qpos, qcomp int
	cand        *candidate // the candidate of the last step's segment
}

func (w *walker) reset(g *Guide) {
	w.g = g
	w.depth = 0
	w.pos = 0
	w.lastHL = 0
	w.known = 0
	if w.memo == nil && !w.noMemo {
		w.memo = newPlaceMemo()
	}
}

// push opens a frame for loop l whose first segment is at the current position.
func (w *walker) push(l *Loop, off int64) *frame {
	if w.depth == len(w.stack) {
		w.stack = append(w.stack, frame{})
	}
	f := &w.stack[w.depth]
	w.depth++
	if f.loop != l {
		// A frame of l (pushed, or copied by Resume) has its slices
		// sized for l already: most pushes open the loop the frame held.
		f.size(l)
	}
	f.open(l, w.pos, off)
	return f
}

// open makes f a new instance of loop l, its slices sized for l, whose
// first segment is at position pos and offset off.
func (f *frame) open(l *Loop, pos int, off int64) {
	clear(f.counts)
	if len(f.sums) > 0 {
		clear(f.sums)
	}
	f.loop, f.idx = l, 0
	f.counts[0] = 1
	f.posOf[0], f.offOf[0] = int32(pos), off
	f.hlIDLen, f.hlChild, f.hlKids = 0, 0, false
	f.startPos, f.startOff = pos, off
	f.cond, f.seen, f.hits = 0, 0, 0
}

// size gives f's slices the lengths of loop l's frames.
func (f *frame) size(l *Loop) {
	n := len(l.Children)
	if cap(f.counts) < n {
		f.counts = make([]int32, n)
		f.posOf = make([]int32, n)
		f.offOf = make([]int64, n)
	} else {
		f.counts = f.counts[:n]
		f.posOf = f.posOf[:n]
		f.offOf = f.offOf[:n]
	}
	if cap(f.sums) < l.sums {
		f.sums = make([]sumState, l.sums)
	} else {
		f.sums = f.sums[:l.sums]
	}
}

// before returns the position and offset of the last segment seen before
// child i of frame f (the loop's first segment at least).
func (f *frame) before(i int) (int, int64) {
	for j := i - 1; j > 0; j-- {
		if f.counts[j] > 0 {
			return int(f.posOf[j]), f.offOf[j]
		}
	}
	return int(f.posOf[0]), f.offOf[0]
}

// pop closes the innermost frame.
func (w *walker) pop() {
	f := &w.stack[w.depth-1]
	for _, i := range f.loop.required {
		if f.counts[i] == 0 && w.onSkip != nil {
			w.onSkip(f, int(i))
		}
	}
	if w.onClose != nil {
		w.onClose(f)
	}
	w.depth--
	w.known = min(w.known, w.depth)
}

// top returns the innermost open frame.
func (w *walker) top() *frame { return &w.stack[w.depth-1] }

// locate finds where a segment belongs: the frame depth and child index.
// In order of preference, innermost loop first at each step: a sibling
// still ahead with the segment's id and qualifier; one already passed (out
// of order) with id and qualifier; then, so that a wrong qualifier is
// reported as a bad code rather than an unknown segment, a sibling ahead
// and then one passed with the id alone.
func (w *walker) locate(seg *x12.Segment) (depth int, child *candidate, outOfOrder bool) {
	var id []byte
	if w.f.n >= 0 { // w.f.el(0), inline
		id = w.f.raw[:w.f.span[0]>>16]
	} else {
		id = w.f.elSlow(0)
	}
	w.qn = 0
	num := w.g.ids.num(id)
	if num == 0 {
		return -1, nil, false // an id the guide does not use anywhere
	}
	// The common case first: a sibling ahead in the innermost loop.
	f := &w.stack[w.depth-1]
	if row := f.loop.slots[num]; row != 0 {
		kids := f.loop.index.kids[row-1]
		for i := range kids {
			c := &kids[i]
			if c.child == 0 || c.child < f.idx {
				continue
			}
			// matches, inline for its two common cases: no qualifier, and
			// one code compared as one word with the scanned element.
			m := &c.match
			if m.pos == 0 {
				return w.depth - 1, c, false
			}
			if m.one != 0 && m.comp == 0 && m.pos <= w.f.n {
				w.read(m)
				p := w.f.span[m.pos&maxFields]
				lo, n := int(p&0xffff), int(p>>16)-int(p&0xffff)
				if uint(n-1) < 7 && cap(w.f.raw)-lo >= 8 {
					if binary.LittleEndian.Uint64(w.f.raw[lo:lo+8])&lowBytes[n&7]|uint64(n)<<56 == m.one {
						return w.depth - 1, c, false
					}
					continue
				}
			}
			if w.matches(m) {
				return w.depth - 1, c, false
			}
		}
	}
	for pass := 0; pass < 4; pass++ {
		behind, anyQual := pass&1 == 1, pass >= 2
		for d := w.depth - 1; d >= 0; d-- {
			f := &w.stack[d]
			row := f.loop.slots[num]
			if row == 0 {
				continue
			}
			kids := f.loop.index.kids[row-1]
			for i := range kids {
				c := &kids[i]
				// A loop's first segment starts a new iteration one level up.
				if c.child == 0 || (c.child < f.idx) != behind {
					continue
				}
				if anyQual || w.matches(&c.match) {
					return d, c, behind
				}
			}
		}
	}
	return -1, nil, false
}

// step moves the walker to a segment (not the set's ST) and says where it
// landed. The result is valid until the next step.
func (w *walker) step(seg *x12.Segment) *Step {
	w.pos++
	st := &w.last
	d, cand, ooo := w.locate(seg)
	if d < 0 {
		*st = Step{Depth: w.depth}
		return st
	}
	closed := 0
	for w.depth-1 > d {
		w.pop()
		closed++
	}
	f := w.top()
	c := cand.child
	if !ooo {
		f.idx = c
	}
	if !ooo {
		w.known = min(w.known, d) // its shape changes
	}
	f.counts[c]++
	f.posOf[c], f.offOf[c] = int32(w.pos), seg.Offset()
	st.Closed, st.OutOfOrder, st.child = closed, ooo, c
	st.Opened, st.Segment = cand.loop, cand.first
	w.cand = cand
	if cand.loop != nil {
		w.push(cand.loop, seg.Offset())
	}
	st.Depth = w.depth
	return st
}

// matches reports whether the segment being placed has one of the
// matcher's qualifier codes (or the matcher has no qualifier).
func (w *walker) matches(m *matcher) bool {
	if m.pos == 0 {
		return true
	}
	w.read(m)
	f := &w.f
	var v []byte
	if m.pos <= f.n { // f.el, inline
		p := f.span[m.pos&maxFields]
		v = f.raw[p&0xffff : p>>16]
	} else {
		v = f.elSlow(m.pos)
	}
	if m.comp > 0 {
		v = nthComponent(v, f.csep, m.comp)
	}
	if n := len(v); m.one != 0 && uint(n-1) < 7 && cap(v) >= 8 {
		// One qualifier code (NM1*85, REF*6R...): one comparison.
		return binary.LittleEndian.Uint64(v[:8])&lowBytes[n&7]|uint64(n)<<56 == m.one
	}
	return m.codes.has(v)
}

// read records that locate reads the qualifier of m: a placement that
// read one element only is the same for every segment with the same value
// there (place.go).
func (w *walker) read(m *matcher) {
	switch {
	case w.qn == 0:
		w.qn, w.qpos, w.qcomp = 1, m.pos, m.comp
	case w.qpos != m.pos || w.qcomp != m.comp:
		w.qn = 2
	}
}

// nthComponent returns component c (1-based) of an element, without allocating.
func nthComponent(b []byte, sep byte, c int) []byte {
	for i := 1; i < c; i++ {
		j := indexByte(b, sep)
		if j < 0 {
			return nil
		}
		b = b[j+1:]
	}
	if j := indexByte(b, sep); j >= 0 {
		return b[:j]
	}
	return b
}

// indexByte is bytes.IndexByte for the short values of X12 elements, where
// a plain loop beats the call.
func indexByte(b []byte, c byte) int {
	for i, x := range b {
		if x == c {
			return i
		}
	}
	return -1
}

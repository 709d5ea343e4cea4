package guide

import (
	"encoding/binary"
	"math/bits"

	"github.com/clearhouse/clearhouse/x12"
)

// The placement memo. Where a segment lands (walker.locate, then the loops
// it closes and opens) depends only on the open loops with the child each
// matched last, the segment's id and, when locate read one, the value of
// one qualifier element. Real files repeat a few such transitions for
// every claim or payment, so the Validator remembers each outcome it
// computed in a small direct-mapped table keyed by those three, and a
// segment that finds its key there is placed without locate: the frames
// it closes are closed (the full pop when a loop has rules, HL bookkeeping
// or a required child missing), the child's count and position set, the
// loop it opens pushed, and place's checks made from what the entry
// copied of the guide. Anything the entry does not vouch for — no entry,
// a qualifier longer than seven bytes, a segment out of order, a locate
// that read two different elements — takes the full path, which fills the
// entry for the next time.
//
// The open loops are named by a shape: each frame's shape numbers (the
// shape of the frame under it, its loop, the child it matched last), so
// the innermost frame's shape stands for the whole stack. Shapes are
// numbered per walker as they are met (a map, read on the full path only)
// and renumbered from scratch when there are more than maxShapes.

const (
	memoBits  = 10
	memoSize  = 1 << memoBits
	maxShapes = 1 << 14
	// noWord is no packed value: the top byte of a packed one is its
	// length, at most 7.
	noWord = ^uint64(0)
)

// placeMemo is a walker's memo: the entries and the shapes' numbers.
type placeMemo struct {
	e      [memoSize]placeEntry
	shapes map[shapeKey]uint32
	gen    uint32 // incremented when the shapes are renumbered
	limit  int    // shapes numbered at most (maxShapes; less in tests)
	misses int    // segments placed by placeFull (for tests)
}

type shapeKey struct {
	under uint32 // the shape of the frame under, 0 for the set's frame
	loop  *Loop
	idx   int32
}

// placeEntry is one remembered placement.
type placeEntry struct {
	shape uint32 // key: the innermost open frame's shape
	// d is the frame that takes the segment (the frames above it close),
	// qpos and qcomp the qualifier element (0: none read).
	d, qpos, qcomp uint8
	// flags: placeHL (the segment opens an HL loop: checkHL), placeNotUsed.
	flags uint8
	id    uint64 // key: the segment id, packed (word)
	qual  uint64 // key: the qualifier's value, packed, when qpos != 0
	cand  *candidate
	// shapeD is frame d's shape once it took the segment, shapePush the
	// shape of the loop it opens.
	shapeD, shapePush uint32
	// max is the repeat limit place checks, the loop's the segment opens
	// or else the segment's (MaxInt32: none).
	max int32
	// full has bit i set when frame i, if it closes, has rules to check:
	// the full pop.
	full uint16
	// reopen is set when the segment closes one frame, without rules or
	// HL, and opens the same loop again (LX after a service line).
	reopen bool
}

const (
	placeHL = 1 << iota
	placeNotUsed
)

func newPlaceMemo() *placeMemo {
	return &placeMemo{shapes: make(map[shapeKey]uint32), limit: maxShapes}
}

// placeSlot is the entry index of a shape and a packed id.
func placeSlot(shape uint32, id uint64) uint32 {
	return (shape*0x9E3779B1 ^ uint32(id)) * 0x85EBCA6B >> (32 - memoBits)
}

// reshape numbers the shapes of the frames from known up.
func (w *walker) reshape() {
	m := w.memo
	if len(m.shapes)+w.depth > m.limit {
		clear(m.shapes)
		m.e = [memoSize]placeEntry{}
		m.gen++
		w.known = 0
	}
	for i := w.known; i < w.depth; i++ {
		f := &w.stack[i]
		k := shapeKey{loop: f.loop, idx: f.idx}
		if i > 0 {
			k.under = w.stack[i-1].shape
		}
		s, ok := m.shapes[k]
		if !ok {
			s = uint32(len(m.shapes) + 1)
			m.shapes[k] = s
		}
		f.shape = s
	}
	w.known = w.depth
	if w.depth > 0 {
		w.shape = w.stack[w.depth-1].shape
	}
}

// place is structure for a segment whose elements v.f holds: as the
// memo's entry says when there is one for it (what placeFull would do,
// without locate), else placeFull by placeMiss.
func (v *Validator) place(seg *x12.Segment) *Step {
	w := &v.walker
	m := w.memo
	if m == nil {
		return v.placeFull(seg)
	}
	if w.known != w.depth {
		w.reshape()
	}
	// w.f.word(0) and w.f.qualWord, inline for the common case: the id
	// starts the segment.
	fl := &w.f
	id := noWord
	if n := int(fl.span[0] >> 16); fl.n >= 0 && n < 8 && cap(fl.raw) >= 8 {
		id = binary.LittleEndian.Uint64(fl.raw[:8])&lowBytes[n&7] | uint64(n)<<56
	} else if fl.n < 0 {
		id = fl.word(0)
	}
	shape := w.shape
	e := &m.e[placeSlot(shape, id)]
	if e.shape != shape || e.id != id {
		return v.placeMiss(seg, e, id)
	}
	if q := int(e.qpos); q != 0 {
		qual := noWord
		if q <= fl.n && e.qcomp <= 1 {
			p := fl.span[q&maxFields]
			if lo, n := int(p&0xffff), int(p>>16)-int(p&0xffff); cap(fl.raw)-lo >= 8 {
				x := binary.LittleEndian.Uint64(fl.raw[lo : lo+8])
				if e.qcomp == 1 { // the first component: up to a separator
					n = min(n, bits.TrailingZeros64(zeroBytes(x^uint64(fl.csep)*eachByte))>>3)
				}
				if uint(n) < 8 {
					qual = x&lowBytes[n&7] | uint64(n)<<56
				}
			}
		} else {
			qual = fl.qualWord(q, int(e.qcomp))
		}
		if qual != e.qual {
			return v.placeMiss(seg, e, id)
		}
	}

	w.pos++
	closed := 0
	d := int(e.d)
	if w.depth-1 > d {
		if e.reopen && w.stack[d+1].requiredSeen() {
			closed = -1 // frame d+1 closes with nothing to report and reopens below
		} else {
			closed = v.closeTo(d, e.full)
		}
	}
	f := &w.stack[d]
	cand := e.cand
	c := cand.child
	f.idx, f.shape = c, e.shapeD
	w.shape = e.shapeD
	count := &f.counts[c]
	*count++
	n := *count
	f.posOf[c], f.offOf[c] = int32(w.pos), seg.Offset()
	st := &w.last
	st.Closed, st.OutOfOrder, st.child = closed, false, c
	st.Opened, st.Segment = cand.loop, cand.first
	v.seg, v.loop = seg, f.loop
	if cand.loop != nil {
		if closed < 0 {
			// The frame closed held this loop: open it again in place.
			nf := &w.stack[d+1]
			nf.open(cand.loop, w.pos, seg.Offset())
			nf.shape = e.shapePush
			st.Closed = 1
		} else {
			w.push(cand.loop, seg.Offset()).shape = e.shapePush
		}
		w.shape = e.shapePush
		v.loop = cand.loop
	}
	w.known = w.depth
	st.Depth = w.depth
	if n > e.max {
		v.overMax(st, int(n))
	}
	if e.flags != 0 {
		if e.flags&placeHL != 0 {
			v.checkHL(seg)
		}
		if e.flags&placeNotUsed != 0 {
			v.notUsed(st.Segment)
		}
	}
	return st
}

// closeTo closes the frames above frame d for place, as the walker's step
// does: the full pop for a frame whose bit is set in full (its loop has
// rules), that misses a required child or whose HL04 promised children
// never seen; the others have nothing to do or report. It returns how many
// closed.
func (v *Validator) closeTo(d int, full uint16) int {
	w := &v.walker
	top := w.depth - 1
	for k := top; k > d; k-- {
		f := &w.stack[k]
		if full>>k&1 != 0 || !f.requiredSeen() || f.hlChild == '1' && !f.hlKids && f.loop.hasHL {
			w.depth = k + 1
			w.pop()
		}
	}
	w.depth = d + 1
	return top - d
}

// requiredSeen reports whether every required child of f's loop was seen.
func (f *frame) requiredSeen() bool {
	for _, i := range f.loop.required {
		if f.counts[i] == 0 {
			return false
		}
	}
	return true
}

// placeMiss places a segment the memo has no entry for, and fills entry e
// with the outcome when it is one the memo can repeat.
func (v *Validator) placeMiss(seg *x12.Segment, e *placeEntry, id uint64) *Step {
	w := &v.walker
	m := w.memo
	gen, depth, shape := m.gen, w.depth, w.shape
	m.misses++
	var full uint16
	var frames [16]openFrame
	for i := range min(depth, 16) {
		l := w.stack[i].loop
		if len(l.rules) > 0 || len(l.nested) > 0 {
			full |= 1 << i
		}
		frames[i] = openFrame{l, w.stack[i].idx}
	}
	st := v.placeFull(seg)
	w.reshape()
	if st.Segment == nil || st.OutOfOrder || id == noWord || depth > 16 || m.gen != gen {
		return st // not a placement the memo can repeat (or shape is a number of before)
	}
	if w.qn > 0 && w.anyQualifier(frames[:depth], depth-1-st.Closed, w.cand) {
		w.qn = 0 // placed alike whatever the qualifier
	}
	if w.qn > 1 {
		return st
	}
	qual := uint64(0)
	if w.qn == 1 {
		if w.qpos > 255 || w.qcomp > 255 {
			return st
		}
		if qual = w.f.qualWord(w.qpos, w.qcomp); qual == noWord {
			return st
		}
	}
	d := depth - 1 - st.Closed
	ne := placeEntry{shape: shape, id: id, d: uint8(d), cand: w.cand, full: full, shapeD: w.stack[d].shape}
	if w.qn == 1 {
		ne.qpos, ne.qcomp, ne.qual = uint8(w.qpos), uint8(w.qcomp), qual
	}
	max := st.Segment.Max
	if st.Opened != nil {
		ne.shapePush = w.stack[d+1].shape
		ne.reopen = st.Closed == 1 && frames[d+1].loop == st.Opened && full>>(d+1)&1 == 0 && !st.Opened.hasHL
		max = st.Opened.Max
		if st.Opened.hasHL {
			ne.flags |= placeHL
		}
	}
	switch {
	case max > 1<<30:
		return st
	case max == 0:
		ne.max = 1<<31 - 1 // no limit: a count never passes it
	default:
		ne.max = int32(max)
	}
	if st.Segment.Usage == NotUsed {
		ne.flags |= placeNotUsed
	}
	*e = ne
	return st
}

// anyQualifier reports whether locate, over the open frames as they were
// (the loop and last child of each), places the segment in frame d as
// candidate c whatever its qualifiers: whether every candidate locate may
// try and take before the first it takes unconditionally (one without a
// qualifier, or any in its last two passes) is c in frame d, not out of
// order. Then the memo need not read a qualifier (SV1 in the 837P's 2400:
// one candidate, which locate takes in its first pass or its third).
func (w *walker) anyQualifier(frames []openFrame, d int, c *candidate) bool {
	num := w.g.ids.num(w.f.el(0))
	if num == 0 {
		return false
	}
	top := len(frames) - 1
	// Pass -1 reads the innermost frame's candidates behind (-1&1 is 1):
	// one there with the segment's id makes the answer no, more cautious
	// than locate needs, whose first pass tries the candidates ahead
	// first. Then locate's four passes.
	for pass := -1; pass < 4; pass++ {
		behind, anyQual := pass&1 == 1, pass >= 2
		for k := top; k >= 0; k-- {
			if pass < 0 && k != top {
				break
			}
			fr := frames[k]
			row := fr.loop.slots[num]
			if row == 0 {
				continue
			}
			kids := fr.loop.index.kids[row-1]
			for i := range kids {
				x := &kids[i]
				if x.child == 0 || (x.child < fr.idx) != behind {
					continue
				}
				if k != d || x != c || behind {
					return false // locate may place it elsewhere
				}
				if anyQual || x.match.pos == 0 {
					return true
				}
			}
		}
	}
	return false
}

// openFrame is what locate reads of an open frame.
type openFrame struct {
	loop *Loop
	idx  int32
}

// overMax reports a loop or segment used more often than its maximum, as
// placeFull does.
func (v *Validator) overMax(st *Step, n int) {
	if st.Opened != nil {
		v.loopOverMax(st, n)
	} else {
		v.segmentOverMax(st, n)
	}
}

// word returns element i packed in one word (its bytes, its length in the
// top byte), noWord when it is longer than seven bytes.
func (f *fields) word(i int) uint64 {
	if i <= f.n {
		p := f.span[i&maxFields]
		lo, n := int(p&0xffff), int(p>>16)-int(p&0xffff)
		if uint(n) < 8 && cap(f.raw)-lo >= 8 {
			return binary.LittleEndian.Uint64(f.raw[lo:lo+8])&lowBytes[n&7] | uint64(n)<<56
		}
	}
	return packed(f.elSlowOrFast(i))
}

// qualWord is word for the value a matcher at pos and comp reads.
func (f *fields) qualWord(pos, comp int) uint64 {
	if comp == 0 {
		return f.word(pos)
	}
	return packed(nthComponent(f.el(pos), f.csep, comp))
}

// elSlowOrFast is el, not inlined.
func (f *fields) elSlowOrFast(i int) []byte { return f.el(i) }

// packed is pack, noWord for a value longer than seven bytes.
func packed(v []byte) uint64 {
	if w, ok := pack(v); ok {
		return w
	}
	return noWord
}

// eachByte is a word with every byte 1: b*eachByte is b in every byte.
const eachByte = 0x0101010101010101

// zeroBytes has the top bit of each zero byte of v set, and no other bit.
func zeroBytes(v uint64) uint64 {
	const lo7 = 0x7f * eachByte
	return ^((v&lo7 + lo7) | v | lo7)
}

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
	// or else the segment's (0: none).
	max int32
	// full has bit i set when frame i, if it closes, has work beyond its
	// required children (rules, HL): the full pop.
	full uint16
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
	shape := w.stack[w.depth-1].shape
	// w.f.word(0) and w.f.qualWord, inline for the common case.
	fl := &w.f
	id := noWord
	if fl.n >= 0 {
		p := fl.span[0]
		if lo, n := int(p&0xffff), int(p>>16)-int(p&0xffff); uint(n) < 8 && cap(fl.raw)-lo >= 8 {
			id = binary.LittleEndian.Uint64(fl.raw[lo:lo+8])&lowBytes[n&7] | uint64(n)<<56
		}
	} else {
		id = fl.word(0)
	}
	e := &m.e[placeSlot(shape, id)]
	if e.shape != shape || e.id != id {
		return v.placeMiss(seg, e, shape, id)
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
			return v.placeMiss(seg, e, shape, id)
		}
	}

	w.pos++
	closed := 0
	d := int(e.d)
	for w.depth-1 > d {
		f := &w.stack[w.depth-1]
		if e.full>>(w.depth-1)&1 != 0 || !f.requiredSeen() {
			w.pop()
		} else {
			w.depth--
		}
		closed++
	}
	f := &w.stack[d]
	cand := e.cand
	c := cand.child
	f.idx, f.shape = c, e.shapeD
	f.counts[c]++
	n := f.counts[c]
	f.posOf[c], f.offOf[c] = int32(w.pos), seg.Offset()
	st := &w.last
	st.Closed, st.OutOfOrder, st.child = closed, false, c
	st.Opened, st.Segment = cand.loop, cand.first
	v.seg, v.loop = seg, f.loop
	if cand.loop != nil {
		w.push(cand.loop, seg.Offset()).shape = e.shapePush
		v.loop = cand.loop
	}
	w.known = w.depth
	st.Depth = w.depth
	if e.max != 0 && n > e.max {
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
func (v *Validator) placeMiss(seg *x12.Segment, e *placeEntry, shape uint32, id uint64) *Step {
	w := &v.walker
	m := w.memo
	gen, depth := m.gen, w.depth
	m.misses++
	var full uint16
	for i := range min(depth, 16) {
		if l := w.stack[i].loop; len(l.rules) > 0 || len(l.nested) > 0 || l.hasHL {
			full |= 1 << i
		}
	}
	st := v.placeFull(seg)
	if st.Segment == nil || st.OutOfOrder || w.qn > 1 || id == noWord || depth > 16 {
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
	w.reshape()
	if m.gen != gen {
		return st // shape is a number of before
	}
	d := depth - 1 - st.Closed
	cand := w.cand
	ne := placeEntry{shape: shape, id: id, d: uint8(d), cand: cand, full: full, shapeD: w.stack[d].shape}
	if w.qn == 1 {
		ne.qpos, ne.qcomp, ne.qual = uint8(w.qpos), uint8(w.qcomp), qual
	}
	max := st.Segment.Max
	if st.Opened != nil {
		ne.shapePush = w.stack[d+1].shape
		max = st.Opened.Max
		if st.Opened.hasHL {
			ne.flags |= placeHL
		}
	}
	if max > 1<<30 {
		return st
	}
	ne.max = int32(max)
	if st.Segment.Usage == NotUsed {
		ne.flags |= placeNotUsed
	}
	*e = ne
	return st
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

package guide

import (
	"github.com/clearhouse/clearhouse/x12"
)

// setState is a SetValidator's state between two segments of a set: what
// x12.Validate saves to check one large set on several workers (Save,
// Resume, Same). Its frames are copies, never shared with a Validator.
type setState struct {
	active bool
	g      *Guide
	d      x12.Delimiters
	depth  int
	pos    int
	lastHL int
	stack  []frame
}

// Save implements x12.ResumingSetValidator: the state after the last
// Segment call.
func (s *SetValidator) Save() x12.SetState {
	st := &setState{active: s.active, g: s.g}
	if !s.active {
		return st
	}
	v := s.v
	st.d, st.depth, st.pos, st.lastHL = v.d, v.depth, v.pos, v.lastHL
	st.stack = make([]frame, v.depth)
	for i := range st.stack {
		copyFrame(&st.stack[i], &v.stack[i])
	}
	return st
}

// Resume implements x12.ResumingSetValidator: the set of h goes on from
// state x (saved by any fork); next is the position of the next segment.
func (s *SetValidator) Resume(h x12.SetHeader, x x12.SetState, next int) {
	st := x.(*setState)
	s.active, s.g = st.active, st.g
	if !st.active {
		return
	}
	v := s.v
	v.reset(st.g)
	v.d, v.pos, v.lastHL, v.errors = st.d, next-1, st.lastHL, 0
	v.seg, v.loop, v.report = nil, nil, nil
	for len(v.stack) < st.depth {
		v.stack = append(v.stack, frame{})
	}
	for i := range st.depth {
		copyFrame(&v.stack[i], &st.stack[i])
	}
	v.depth = st.depth
}

// Same implements x12.ResumingSetValidator: whether the rest of a set is
// checked alike, with the same findings and states, from a and from b.
// The states must agree on everything a later segment can read: the open
// loops, each child's uses (only whether there were any, for a child
// without a repeat limit: nothing else reads that count), where the
// children used were last seen, the HL ids and flags, the rules' state,
// the position and the last HL number.
func (s *SetValidator) Same(x, y x12.SetState) bool {
	a, b := x.(*setState), y.(*setState)
	if a.active != b.active || a.g != b.g {
		return false
	}
	if !a.active {
		return true
	}
	if a.d != b.d || a.depth != b.depth || a.pos != b.pos || a.lastHL != b.lastHL {
		return false
	}
	for i := range a.depth {
		if !sameFrame(&a.stack[i], &b.stack[i]) {
			return false
		}
	}
	return true
}

// sameFrame compares two instances of a loop as Same does.
func sameFrame(a, b *frame) bool {
	if a.loop != b.loop || a.idx != b.idx || a.startPos != b.startPos || a.startOff != b.startOff ||
		a.cond != b.cond || a.seen != b.seen || a.hits != b.hits || len(a.counts) != len(b.counts) {
		return false
	}
	if a.loop.hasHL && (string(a.hlID[:a.hlIDLen]) != string(b.hlID[:b.hlIDLen]) || a.hlChild != b.hlChild ||
		a.hlKids != b.hlKids || a.hlPos != b.hlPos || a.hlOffset != b.hlOffset) {
		return false
	}
	for i, n := range a.counts {
		m := b.counts[i]
		if a.loop.unbounded(i) {
			n, m = min(n, 1), min(m, 1)
		}
		if n != m || n > 0 && (a.posOf[i] != b.posOf[i] || a.offOf[i] != b.offOf[i]) {
			return false
		}
	}
	if len(a.sums) != len(b.sums) {
		return false
	}
	for i := range a.sums {
		if a.sums[i] != b.sums[i] {
			return false
		}
	}
	return true
}

// unbounded reports whether child i may repeat without limit: its count
// is then only read as "used or not" (the repeat checks read it only when
// there is a limit).
func (l *Loop) unbounded(i int) bool {
	if n := l.Children[i]; n.Loop != nil {
		return n.Loop.Max == 0
	}
	return l.Children[i].Segment.Max == 0
}

// copyFrame makes dst a copy of src that shares no slice with it.
func copyFrame(dst, src *frame) {
	counts, posOf, offOf, sums := dst.counts, dst.posOf, dst.offOf, dst.sums
	*dst = *src
	dst.counts = append(counts[:0], src.counts...)
	dst.posOf = append(posOf[:0], src.posOf...)
	dst.offOf = append(offOf[:0], src.offOf...)
	dst.sums = append(sums[:0], src.sums...)
}

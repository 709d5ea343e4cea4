package guide

import "encoding/binary"

// codeSet is a set of code values tuned for lookups with a []byte. Codes
// of up to 7 bytes (nearly all X12 codes) are packed into integers, so a
// lookup compares numbers: one probe of a collision-free table for most
// lists, else a scan for short lists and an open-addressing hash table for
// long ones. Looking up never allocates. nil means "no list".
type codeSet struct {
	// perfect holds every packable code at slot p*mul>>shift, no two
	// codes in one slot (0 marks a free slot; no code packs to 0 since
	// codes are not empty): a value of 1 to 7 bytes is a code exactly
	// when its slot holds its packed form. nil when no multiplier of the
	// sizes tried spreads the codes apart (see perfectTable).
	perfect []uint64
	mul     uint64
	pshift  uint8
	packed  []uint64 // short list of packable codes
	// table holds a long list of packable codes (0 marks a free slot),
	// probed linearly from slot hash(code) >> shift.
	table []uint64
	shift uint8
	other map[string]struct{} // codes longer than 7 bytes
	all   []string
}

// smallSet is the size up to which a linear scan beats hashing.
const smallSet = 8

// pack turns a value of up to 7 bytes into a number (length in the top
// byte); ok is false for longer values. Element values are views into the
// reader's buffer with bytes after them, so the usual case is one 8-byte
// load, masked, without a branch on the length.
func pack(v []byte) (uint64, bool) {
	n := len(v)
	if n > 7 {
		return 0, false
	}
	if cap(v) >= 8 {
		w := binary.LittleEndian.Uint64(v[:8])
		return w&(1<<(8*uint(n))-1) | uint64(n)<<56, true
	}
	p := uint64(n) << 56
	for i, c := range v {
		p |= uint64(c) << (8 * i)
	}
	return p, true
}

// hashCode spreads a packed code over the high bits (Fibonacci hashing).
func hashCode(p uint64) uint64 { return p * 0x9E3779B97F4A7C15 }

// set builds a codeSet; nil (no list) for no codes.
func set(codes []string) *codeSet {
	if len(codes) == 0 {
		return nil
	}
	s := &codeSet{all: codes}
	var short []uint64
	for _, c := range codes {
		if p, ok := pack([]byte(c)); ok && c != "" {
			short = append(short, p)
		} else {
			if s.other == nil {
				s.other = map[string]struct{}{}
			}
			s.other[c] = struct{}{}
		}
	}
	s.perfect, s.mul, s.pshift = perfectTable(short)
	if len(short) <= smallSet {
		s.packed = short
		return s
	}
	bits := 1
	for 1<<bits < 2*len(short) { // at most half full
		bits++
	}
	s.table = make([]uint64, 1<<bits)
	s.shift = uint8(64 - bits)
	mask := uint64(len(s.table) - 1)
	for _, p := range short {
		i := hashCode(p) >> s.shift
		for s.table[i] != 0 && s.table[i] != p {
			i = (i + 1) & mask
		}
		s.table[i] = p
	}
	return s
}

// lowBytes[n] keeps the low n bytes of a word.
var lowBytes = [8]uint64{0, 0xff, 0xffff, 0xffffff, 0xffffffff, 0xffffffffff, 0xffffffffffff, 0xffffffffffffff}

// has reports whether v is in the set. The common case — a value of 1 to
// 7 bytes with bytes after it, a list with a collision-free table — is one
// load, one multiplication and one probe, small enough to be inlined into
// the callers.
func (s *codeSet) has(v []byte) bool {
	if n := len(v); uint(n-1) < 7 && cap(v) >= 8 && s.perfect != nil {
		p := binary.LittleEndian.Uint64(v[:8])&lowBytes[n&7] | uint64(n)<<56
		return s.perfect[p*s.mul>>(s.pshift&63)] == p
	}
	return s.hasSlow(v)
}

// hasAt is has(buf[lo:hi]) for a value of 1 or more bytes of buf, read as
// a word when buf has 8 bytes from lo.
func (s *codeSet) hasAt(buf []byte, lo, hi uint32) bool {
	k, n := int(lo), hi-lo
	if s.perfect != nil && n-1 < 7 && k+8 <= len(buf) {
		p := binary.LittleEndian.Uint64(buf[k:k+8])&lowBytes[n&7] | uint64(n)<<56
		return s.perfect[p*s.mul>>(s.pshift&63)] == p
	}
	return s.has(buf[lo:hi])
}

// perfectTries is how many multipliers perfectTable tries per table size.
const perfectTries = 64

// perfectTable finds a table of a power-of-two size, at most 16 slots a
// code (and 4,096 in all), and an odd multiplier that put every packed
// code in a slot of its own. The multipliers
// come from a fixed sequence, so a guide loads the same way every time;
// nil when none of them works.
func perfectTable(codes []uint64) ([]uint64, uint64, uint8) {
	if len(codes) == 0 || len(codes) > 512 {
		return nil, 0, 0
	}
	seq := uint64(0x9E3779B97F4A7C15)
	for bits := 1; 1<<bits <= 16*len(codes) && bits <= 12; bits++ {
		if 1<<bits < len(codes) {
			continue
		}
		t := make([]uint64, 1<<bits)
		shift := uint8(64 - bits)
	try:
		for range perfectTries {
			// splitmix64: a fixed sequence of well-mixed odd multipliers.
			seq += 0x9E3779B97F4A7C15
			m := seq
			m = (m ^ m>>30) * 0xBF58476D1CE4E5B9
			m = (m ^ m>>27) * 0x94D049BB133111EB
			m = (m ^ m>>31) | 1
			clear(t)
			for _, p := range codes {
				i := p * m >> shift
				if t[i] != 0 && t[i] != p { // a list may repeat a code
					continue try
				}
				t[i] = p
			}
			return t, m, shift
		}
	}
	return nil, 0, 0
}

// hasSlow is has for long lists and odd values.
func (s *codeSet) hasSlow(v []byte) bool {
	p, ok := pack(v)
	if !ok || p == 0 {
		_, found := s.other[string(v)]
		return found
	}
	if t := s.table; t != nil {
		mask := uint64(len(t) - 1)
		for i := hashCode(p) >> s.shift; ; i = (i + 1) & mask {
			switch t[i] {
			case p:
				return true
			case 0:
				return false
			}
		}
	}
	for _, x := range s.packed {
		if x == p {
			return true
		}
	}
	return false
}

// list returns the codes.
func (s *codeSet) list() []string {
	if s == nil {
		return nil
	}
	return append([]string(nil), s.all...)
}

// idKey packs a segment id (2 or 3 bytes) into a number, so the per-loop
// child tables compare ids without hashing. 0 means "not an id".
func idKey(id []byte) uint32 {
	switch len(id) {
	case 2:
		return 2<<24 | uint32(id[0])<<16 | uint32(id[1])<<8
	case 3:
		return 3<<24 | uint32(id[0])<<16 | uint32(id[1])<<8 | uint32(id[2])
	}
	return 0
}

// idTable numbers the segment ids of a guide (1..n; 0 for an id the
// guide does not use): an open-addressing table keyed by idKey, a few KB,
// so that looking an id up stays in the first-level cache.
type idTable struct {
	slots []idSlot // free when key is 0
	shift uint8
}

type idSlot struct {
	key uint32
	num uint8
}

func (t *idTable) init(ids []string) {
	bits := 1
	for 1<<bits < 2*len(ids) { // at most half full
		bits++
	}
	t.slots = make([]idSlot, 1<<bits)
	t.shift = uint8(32 - bits)
	for i, id := range ids {
		k := idKey([]byte(id))
		j := t.slot(k)
		t.slots[j] = idSlot{key: k, num: uint8(i + 1)}
	}
}

// slot returns the index of key's slot, or of the free slot where it would go.
func (t *idTable) slot(k uint32) uint32 {
	mask := uint32(len(t.slots) - 1)
	i := k * 0x9E3779B1 >> t.shift
	for t.slots[i].key != k && t.slots[i].key != 0 {
		i = (i + 1) & mask
	}
	return i
}

// num returns the number of segment id id, 0 when the guide does not use it.
// It runs for every segment: idKey and slot, in one loop.
func (t *idTable) num(id []byte) uint8 {
	var k uint32
	switch len(id) {
	case 2:
		k = 2<<24 | uint32(id[0])<<16 | uint32(id[1])<<8
	case 3:
		k = 3<<24 | uint32(id[0])<<16 | uint32(id[1])<<8 | uint32(id[2])
	default:
		return 0
	}
	slots := t.slots
	mask := uint32(len(slots) - 1)
	for i := k * 0x9E3779B1 >> t.shift; ; i = (i + 1) & mask {
		switch s := slots[i&mask]; s.key {
		case k:
			return s.num
		case 0:
			return 0
		}
	}
}

// childTable lists, per segment id, the children of a loop that can start
// with it, in guide order. Loops have a few dozen distinct ids at most, so
// a scan over packed ids beats a map.
type childTable struct {
	ids  []uint32
	kids [][]candidate
}

// candidate is a child that can start with a given segment id, with what
// the walker needs of it copied in (its qualifier test, its first segment,
// the loop it opens), so trying and taking it reads no other guide node.
type candidate struct {
	child int32
	match matcher
	first *Segment
	loop  *Loop // nil for a segment child
}

func (t *childTable) add(child int32, n Node) {
	first := n.trigger()
	k := idKey([]byte(first.ID))
	c := candidate{child: child, match: first.match, first: first, loop: n.Loop}
	for i, x := range t.ids {
		if x == k {
			t.kids[i] = append(t.kids[i], c)
			return
		}
	}
	t.ids = append(t.ids, k)
	t.kids = append(t.kids, []candidate{c})
}

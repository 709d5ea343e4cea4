package guide

// codeSet is a set of code values tuned for lookups with a []byte. Codes
// of up to 7 bytes (nearly all X12 codes) are packed into integers, so a
// lookup compares numbers: a scan for short lists, a map for long ones.
// Looking up never allocates. nil means "no list".
type codeSet struct {
	packed []uint64            // short list of packable codes
	pmap   map[uint64]struct{} // long list of packable codes
	other  map[string]struct{} // codes longer than 7 bytes
	all    []string
}

// smallSet is the size up to which a linear scan beats hashing.
const smallSet = 8

// pack turns a value of up to 7 bytes into a number (length in the top
// byte); ok is false for longer values.
func pack(v []byte) (uint64, bool) {
	if len(v) > 7 {
		return 0, false
	}
	n := uint64(len(v)) << 56
	for i, c := range v {
		n |= uint64(c) << (8 * i)
	}
	return n, true
}

// set builds a codeSet; nil (no list) for no codes.
func set(codes []string) *codeSet {
	if len(codes) == 0 {
		return nil
	}
	s := &codeSet{all: codes}
	var short []uint64
	for _, c := range codes {
		if p, ok := pack([]byte(c)); ok {
			short = append(short, p)
		} else {
			if s.other == nil {
				s.other = map[string]struct{}{}
			}
			s.other[c] = struct{}{}
		}
	}
	if len(short) <= smallSet {
		s.packed = short
	} else {
		s.pmap = make(map[uint64]struct{}, len(short))
		for _, p := range short {
			s.pmap[p] = struct{}{}
		}
	}
	return s
}

// has reports whether v is in the set.
func (s *codeSet) has(v []byte) bool {
	p, ok := pack(v)
	if !ok {
		_, found := s.other[string(v)]
		return found
	}
	if s.pmap != nil {
		_, found := s.pmap[p]
		return found
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

// idCodes is the number of possible segment ids: 2 or 3 characters of
// A-Z and 0-9.
const idCodes = 36*36*36 + 36*36

// idCode numbers a segment id densely, -1 when it is not 2-3 letters and
// digits.
func idCode(id []byte) int {
	if len(id) < 2 || len(id) > 3 {
		return -1
	}
	n := 0
	for _, c := range id {
		var d int
		switch {
		case c >= 'A' && c <= 'Z':
			d = int(c - 'A')
		case c >= '0' && c <= '9':
			d = 26 + int(c-'0')
		default:
			return -1
		}
		n = n*36 + d
	}
	if len(id) == 2 {
		n += 36 * 36 * 36
	}
	return n
}

// childTable lists, per segment id, the children of a loop that can start
// with it, in guide order. Loops have a few dozen distinct ids at most, so
// a scan over packed ids beats a map.
type childTable struct {
	ids  []uint32
	kids [][]int32
}

func (t *childTable) add(id string, child int32) {
	k := idKey([]byte(id))
	for i, x := range t.ids {
		if x == k {
			t.kids[i] = append(t.kids[i], child)
			return
		}
	}
	t.ids = append(t.ids, k)
	t.kids = append(t.kids, []int32{child})
}

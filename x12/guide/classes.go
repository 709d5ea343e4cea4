package guide

import "github.com/clearhouse/clearhouse/x12"

// Byte classes of element data, per the delimiters in force: one scan of
// a value tells whether it repeats, has components or needs escaping.
const (
	clsRep    = 1 << iota // repetition separator
	clsComp               // component separator
	clsEscape             // a byte JSON escapes, or not ASCII
)

// classTable holds the byte classes of one set of delimiters.
type classTable struct {
	cls    [256]uint8
	delims x12.Delimiters
	ok     bool
}

// table makes t the class table of delimiters d (it is cached: values of
// one interchange share their delimiters) and returns it.
func (t *classTable) table(d x12.Delimiters) *classTable {
	if t.delims != d || !t.ok {
		*t = classTable{delims: d, ok: true}
		for c := range t.cls {
			if !plain[c] {
				t.cls[c] = clsEscape
			}
		}
		if d.Repetition != 0 {
			t.cls[d.Repetition] |= clsRep
		}
		if d.Component != 0 {
			t.cls[d.Component] |= clsComp
		}
	}
	return t
}

// scan returns the classes of the bytes of v.
func (t *classTable) scan(v []byte) uint8 {
	var bits uint8
	for _, c := range v {
		bits |= t.cls[c]
	}
	return bits
}

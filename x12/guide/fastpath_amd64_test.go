package guide

import (
	"testing"
	"unsafe"
)

// TestAsmLayout: the offsets checkvalues_amd64.s and fields_amd64.s read the fields of
// qcheck, fields, qseg and qsyntax at, the sizes it steps by, and the
// numbers it uses for the quick ops and checkSegment's answers.
func TestAsmLayout(t *testing.T) {
	var (
		q qcheck
		f fields
		s qseg
		r qsyntax
	)
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"qcheck.op", unsafe.Offsetof(q.op), 0},
		{"qcheck.req", unsafe.Offsetof(q.req), 1},
		{"qcheck.pshift", unsafe.Offsetof(q.pshift), 2},
		{"qcheck.aop", unsafe.Offsetof(q.aop), 3},
		{"qcheck.min", unsafe.Offsetof(q.min), 4},
		{"qcheck.span", unsafe.Offsetof(q.span), 8},
		{"qcheck.lastReq", unsafe.Offsetof(q.lastReq), 12},
		{"qcheck.perfect", unsafe.Offsetof(q.perfect), 16},
		{"qcheck.mul", unsafe.Offsetof(q.mul), 24},
		{"qcheck.codes", unsafe.Offsetof(q.codes), 32},
		{"qcheck.comps", unsafe.Offsetof(q.comps), 40},
		{"qcheck.ncomps", unsafe.Offsetof(q.ncomps), 48},
		{"qcheck.maxLeft", unsafe.Offsetof(q.maxLeft), 52},
		{"qcheck size", unsafe.Sizeof(q), 64},
		{"fields.raw", unsafe.Offsetof(f.raw), 8},
		{"fields.n", unsafe.Offsetof(f.n), 40},
		{"fields.compEl", unsafe.Offsetof(f.compEl), 48},
		{"fields.repEl", unsafe.Offsetof(f.repEl), 56},
		{"fields.fast", unsafe.Offsetof(f.fast), 32},
		{"fields.span", unsafe.Offsetof(f.span), 64},
		{"fields.vec", unsafe.Offsetof(f.vec), 928},
		{"qseg.qs", unsafe.Offsetof(s.qs), 0},
		{"qseg.nqs", unsafe.Offsetof(s.nqs), 8},
		{"qseg.lastReq", unsafe.Offsetof(s.lastReq), 16},
		{"qseg.reqMask", unsafe.Offsetof(s.reqMask), 24},
		{"qseg.syntax", unsafe.Offsetof(s.syntax), 32},
		{"qseg.nsyntax", unsafe.Offsetof(s.nsyntax), 40},
		{"qseg.compMask", unsafe.Offsetof(s.compMask), 48},
		{"qseg.dateQual", unsafe.Offsetof(s.dateQual), 56},
		{"qseg.dateVal", unsafe.Offsetof(s.dateVal), 60},
		{"qseg.moreDates", unsafe.Offsetof(s.moreDates), 64},
		{"qsyntax.mask", unsafe.Offsetof(r.mask), 0},
		{"qsyntax.first", unsafe.Offsetof(r.first), 8},
		{"qsyntax.kind", unsafe.Offsetof(r.kind), 16},
		{"qsyntax size", unsafe.Sizeof(r), 24},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, the assembly reads it at %d", c.name, c.got, c.want)
		}
	}
	if quickText != 1 || quickDecimal != 2 || quickInteger != 3 || quickComposite != 6 || aopText != 1 || aopCode != 2 {
		t.Error("checkvalues_amd64.s has other numbers for the quick ops")
	}
	if segmentBad != 0 || segmentOK != 1 || segmentUnsure != 2 || segmentDates != 3 {
		t.Error("checkvalues_amd64.s has other numbers for checkSegment's answers")
	}
}

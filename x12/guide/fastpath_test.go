package guide

import (
	"math/rand/v2"
	"testing"
	"unsafe"

	"github.com/clearhouse/clearhouse/x12"
)

// TestFastChecksAgreeWithCheckSimple: for every text and number element of
// every guide, the encoder's inline checks (textValid, numberValid) accept
// exactly the values checkSimple reports nothing about.
func TestFastChecksAgreeWithCheckSimple(t *testing.T) {
	t.Parallel()
	samples := []string{"A", "AB", "ABC", "1", "12", "123", "0", "-1", "1.5", ".5", "5.", "-", ".", "1.2.3",
		"12A", "a b", "99999999999999999999", "1234567890123456789012345678901234567890", "Y", "N", "D8"}
	var v Validator
	findings := 0
	v.report = func(x12.Finding) { findings++ }
	v.seg = x12.NewSegment(x12.Delimiters{Element: '*', Component: ':', Repetition: '^', Segment: '~'}, "XX")
	checked := 0
	for _, g := range Guides() {
		walk(g.root, func(s *Segment) {
			for i := range s.Elements {
				el := &s.Elements[i]
				if !el.text && !el.number {
					continue
				}
				values := samples
				if el.codes != nil {
					values = append(values[:len(values):len(values)], el.codes.all...)
				}
				if el.codeList != nil {
					all := el.codeList.codes.all
					values = append(values[:len(values):len(values)], all[:min(len(all), 30)]...)
				}
				for _, val := range values {
					findings = 0
					v.checkSimple(el, s, i+1, 0, 0, []byte(val), 0)
					want := findings == 0
					got := el.text && el.textValid([]byte(val)) || el.number && el.numberValid([]byte(val))
					if got != want {
						t.Errorf("%s %s%02d (%s) %q: inline check %v, checkSimple clean %v", g.ID, s.ID, i+1, el.Type, val, got, want)
					}
					checked++
				}
			}
		})
	}
	if checked < 1000 {
		t.Fatalf("only %d checks", checked)
	}
	t.Logf("%d values checked", checked)
}

// TestQcheckLayout: the offsets checkvalues_amd64.s reads qcheck's fields
// at, and its size.
func TestQcheckLayout(t *testing.T) {
	var q qcheck
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"op", unsafe.Offsetof(q.op), 0},
		{"req", unsafe.Offsetof(q.req), 1},
		{"pshift", unsafe.Offsetof(q.pshift), 2},
		{"min", unsafe.Offsetof(q.min), 4},
		{"span", unsafe.Offsetof(q.span), 8},
		{"lastReq", unsafe.Offsetof(q.lastReq), 12},
		{"perfect", unsafe.Offsetof(q.perfect), 16},
		{"mul", unsafe.Offsetof(q.mul), 24},
		{"codes", unsafe.Offsetof(q.codes), 32},
		{"comps", unsafe.Offsetof(q.comps), 40},
		{"ncomps", unsafe.Offsetof(q.ncomps), 48},
		{"maxLeft", unsafe.Offsetof(q.maxLeft), 52},
		{"size", unsafe.Sizeof(q), 64},
	} {
		if c.got != c.want {
			t.Errorf("qcheck.%s at %d, checkvalues_amd64.s reads it at %d", c.name, c.got, c.want)
		}
	}
	if quickText != 1 || quickDecimal != 2 || quickInteger != 3 || quickComposite != 6 {
		t.Error("checkvalues_amd64.s has other numbers for the quick ops")
	}
}

// TestDate8Agrees: date8 reads every 8-byte value of digits and of bytes
// around them as the digit by digit reading did.
func TestDate8Agrees(t *testing.T) {
	reference := func(v []byte) bool {
		y, m, d := digits(v[0:4]), digits(v[4:6]), digits(v[6:8])
		if y < 0 || m < 1 || m > 12 || d < 1 {
			return false
		}
		return d <= daysIn(y, m)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("0123456789/:-. \x00\xff\xb0\x80")
	check := func(v []byte) {
		if got, want := validDate(v), reference(v); got != want {
			t.Fatalf("validDate(%q) = %v, want %v", v, got, want)
		}
	}
	for _, s := range []string{"20240229", "20230229", "19000229", "20000229", "20241231", "20241301", "20240100", "20240431", "00000101", "99991231"} {
		check([]byte(s))
	}
	v := make([]byte, 8)
	for range 500000 {
		for i := range v {
			if rng.IntN(8) == 0 {
				v[i] = alphabet[rng.IntN(len(alphabet))]
			} else {
				v[i] = '0' + byte(rng.IntN(10))
			}
		}
		check(v)
	}
}

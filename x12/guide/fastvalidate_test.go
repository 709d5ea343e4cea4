package guide

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// validateBoth validates data with the fast path (fields.scan, elementsOK)
// and with every segment read through its accessors and checked by
// checkElements, and fails when their findings differ in any way.
func validateBoth(t testing.TB, name string, data []byte, ro []x12.ReaderOption) int {
	t.Helper()
	run := func(slow bool) ([]x12.Finding, error) {
		sv := NewSetValidator(Options{})
		sv.v.slowOnly = slow
		var out []x12.Finding
		_, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Reader: ro, Sets: sv, NoTree: true,
			OnFinding: func(f x12.Finding) { out = append(out, f) }})
		return out, err
	}
	fast, errFast := run(false)
	slow, errSlow := run(true)
	if (errFast == nil) != (errSlow == nil) {
		t.Fatalf("%s: fast path error %v, reference %v", name, errFast, errSlow)
	}
	if !reflect.DeepEqual(fast, slow) {
		for i := 0; i < max(len(fast), len(slow)); i++ {
			var a, b x12.Finding
			if i < len(fast) {
				a = fast[i]
			}
			if i < len(slow) {
				b = slow[i]
			}
			if !reflect.DeepEqual(a, b) {
				t.Fatalf("%s: finding %d differs:\nfast      %+v\nreference %+v", name, i, a, b)
			}
		}
	}
	return len(slow)
}

// fastPathSamples returns generated files of every kind x12gen writes, with
// and without line breaks, and with other delimiters, of items claims,
// payments or inquiries.
func fastPathSamples(t testing.TB, items int) map[string][]byte {
	out := map[string][]byte{}
	for _, kind := range []x12gen.Kind{x12gen.Claims837P, x12gen.Remittances835, x12gen.Inquiries270} {
		for i, o := range []x12gen.Options{{}, {LineBreaks: true},
			{Delimiters: x12.Delimiters{Element: '|', Component: '>', Repetition: '!', Segment: '\n'}}} {
			o.Kind, o.Items, o.Seed = kind, items, 7
			var buf bytes.Buffer
			if _, err := x12gen.Generate(&buf, o); err != nil {
				t.Fatal(err)
			}
			out[fmt.Sprintf("%s/%d", kind, i)] = buf.Bytes()
		}
	}
	return out
}

// TestFastPathAgrees: the guide validator's fast path gives exactly the
// findings of the reference path on every corpus file, on generated files,
// and on every generated 837P segment with one byte replaced by a
// delimiter, a control character, a blank, a letter or a digit.
func TestFastPathAgrees(t *testing.T) {
	t.Parallel()
	eachCorpusFile(t, func(path string, data []byte) { validateBoth(t, path, data, nil) })
	for name, data := range fastPathSamples(t, 12) {
		if n := validateBoth(t, name, data, nil); n != 0 && name[:4] == "837P" {
			t.Errorf("%s: %d findings on generated data", name, n)
		}
	}
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 1, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	found := 0
	for i := 106; i < len(data); i++ { // past the ISA
		for _, c := range []byte{'*', ':', '^', '~', '\n', '\r', 0, 0x7f, ' ', 'X', 'a', '9', '.', '-', 0xc3} {
			if data[i] == c {
				continue
			}
			mut := bytes.Clone(data)
			mut[i] = c
			found += validateBoth(t, "mutated", mut, nil)
		}
	}
	if found == 0 {
		t.Fatal("no mutation gave a finding")
	}
}

// FuzzFastPath: whatever the input, the fast path and the reference path
// give the same findings.
func FuzzFastPath(f *testing.F) {
	for _, data := range fastPathSamples(f, 1) {
		f.Add(data, false)
	}
	dir := testenv.CorpusDir(f)
	for _, sub := range []string{"837P", "837I", "837D", "835", "270", "271"} {
		paths, _ := filepath.Glob(filepath.Join(dir, sub, "*"))
		for _, p := range paths {
			if data, err := os.ReadFile(p); err == nil && len(data) <= 4<<10 {
				f.Add(data, false)
			}
		}
	}
	f.Fuzz(func(t *testing.T, data []byte, bare bool) {
		var ro []x12.ReaderOption
		if bare {
			ro = append(ro, x12.WithDelimiters(x12.DefaultDelimiters))
		}
		validateBoth(t, "input", data, ro)
	})
}

// TestAmountAgrees: amount reads every short string of digits, points and
// minus signs as the plain loop it replaced did (millionths, extra
// decimals dropped, anything else refused).
func TestAmountAgrees(t *testing.T) {
	reference := func(b []byte) (int64, bool) {
		if len(b) == 0 {
			return 0, false
		}
		neg := false
		if b[0] == '-' {
			neg, b = true, b[1:]
		}
		var n int64
		frac := -1
		for _, c := range b {
			switch {
			case c == '.' && frac < 0:
				frac = 0
			case c >= '0' && c <= '9':
				if frac >= 6 {
					continue
				}
				n = n*10 + int64(c-'0')
				if frac >= 0 {
					frac++
				}
			default:
				return 0, false
			}
		}
		if frac < 0 {
			frac = 0
		}
		for ; frac < 6; frac++ {
			n *= 10
		}
		if neg {
			n = -n
		}
		return n, true
	}
	check := func(b []byte) {
		gn, gok := amount(b)
		wn, wok := reference(b)
		if gn != wn || gok != wok {
			t.Fatalf("amount(%q) = %d, %v; want %d, %v", b, gn, gok, wn, wok)
		}
	}
	eachString("0159.-x", 6, check)
	for _, s := range []string{"1234567.1234567", "99999999.999999", "0.0000001", "-0.5"} {
		check([]byte(s))
	}
}

// eachString calls f with every string of up to depth bytes of alphabet
// (the same slice, changed between calls).
func eachString(alphabet string, depth int, f func([]byte)) {
	var b []byte
	var each func(depth int)
	each = func(depth int) {
		f(b)
		if depth == 0 {
			return
		}
		for i := range len(alphabet) {
			b = append(b, alphabet[i])
			each(depth - 1)
			b = b[:len(b)-1]
		}
	}
	each(depth)
}

// TestAmountCompAgrees holds amountComp, the sum items' amount, to
// amount(compOne(b, sep)) on every string of up to 7 bytes of digits,
// points, minus signs, a letter and separators, long ones, and separators
// that amountComp leaves to amount.
func TestAmountCompAgrees(t *testing.T) {
	for _, sep := range []byte{':', '^', '.', '1', '-'} {
		check := func(b []byte) {
			gn, gok := amountComp(b, sep)
			wn, wok := amount(compOne(b, sep))
			if gn != wn || gok != wok {
				t.Fatalf("amountComp(%q, %q) = %d, %v; want %d, %v", b, sep, gn, gok, wn, wok)
			}
		}
		eachString("019.-x:^", 7, check)
		for _, s := range []string{"1234567.1234567", "99999999.999999", "9999999999999999", "99999999999999999",
			"12345678901234.5", "0.0000001:5", "0.000001:5", "1.1234567", "123:", ":123", "12.5:3.25"} {
			check([]byte(s))
		}
	}
}

// frameCheck is a SetValidator that, after every segment, holds frameOf to
// ruleFrame for every rule of the set's guide (it does not fork: every set
// is checked on the one Validator).
type frameCheck struct {
	sv     *SetValidator
	t      testing.TB
	name   string
	placed int // rules frameOf looks up by level (r.at set)
}

func (c *frameCheck) BeginSet(h x12.SetHeader, report func(x12.Finding)) { c.sv.BeginSet(h, report) }
func (c *frameCheck) EndSet(report func(x12.Finding))                    { c.sv.EndSet(report) }

func (c *frameCheck) Segment(seg *x12.Segment, position int, report func(x12.Finding)) {
	c.sv.Segment(seg, position, report)
	v := c.sv.v
	if !c.sv.active || v.g == nil {
		return
	}
	for _, r := range v.g.rules {
		if r.at != nil {
			c.placed++
		}
		f1, lr1 := v.frameOf(r)
		f2, lr2 := v.ruleFrame(r)
		if f1 != f2 || lr1 != lr2 {
			c.t.Fatalf("%s: segment %d (%s): frameOf(%s) = %p, %p; ruleFrame %p, %p", c.name, position, seg.ID(), r.ID, f1, lr1, f2, lr2)
		}
	}
}

// TestFrameOfAgrees: frameOf finds the frame ruleFrame finds, for every
// rule after every segment of the corpus and of generated files.
func TestFrameOfAgrees(t *testing.T) {
	t.Parallel()
	placed := 0
	check := func(name string, data []byte) {
		c := &frameCheck{sv: NewSetValidator(Options{}), t: t, name: name}
		if _, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Sets: c, NoTree: true}); err != nil {
			t.Logf("%s: %v", name, err)
		}
		placed += c.placed
	}
	eachCorpusFile(t, check)
	for name, data := range fastPathSamples(t, 12) {
		check(name, data)
	}
	if placed == 0 {
		t.Fatal("no rule placed by level: frameOf was not tried")
	}
	t.Logf("%d looks of a rule placed by level", placed)
}

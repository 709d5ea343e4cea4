package guide

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/x12gen"
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

// agreeSets is a SetValidator that, after every segment the fast path
// scanned and placed, holds elementsOK (checkSegment first) to
// elementsOKGo, the same checks in Go that other architectures make.
type agreeSets struct {
	*SetValidator
	t       testing.TB
	name    string
	checked int
}

func (a *agreeSets) Segment(seg *x12.Segment, position int, report func(x12.Finding)) {
	a.SetValidator.Segment(seg, position, report)
	v := a.v
	if position == 1 || !a.active || !v.f.fast || v.last.Segment == nil {
		return
	}
	def := v.last.Segment
	if got, want := v.elementsOK(def), v.elementsOKGo(def); got != want {
		a.t.Fatalf("%s: %q as %s: elementsOK %v, elementsOKGo %v", a.name, seg.Unsplit(), def.ID, got, want)
	}
	a.checked++
}

// TestElementsOKGoAgrees: on the files TestFastPathAgrees reads (the
// corpus, generated files, every one-byte mutation of a generated 837P),
// the Go checks agree with checkSegment's on every segment.
func TestElementsOKGoAgrees(t *testing.T) {
	t.Parallel()
	checked := 0
	agree := func(name string, data []byte) {
		a := &agreeSets{SetValidator: NewSetValidator(Options{}), t: t, name: name}
		if _, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Sets: a, NoTree: true, Workers: 1}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		checked += a.checked
	}
	eachCorpusFile(t, agree)
	for name, data := range fastPathSamples(t, 12) {
		agree(name, data)
	}
	for _, kind := range []x12gen.Kind{x12gen.Claims837P, x12gen.Remittances835, x12gen.Inquiries270} {
		var buf bytes.Buffer
		if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: kind, Items: 1, Seed: 3}); err != nil {
			t.Fatal(err)
		}
		data := buf.Bytes()
		for i := 106; i < len(data); i++ {
			if kind == x12gen.Claims837P {
				for _, c := range []byte{'*', ':', '^', '~', ' ', 'X', '9', '.', '-'} {
					if data[i] != c {
						mut := bytes.Clone(data)
						mut[i] = c
						agree("mutated", mut)
					}
				}
			}
			// Each element or component emptied, for the required
			// elements and the syntax rules.
			if c := data[i]; c == '*' || c == ':' {
				j := i + 1
				for j < len(data) && data[j] != '*' && data[j] != ':' && data[j] != '~' {
					j++
				}
				if j > i+1 {
					agree("emptied", append(bytes.Clone(data[:i+1]), data[j:]...))
				}
			}
		}
	}
	// Every month and day around the valid ones, in leap and other years
	// (checkSegment reads D8 dates itself), and the other formats.
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: 1, Seed: 3}); err != nil {
		t.Fatal(err)
	}
	data := buf.Bytes()
	at := bytes.Index(data, []byte("DTP*472*D8*")) + len("DTP*472*")
	if at < len("DTP*472*") {
		t.Fatal("no DTP*472*D8 in the generated 837P")
	}
	for _, y := range []string{"1900", "2000", "2023", "2024"} {
		for m := range 14 {
			for d := range 33 {
				date := fmt.Sprintf("D8*%s%02d%02d", y, m, d)
				agree(date, append(append(bytes.Clone(data[:at]), date...), data[at+len(date):]...))
			}
		}
	}
	// Numbers around the word checkSegment reads them in (SV102 a
	// decimal amount, SV104 a quantity, LX01 an integer).
	numbers := []string{"", "0", "1", "-1", "1.5", ".5", "5.", "-", ".", "1.2.3", "12A", "-.5", "1-2", "1234567",
		"12345678", "123456.7", "-123456", "--1", "1..2", "0.000001", "9999999999", "1 2", "A", "-0", "1.", "+1", "1e5"}
	for _, target := range []struct {
		id  string
		pos int
	}{{"SV1", 2}, {"SV1", 4}, {"LX", 1}} {
		at := bytes.Index(data, []byte("~"+target.id+"*")) + 1
		if at == 0 {
			t.Fatalf("no %s in the generated 837P", target.id)
		}
		for range target.pos {
			at += bytes.IndexByte(data[at:], '*') + 1
		}
		end := at + bytes.IndexAny(data[at:], "*~")
		for _, n := range numbers {
			agree(target.id+" "+n, append(append(bytes.Clone(data[:at]), n...), data[end:]...))
		}
	}
	// Composites whose separators fall on every byte around the word
	// checkSegment reads them in (SV101, CLM05).
	composites := []string{"HC:99213", "HC:99213:25", "HC:99213:25:59:76:77", "HC:99213:25:59:76:77:78", ":", "HC:",
		"HC::25", ":99213", "HC:1234567:25", "HC:12345678:25", "HC:123456789012:25", "HC:1234567890123:25",
		"HC:99213:2", "HCPCS:99213", "HC:99213:25:", "11:B:1", "11:B", "11::1", "11:B:1:9", "1:B:1", "111:B:1"}
	for _, target := range []string{"SV1", "CLM"} {
		at := bytes.Index(data, []byte("~"+target+"*")) + len(target) + 2
		if target == "CLM" {
			for range 4 {
				at += bytes.IndexByte(data[at:], '*') + 1
			}
		}
		end := at + bytes.IndexAny(data[at:], "*~")
		for _, c := range composites {
			agree(target+" "+c, append(append(bytes.Clone(data[:at]), c...), data[end:]...))
		}
	}
	for _, f := range []string{"RD8*20240101-20240102", "DT*202401011200", "D6*240101", "TM*1200", "ZZ*20240101", "D*20240101", "DTMZ*1"} {
		agree(f, append(append(bytes.Clone(data[:at]), f...), data[at+len("D8*20240101"):]...))
	}
	if checked < 10000 {
		t.Fatalf("only %d segments checked", checked)
	}
	t.Logf("%d segments checked", checked)
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

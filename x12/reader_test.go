package x12_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/clearhouse/clearhouse/x12"
)

const isaStar = "ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *240101*1200*^*00501*000000001*0*T*:~"

// readAll returns "ID@offset" for each segment and the final error.
func readAll(t *testing.T, in string, opts ...x12.ReaderOption) ([]string, []*x12.Segment, error) {
	t.Helper()
	r := x12.NewReader(strings.NewReader(in), opts...)
	var got []string
	var segs []*x12.Segment
	for {
		s, err := r.Next()
		if err == io.EOF {
			return got, segs, nil
		}
		if err != nil {
			return got, segs, err
		}
		got = append(got, s.ID()+"@"+strconv.FormatInt(s.Offset(), 10))
		segs = append(segs, s.Clone())
	}
}

func TestReaderSegmentsAndOffsets(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want []string
	}{
		{"one line", isaStar + "GS*HS*A*B*20240101*1200*1*X*005010X279A1~ST*270*0001~SE*2*0001~",
			[]string{"ISA@0", "GS@106", "ST@147", "SE@159"}},
		{"CRLF and indentation", isaStar + "\r\n  GS*HS~\r\n\tST*270~\n",
			[]string{"ISA@0", "GS@110", "ST@119"}},
		{"BOM", "\xEF\xBB\xBF" + isaStar + "GS*X~", []string{"ISA@3", "GS@109"}},
		{"leading whitespace", "\n\n " + isaStar + "GS*X~", []string{"ISA@3", "GS@109"}},
		{"two interchanges with different delimiters", isaStar + "IEA*0*000000001~" +
			strings.NewReplacer("*", "|", "~", "\n", ":", ">").Replace(isaStar) + "IEA|0|000000001\n",
			[]string{"ISA@0", "IEA@106", "ISA@122", "IEA@228"}},
		{"ISA inside data is not a header", isaStar + "NM1*IL*1*LISA*ISA~N3*ISA*1~",
			[]string{"ISA@0", "NM1@106", "N3@124"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, _, err := readAll(t, tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("got  %v\nwant %v", got, tt.want)
			}
		})
	}
}

func TestReaderDelimiters(t *testing.T) {
	tests := []struct {
		name string
		isa  string
		want x12.Delimiters
	}{
		{"standard", isaStar, x12.Delimiters{Element: '*', Repetition: '^', Component: ':', Segment: '~'}},
		{"4010 has no repetition", strings.Replace(isaStar, "*^*00501", "*U*00401", 1),
			x12.Delimiters{Element: '*', Component: ':', Segment: '~'}},
		{"5010 with U is read without repetition", strings.Replace(isaStar, "*^*", "*U*", 1),
			x12.Delimiters{Element: '*', Component: ':', Segment: '~'}},
		{"CR terminator", strings.Replace(isaStar, ":~", ":\r", 1),
			x12.Delimiters{Element: '*', Repetition: '^', Component: ':', Segment: '\r'}},
		{"control character terminator", strings.Replace(isaStar, ":~", ":\x1d", 1),
			x12.Delimiters{Element: '*', Repetition: '^', Component: ':', Segment: '\x1d'}},
		{"tilde element, underscore terminator", strings.NewReplacer("*", "~", "~", "_").Replace(isaStar),
			x12.Delimiters{Element: '~', Repetition: '^', Component: ':', Segment: '_'}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := x12.NewReader(strings.NewReader(tt.isa))
			if _, err := r.Next(); err != nil {
				t.Fatal(err)
			}
			if got := r.Delimiters(); got != tt.want {
				t.Errorf("got %s, want %s", got, tt.want)
			}
		})
	}
}

func TestReaderRelaxedAndStrictISA(t *testing.T) {
	short := strings.Replace(isaStar, "*          *00*", "*         *00*", 1) // ISA02 9 chars
	r := x12.NewReader(strings.NewReader(short + "GS*X~"))
	if _, err := r.Next(); err != nil {
		t.Fatalf("relaxed: %v", err)
	}
	fs := r.TakeFindings()
	if len(fs) != 1 || fs[0].Code != x12.CodeISAWidth || fs[0].TA1 != "011" || fs[0].Element != 2 {
		t.Errorf("relaxed findings = %v, want one isa.field-width on ISA02 with TA1 011", fs)
	}
	if s, err := r.Next(); err != nil || s.ID() != "GS" {
		t.Errorf("after relaxed ISA: %v %v", s, err)
	}
	_, err := x12.NewReader(strings.NewReader(short), x12.WithStrictISA()).Next()
	var se *x12.SyntaxError
	if !errors.As(err, &se) || se.Code != x12.CodeISAMalformed {
		t.Errorf("strict: err = %v, want isa.malformed", err)
	}
}

func TestReaderHardWrapped(t *testing.T) {
	in := isaStar[:50] + "\n" + isaStar[50:] + "GS*HS*A\n*B~ST*270*00\r\n01~"
	_, segs, err := readAll(t, in)
	if err != nil {
		t.Fatal(err)
	}
	if len(segs) != 3 {
		t.Fatalf("got %d segments", len(segs))
	}
	if got := segs[0].Element(6); got != "SENDER         " {
		t.Errorf("ISA06 = %q", got)
	}
	if got := segs[1].Element(3); got != "B" {
		t.Errorf("GS03 = %q", got)
	}
	if got := segs[2].Element(2); got != "0001" {
		t.Errorf("ST02 = %q", got)
	}
}

func TestReaderBareFragment(t *testing.T) {
	in := "ST*270*1234*005010X279A1~\nBHT*0022*13~\nSE*3*1234~\n"
	if _, _, err := readAll(t, in); err == nil {
		t.Fatal("bare fragment without delimiters: want an error")
	}
	got, _, err := readAll(t, in, x12.WithDelimiters(x12.DefaultDelimiters))
	if err != nil {
		t.Fatal(err)
	}
	if want := "ST@0 BHT@26 SE@39"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

func TestReaderUnterminatedLastSegment(t *testing.T) {
	r := x12.NewReader(strings.NewReader(isaStar + "IEA*0*000000001\r\n"))
	r.Next()
	s, err := r.Next()
	if err != nil || !s.Unterminated() || s.Element(2) != "000000001" {
		t.Fatalf("got %v %v", s, err)
	}
	if fs := r.TakeFindings(); len(fs) != 1 || fs[0].Code != x12.CodeUnterminated {
		t.Errorf("findings %v", fs)
	}
	if _, err := r.Next(); err != io.EOF {
		t.Errorf("want EOF, got %v", err)
	}
}

func TestReaderUTF16(t *testing.T) {
	text := isaStar + "GS*HS~"
	u := utf16.Encode([]rune(text))
	var b bytes.Buffer
	binary.Write(&b, binary.LittleEndian, u)
	got, _, err := readAll(t, b.String())
	if err != nil {
		t.Fatal(err)
	}
	if want := "ISA@0 GS@106"; strings.Join(got, " ") != want {
		t.Errorf("got %v, want %s", got, want)
	}
}

func TestReaderSmallBufferLongSegments(t *testing.T) {
	long := strings.Repeat("X", 3000)
	in := isaStar + "NTE*" + long + "~" + "NTE*" + long + "*" + long + "~"
	r := x12.NewReader(strings.NewReader(in), x12.WithBufferSize(512))
	r.Next()
	for i := 0; i < 2; i++ {
		s, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if s.Element(1) != long || s.Len() != i+1 {
			t.Fatalf("segment %d: len %d", i, s.Len())
		}
	}
	tooLong := x12.NewReader(strings.NewReader(in), x12.WithBufferSize(512), x12.WithMaxSegmentSize(1024))
	tooLong.Next()
	if _, err := tooLong.Next(); err == nil || !strings.Contains(err.Error(), "too long") {
		t.Errorf("max segment size: err = %v", err)
	}
}

func TestSegmentAccessors(t *testing.T) {
	_, segs, err := readAll(t, isaStar+"EB*1*IND*30^1^35*HM**23*1:2:3~")
	if err != nil {
		t.Fatal(err)
	}
	s := segs[1]
	checks := []struct{ got, want string }{
		{s.ID(), "EB"}, {s.Element(0), "EB"}, {s.Element(2), "IND"}, {s.Element(5), ""},
		{s.Element(9), ""}, {s.Component(7, 2), "2"}, {s.Component(7, 4), ""}, {s.Component(2, 1), "IND"},
		{strings.Join(s.Repetitions(3), ","), "30,1,35"}, {string(s.Raw()), "EB*1*IND*30^1^35*HM**23*1:2:3"},
	}
	for i, c := range checks {
		if c.got != c.want {
			t.Errorf("check %d: got %q, want %q", i, c.got, c.want)
		}
	}
	if s.Len() != 7 {
		t.Errorf("Len = %d", s.Len())
	}
	line, col := x12.NewReader(strings.NewReader("")).LineCol(0)
	if line != 1 || col != 1 {
		t.Errorf("LineCol(0) = %d,%d", line, col)
	}
}

func TestReaderLineCol(t *testing.T) {
	r := x12.NewReader(strings.NewReader(isaStar + "\nGS*A~\n  ST*B~"))
	var got []int
	for s, err := range r.Segments() {
		if err != nil {
			t.Fatal(err)
		}
		l, c := r.LineCol(s.Offset())
		got = append(got, l, c)
	}
	if want := []int{1, 1, 2, 1, 3, 3}; !equalInts(got, want) {
		t.Errorf("line/col = %v, want %v", got, want)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestReaderLineBreakAfterCleanBuffers checks that a wrapped segment is
// still unwrapped when earlier buffers held no line breaks at all.
func TestReaderLineBreakAfterCleanBuffers(t *testing.T) {
	clean := strings.Repeat("NTE*ADD*"+strings.Repeat("X", 40)+"~", 40)
	in := isaStar + clean + "NM1*IL*1*DO\nE~" + clean
	r := x12.NewReader(strings.NewReader(in), x12.WithBufferSize(512))
	found := false
	for s, err := range r.Segments() {
		if err != nil {
			t.Fatal(err)
		}
		if s.Is("NM1") {
			found = true
			if got := s.Element(3); got != "DOE" {
				t.Errorf("NM103 = %q, want DOE", got)
			}
		}
	}
	if !found {
		t.Fatal("NM1 not read")
	}
}

func TestReaderSegmentsIteratorStopsOnError(t *testing.T) {
	n, errs := 0, 0
	for s, err := range x12.NewReader(strings.NewReader("GS*A~")).Segments() {
		if err != nil {
			errs++
			continue
		}
		n += len(s.IDBytes())
	}
	if n != 0 || errs != 1 {
		t.Errorf("segments %d, errors %d; want 0 and 1", n, errs)
	}
}

// TestElementSplitMatchesNaive compares the word-at-a-time element split
// with bytes.Split on random segments of every length; with a small buffer
// some segments end at the buffer's end, where no bytes follow them.
func TestElementSplitMatchesNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("AB*:^ 0")
	var in strings.Builder
	var want [][]string
	in.WriteString(isaStar)
	for range 3000 {
		seg := []byte("NTE")
		for range rng.IntN(40) {
			seg = append(seg, alphabet[rng.IntN(len(alphabet))])
		}
		in.Write(seg)
		in.WriteByte('~')
		var elems []string
		for _, e := range bytes.Split(seg, []byte{'*'})[1:] {
			elems = append(elems, string(e))
		}
		want = append(want, elems)
	}
	r := x12.NewReader(strings.NewReader(in.String()), x12.WithBufferSize(1024))
	r.Next()
	for i, w := range want {
		s, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		c := s.Clone()
		if got := s.Elements(); !slices.Equal(got, w) {
			t.Fatalf("segment %d %q: elements %q, want %q", i, s.Raw(), got, w)
		}
		if got := c.Elements(); !slices.Equal(got, w) {
			t.Fatalf("clone of segment %d: elements %q, want %q", i, got, w)
		}
	}
}

// TestIDBytesMatchesSplit compares the fast path of IDBytes (before any
// split) with the id the full split finds, on random ids of 1 to 5 bytes
// with separators, padding and line breaks near them.
func TestIDBytesMatchesSplit(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	alphabet := []byte("AB0* \n\r")
	var in strings.Builder
	var want []string
	in.WriteString(isaStar)
	for range 5000 {
		seg := []byte{"NRS"[rng.IntN(3)]} // the reader skips blanks before a segment
		for range rng.IntN(5) {
			seg = append(seg, alphabet[rng.IntN(len(alphabet))])
		}
		seg = append(seg, "*X*Y"[:rng.IntN(5)]...)
		in.Write(seg)
		in.WriteByte('~')
		flat := strings.NewReplacer("\n", "", "\r", "").Replace(string(seg))
		want = append(want, strings.TrimRight(strings.Split(flat, "*")[0], " "))
	}
	r := x12.NewReader(strings.NewReader(in.String()))
	r.Next()
	for i, w := range want {
		s, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		if got := string(s.IDBytes()); got != w {
			t.Fatalf("segment %d %q: IDBytes %q, want %q", i, s.Raw(), got, w)
		}
		s.Len() // split
		if got := string(s.IDBytes()); got != w {
			t.Fatalf("segment %d %q: IDBytes after the split %q, want %q", i, s.Raw(), got, w)
		}
	}
}

// End is the offset of the segment's terminator in the input's bytes: line
// breaks of a hard-wrapped segment and blanks padding a line-terminated one
// count; an unterminated last segment ends at the input's end.
func TestReaderSegmentEnd(t *testing.T) {
	tests := []struct {
		name, in string
		want     []int64 // End of every segment
	}{
		{"tilde", isaStar + "GS*HS*A*B~ST*270*0001~", []int64{105, 115, 127}},
		{"tilde and LF", isaStar + "\nGS*HS*A*B~\nST*270*0001~\n", []int64{105, 116, 129}},
		{"hard-wrapped", isaStar + "GS*HS*A\n*B~ST*270*00\r\n01~", []int64{105, 116, 130}},
		{"unterminated last", isaStar + "GS*HS*A*B~ST*270*0001\n", []int64{105, 115, 127}},
		{"line terminator with padding", strings.Replace(isaStar, ":~", ":\n", 1) + "GS*HS*A*B  \nST*270*0001\n", []int64{105, 117, 129}},
		{"BOM", "\uFEFF" + isaStar + "GS*HS*A*B~", []int64{108, 118}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, segs, err := readAll(t, tc.in)
			if err != nil {
				t.Fatal(err)
			}
			var got []int64
			for _, s := range segs {
				got = append(got, s.End())
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("ends %v, want %v", got, tc.want)
			}
		})
	}
}

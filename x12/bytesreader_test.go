package x12_test

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/clearhouse/clearhouse/x12"
)

// readTrace is everything a reader tells about an input: each segment's id,
// offsets, bytes and elements, its findings, the line and column of each
// segment, and the error that ended the reading.
func readTrace(r *x12.Reader) string {
	var b strings.Builder
	for range 1 << 16 {
		s, err := r.Next()
		if err != nil {
			fmt.Fprintf(&b, "end: %v\n", err)
			break
		}
		line, col := r.LineCol(s.Offset())
		fmt.Fprintf(&b, "%q @%d-%d %d:%d unterminated=%v raw=%q", s.ID(), s.Offset(), s.End(), line, col, s.Unterminated(), s.Raw())
		for i := 1; i <= s.Len(); i++ {
			fmt.Fprintf(&b, " %q", s.ElementBytes(i))
		}
		b.WriteByte('\n')
		for _, f := range r.TakeFindings() {
			fmt.Fprintf(&b, "finding %+v\n", f)
		}
	}
	for _, f := range r.TakeFindings() {
		fmt.Fprintf(&b, "finding %+v\n", f)
	}
	return b.String()
}

// sameAsBuffered fails unless NewBytesReader reads data exactly as
// NewReader over a bytes.Reader does, and leaves data as it was.
func sameAsBuffered(t *testing.T, data []byte, opts ...x12.ReaderOption) {
	t.Helper()
	kept := bytes.Clone(data)
	want := readTrace(x12.NewReader(bytes.NewReader(data), opts...))
	got := readTrace(x12.NewBytesReader(data, opts...))
	if got != want {
		t.Fatalf("NewBytesReader read\n%s\nNewReader read\n%s", got, want)
	}
	if !bytes.Equal(data, kept) {
		t.Fatal("NewBytesReader changed its input")
	}
}

func utf16Bytes(s string, order binary.AppendByteOrder, bom bool) []byte {
	var b []byte
	if bom {
		b = order.AppendUint16(b, 0xFEFF)
	}
	for _, u := range utf16.Encode([]rune(s)) {
		b = order.AppendUint16(b, u)
	}
	return b
}

func TestBytesReaderMatchesReader(t *testing.T) {
	st := "ST*270*0001*005010X279A1~BHT*0022*13*10001234*20240101*1319~SE*3*0001~"
	long := isaStar + "GS*HS*A*B*20240101*1200*1*X*005010X279A1~" + "MSG*" + strings.Repeat("A", 5000) + "~GE*1*1~IEA*1*000000001~"
	tests := []struct {
		name string
		in   []byte
		opts []x12.ReaderOption
	}{
		{"empty", nil, nil},
		{"interchange", []byte(isaStar + st + "IEA*1*000000001~"), nil},
		{"BOM and line breaks", []byte("\xEF\xBB\xBF" + isaStar + "\n" + st + "\r\nIEA*1*000000001~\n"), nil},
		{"hard-wrapped", []byte(isaStar + "ST*270*00\n01*005010X279A1~BHT*00\r\n22~IEA*1*000000001~"), nil},
		{"line terminator, padded", []byte(strings.ReplaceAll(isaStar, "~", "\n") + "ST*270*1   \nSE*2*1\n"), nil},
		{"unterminated", []byte(isaStar + "ST*270*0001"), nil},
		{"bare fragment", []byte(st), []x12.ReaderOption{x12.WithDelimiters(x12.DefaultDelimiters)}},
		{"no ISA", []byte(st), nil},
		{"strict ISA refused", []byte("ISA *00*x~"), []x12.ReaderOption{x12.WithStrictISA()}},
		{"relaxed ISA", []byte("ISA *00*          *00*          *ZZ*S*ZZ*R*240101*1200*^*00501*1*0*T*:~ST*1~"), nil},
		{"UTF-16 LE", utf16Bytes(isaStar+st, binary.LittleEndian, true), nil},
		{"UTF-16 BE", utf16Bytes(isaStar+st, binary.BigEndian, true), nil},
		{"long segment", []byte(long), nil},
		{"segment over the maximum", []byte(long), []x12.ReaderOption{x12.WithMaxSegmentSize(4096)}},
		{"input of the maximum", []byte(long), []x12.ReaderOption{x12.WithMaxSegmentSize(len(long))}},
		{"input one under the maximum", []byte(long), []x12.ReaderOption{x12.WithMaxSegmentSize(len(long) + 1)}},
		{"small buffer asked for", []byte(long), []x12.ReaderOption{x12.WithBufferSize(512)}},
		{"ISA cut short", []byte(isaStar[:60]), nil},
		{"two interchanges", []byte(isaStar + st + "IEA*1*000000001~" + strings.ReplaceAll(isaStar, "*", "|") + "ST|1~"), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { sameAsBuffered(t, tt.in, tt.opts...) })
	}
}

// FuzzBytesReader holds NewBytesReader to NewReader on any input.
func FuzzBytesReader(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		sameAsBuffered(t, data, fuzzReaderOptions(mode)...)
	})
}

// The element index of a segment is sized to its elements, not its bytes,
// and a reader over bytes neither copies them nor interns common ids: reading
// a few segments allocates little whatever their length.
func TestReaderElementIndexAllocations(t *testing.T) {
	in := []byte(isaStar + "ST*271*0001~MSG*" + strings.Repeat("X", 2000) + "~SE*3*0001~")
	read := func() {
		r := x12.NewBytesReader(in)
		for {
			s, err := r.Next()
			if err != nil {
				break
			}
			_ = s.ID()
			_ = s.Len()
		}
	}
	// The reader, its element index and the ISA's version string.
	if allocs := testing.AllocsPerRun(20, read); allocs > 3 {
		t.Errorf("reading 4 segments allocated %v times, want ≤ 3", allocs)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	const runs = 20
	for range runs {
		read()
	}
	runtime.ReadMemStats(&after)
	if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 2048 {
		t.Errorf("reading 4 segments allocated %d bytes, want ≤ 2048 (not an index the size of the 2 KB segment, nor a copy)", per)
	}
}

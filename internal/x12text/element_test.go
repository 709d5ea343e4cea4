package x12text

import (
	"bytes"
	"io"
	"slices"
	"testing"
	"unsafe"

	"github.com/clearhouse/clearhouse/x12"
)

// TestElementString: every element and component of a 270 read in place
// comes back as its bytes, as a slice of the text when the reader left
// them where they are (plain input, behind a BOM, line-terminated) and as
// a copy otherwise (hard-wrapped segments, UTF-16), and never a slice of
// other bytes.
func TestElementString(t *testing.T) {
	msg := []byte("ISA*00*          *00*          *ZZ*CLEARHOUSE     *ZZ*87726          *240801*0930*^*00501*000000101*0*T*:~" +
		"GS*HS*CLEARHOUSE*87726*20240801*0930*101*X*005010X279A1~ST*270*0001*005010X279A1~BHT*0022*13*01J0TRACE*20240801*0930~" +
		"HL*1**20*1~NM1*PR*2*UNITEDHEALTHCARE*****PI*87726~HL*2*1*21*1~NM1*1P*2*CLINIC*****XX*1999999984~HL*3*2*22*0~" +
		"TRN*1*01J0TRACE*9CLEARHOUS~NM1*IL*1*DOE*JANE****MI*UHC123456~DMG*D8*19710101*F~EQ*30^1:2*HC:99213~SE*12*0001~GE*1*101~IEA*1*000000101~")
	wrapped := bytes.Clone(msg) // a line break every 60 bytes, inside segments
	for i := 60; i < len(wrapped); i += 61 {
		wrapped = slices.Insert(wrapped, i, '\n')
	}
	utf16 := []byte{0xFF, 0xFE}
	for _, c := range msg {
		utf16 = append(utf16, c, 0)
	}
	for _, tt := range []struct {
		name   string
		in     []byte
		sliced bool
	}{
		{"as sent", msg, true},
		{"BOM", append([]byte("\xEF\xBB\xBF"), msg...), true},
		{"CRLF", bytes.ReplaceAll(msg, []byte("~"), []byte("~\r\n")), true},
		{"hard-wrapped", wrapped, false},
		{"UTF-16", utf16, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			text := string(tt.in)
			lo, hi := uintptr(unsafe.Pointer(unsafe.StringData(text))), uintptr(unsafe.Pointer(unsafe.StringData(text)))+uintptr(len(text))
			slices, copies := 0, 0
			r := x12.NewBytesReader(tt.in)
			for {
				seg, err := r.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				for n := 1; n <= seg.Len(); n++ {
					bs := [][]byte{seg.ElementBytes(n)}
					for c := 1; c <= 3; c++ {
						bs = append(bs, seg.ComponentBytes(n, c))
					}
					for _, b := range bs {
						got := ElementString(text, seg, b)
						if got != string(b) {
							t.Fatalf("%s%02d: %q, want %q", seg.ID(), n, got, b)
						}
						if got == "" {
							continue
						}
						if p := uintptr(unsafe.Pointer(unsafe.StringData(got))); p >= lo && p < hi {
							slices++
						} else {
							copies++
						}
					}
				}
			}
			if tt.sliced && copies > 0 || slices+copies == 0 {
				t.Errorf("%d slices of the text, %d copies", slices, copies)
			}
		})
	}
}

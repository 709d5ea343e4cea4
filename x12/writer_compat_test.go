package x12

import (
	"bytes"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestGroupDateOutsideFourDigitYears: GS04, GS05 and GS06 (and GE02) are
// time's "20060102", "1504" and the control number in decimal for any year,
// as they were before BeginGroup formatted them as one string: a year
// outside 0–9999 has more or fewer than 8 date digits (review of 829ee9d).
func TestGroupDateOutsideFourDigitYears(t *testing.T) {
	for _, at := range []time.Time{
		time.Date(10000, 1, 1, 1, 2, 0, 0, time.UTC),
		time.Date(123456, 7, 8, 9, 10, 0, 0, time.UTC),
		time.Date(-1, 6, 1, 12, 0, 0, 0, time.UTC),
		time.Date(-20000, 12, 31, 23, 59, 0, 0, time.FixedZone("w", -11*3600)),
	} {
		for _, n := range []int64{7, 999999999, -5} {
			var buf bytes.Buffer
			iw := NewInterchangeWriter(&buf, DefaultDelimiters, nil)
			if err := iw.BeginInterchange(InterchangeHeader{SenderID: "S", ReceiverID: "R", Date: time.Date(2026, 11, 26, 0, 0, 0, 0, time.UTC), ControlNumber: 1}); err != nil {
				t.Fatal(err)
			}
			if err := iw.BeginGroup(GroupHeader{FunctionalID: "HS", SenderCode: "S", ReceiverCode: "R", Date: at, Version: "005010X279A1", ControlNumber: n}); err != nil {
				t.Fatal(err)
			}
			if err := iw.EndGroup(); err != nil {
				t.Fatal(err)
			}
			cn := strconv.FormatInt(n, 10)
			want := "GS*HS*S*R*" + at.Format("20060102") + "*" + at.Format("1504") + "*" + cn + "*X*005010X279A1~GE*0*" + cn + "~"
			if got := buf.String()[strings.Index(buf.String(), "GS*"):]; got != want {
				t.Errorf("%v, control %d:\n got %q\nwant %q", at, n, got, want)
			}
			if iw.Controls().Group != cn {
				t.Errorf("%v: Controls().Group = %q, want %q", at, iw.Controls().Group, cn)
			}
		}
	}
}

// TestRepetitionSeparatorAboveASCII: a repetition separator of 0x80 or
// above is refused by BeginInterchange with the error it always had (the
// separator was converted as a rune, two bytes in UTF-8, longer than ISA11),
// not written as one byte (review of 829ee9d).
func TestRepetitionSeparatorAboveASCII(t *testing.T) {
	for _, c := range []byte{0x80, 0x85, 0xa0, 0xff} {
		d := Delimiters{Element: '*', Repetition: c, Component: ':', Segment: '~'}
		var buf bytes.Buffer
		iw := NewInterchangeWriter(&buf, d, nil)
		err := iw.BeginInterchange(InterchangeHeader{SenderID: "S", ReceiverID: "R", ControlNumber: 1})
		want := "x12: ISA11 " + strconv.Quote(string(rune(c))) + " is longer than 1 characters"
		if err == nil || err.Error() != want {
			t.Errorf("repetition %#x: error %v, want %s", c, err, want)
		}
		if buf.Len() != 0 {
			t.Errorf("repetition %#x: wrote %q", c, buf.String())
		}
	}
}

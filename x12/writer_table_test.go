package x12

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// TestBadBytesMatchesTheDelimiters holds badChar's table to what it stands
// for — the element, segment and component separators, the repetition
// separator when set, LF and CR — for the usual delimiters (whose table is
// shared) and for random ones, some of them invalid.
func TestBadBytesMatchesTheDelimiters(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	ds := []Delimiters{DefaultDelimiters, usualDelimiters, {Element: '|', Component: '>', Segment: '\n'}, {Element: '*', Component: ':', Segment: '~'}}
	for range 500 {
		ds = append(ds, Delimiters{Element: byte(rng.IntN(256)), Repetition: byte(rng.IntN(4)) * byte(rng.IntN(256)),
			Component: byte(rng.IntN(256)), Segment: byte(rng.IntN(256))})
	}
	for _, d := range ds {
		w := NewWriter(&bytes.Buffer{}, d)
		for c := range 256 {
			b := byte(c)
			want := b == d.Element || b == d.Segment || b == d.Component || (d.Repetition != 0 && b == d.Repetition) || b == '\n' || b == '\r'
			if got, bad := w.badChar(string([]byte{b})); bad != want || (bad && got != b) {
				t.Fatalf("delimiters %q: byte %#x refused %v (%#x), want %v", []byte{d.Element, d.Repetition, d.Component, d.Segment}, b, bad, got, want)
			}
		}
	}
}

// TestWriterToMemoryAsToAStream: a Writer on a *bytes.Buffer appends to it
// directly; what it writes and counts, errors included, is what a Writer on
// any other io.Writer writes once flushed.
func TestWriterToMemoryAsToAStream(t *testing.T) {
	write := func(w *InterchangeWriter) []error {
		at := time.Date(2026, 11, 26, 23, 5, 0, 0, time.UTC)
		errs := []error{
			w.BeginInterchange(InterchangeHeader{SenderID: "SENDER", ReceiverID: "RECEIVER", Date: at, Usage: "T", ControlNumber: 42}),
			w.BeginGroup(GroupHeader{FunctionalID: "HS", SenderCode: "S", ReceiverCode: "R", Date: at, Version: "005010X279A1", ControlNumber: 7}),
			w.BeginTransaction("270", "005010X279A1"),
			w.WriteSegment("BHT", "0022", "13", "REF", "20261126", "2305"),
			w.WriteSegment("NM1", "IL", "1", "D*E"),
			w.WriteSegment("nm1", "IL"),
			w.WriteRaw([]byte("HL*1**20*1")),
			w.WriteSegmentFields("EQ", Repeated(Simple("30"), Simple("1"))),
			w.EndTransaction(), w.EndGroup(), w.EndInterchange(),
		}
		return errs
	}
	var mem bytes.Buffer
	var stream strings.Builder
	numbers := func() ControlNumbers { return &SequentialControlNumbers{Transaction: 12344} }
	wm, ws := NewInterchangeWriter(&mem, DefaultDelimiters, numbers()), NewInterchangeWriter(&stream, DefaultDelimiters, numbers())
	em, es := write(wm), write(ws)
	if fmt.Sprint(em) != fmt.Sprint(es) {
		t.Fatalf("errors to memory %v, to a stream %v", em, es)
	}
	if mem.String() != stream.String() || wm.BytesWritten() != ws.BytesWritten() || wm.Count() != ws.Count() {
		t.Fatalf("to memory (%d bytes, %d segments):\n%s\nto a stream (%d, %d):\n%s", wm.BytesWritten(), wm.Count(), mem.String(), ws.BytesWritten(), ws.Count(), stream.String())
	}
	if !strings.Contains(mem.String(), "ST*270*12345*") || !strings.Contains(mem.String(), "GS*HS*S*R*20261126*2305*7*X*") {
		t.Fatalf("envelope: %s", mem.String())
	}
}

// TestTransactionControlAsSprintf: ST02 as fmt's "%04d" writes it.
func TestTransactionControlAsSprintf(t *testing.T) {
	for _, n := range []int64{-10000, -1, 0, 1, 9, 10, 99, 100, 999, 1000, 9999, 10000, 123456789, 999999999} {
		if got, want := transactionControl(n), fmt.Sprintf("%04d", n); got != want {
			t.Errorf("transactionControl(%d) = %q, want %q", n, got, want)
		}
	}
}

// TestAppendDateTimeAsTimeFormat: the X12 date and time digits as time's
// layouts write them, over years 0–9999 and beyond, in UTC and elsewhere.
func TestAppendDateTimeAsTimeFormat(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	zones := []*time.Location{time.UTC, time.FixedZone("east", 13*3600+45*60), time.FixedZone("west", -11*3600)}
	times := []time.Time{time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC),
		time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(-1, 6, 1, 12, 0, 0, 0, time.UTC), {}}
	for range 20000 {
		times = append(times, time.Unix(rng.Int64N(1<<40)-1<<39, 0).In(zones[rng.IntN(len(zones))]))
	}
	for _, at := range times {
		if got, want := string(AppendDateTime([]byte("x"), at)), "x"+at.Format("200601021504"); got != want {
			t.Fatalf("AppendDateTime(%v) = %q, want %q", at, got, want)
		}
		if got, want := string(appendISADateTime(nil, at)), at.Format("0601021504"); got != want {
			t.Fatalf("appendISADateTime(%v) = %q, want %q", at, got, want)
		}
	}
	for c := range 256 {
		if s := byteStrings[c:][:1]; s != string([]byte{byte(c)}) {
			t.Fatalf("byteStrings[%d] = %q", c, s)
		}
	}
}

// TestWriterToNilBuffer: a nil *bytes.Buffer is written through the
// stream path as before the memory path (a write to it panics, as it
// always did), not taken for a memory destination with nowhere to go.
func TestWriterToNilBuffer(t *testing.T) {
	var nilBuf *bytes.Buffer
	w := NewWriter(nilBuf, DefaultDelimiters)
	if w.mem != nil || w.w == nil {
		t.Fatalf("a nil *bytes.Buffer became the memory destination")
	}
}

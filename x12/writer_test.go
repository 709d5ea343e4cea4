package x12_test

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

func TestWriterSegments(t *testing.T) {
	tests := []struct {
		name  string
		write func(w *x12.Writer) error
		want  string
	}{
		{"simple", func(w *x12.Writer) error { return w.WriteSegment("NM1", "IL", "1", "DOE") }, "NM1*IL*1*DOE~"},
		{"trailing empty elements dropped", func(w *x12.Writer) error { return w.WriteSegment("REF", "EI", "123", "", "") }, "REF*EI*123~"},
		{"inner empty elements kept", func(w *x12.Writer) error { return w.WriteSegment("NM1", "85", "2", "", "", "", "", "", "XX", "1") },
			"NM1*85*2******XX*1~"},
		{"composite", func(w *x12.Writer) error {
			return w.WriteSegmentFields("CLM", x12.Simple("A"), x12.Simple("10"), x12.Simple(""), x12.Simple(""), x12.Composite("11", "B", "1"))
		}, "CLM*A*10***11:B:1~"},
		{"trailing empty components dropped", func(w *x12.Writer) error {
			return w.WriteSegmentFields("SV1", x12.Composite("HC", "99213", "", ""), x12.Simple("5"))
		}, "SV1*HC:99213*5~"},
		{"repetitions", func(w *x12.Writer) error {
			return w.WriteSegmentFields("EB", x12.Simple("1"), x12.Simple(""), x12.Repeated(x12.Simple("30"), x12.Composite("AL", "1")))
		}, "EB*1**30^AL:1~"},
		{"empty composite at end dropped", func(w *x12.Writer) error {
			return w.WriteSegmentFields("HI", x12.Composite("ABK", "J069"), x12.Composite("", ""))
		}, "HI*ABK:J069~"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := x12.NewWriter(&buf, x12.DefaultDelimiters)
			if err := tt.write(w); err != nil {
				t.Fatal(err)
			}
			if err := w.Flush(); err != nil {
				t.Fatal(err)
			}
			if buf.String() != tt.want {
				t.Errorf("got %q, want %q", buf.String(), tt.want)
			}
		})
	}
}

func TestWriterRefusesDelimitersInData(t *testing.T) {
	tests := []struct {
		name    string
		write   func(w *x12.Writer) error
		segment string
		element int
	}{
		{"element separator", func(w *x12.Writer) error { return w.WriteSegment("NM1", "IL", "1", "O*BRIEN") }, "NM1", 3},
		{"segment terminator", func(w *x12.Writer) error { return w.WriteSegment("N3", "APT 4~B") }, "N3", 1},
		{"component separator in a simple element", func(w *x12.Writer) error { return w.WriteSegment("REF", "EI", "12:3") }, "REF", 2},
		{"repetition separator in a component", func(w *x12.Writer) error {
			return w.WriteSegmentFields("SV1", x12.Composite("HC", "992^13"))
		}, "SV1", 1},
		{"line break", func(w *x12.Writer) error { return w.WriteSegment("NTE", "ADD", "two\nlines") }, "NTE", 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var buf bytes.Buffer
			w := x12.NewWriter(&buf, x12.DefaultDelimiters)
			err := tt.write(w)
			var de *x12.DataError
			if !errors.As(err, &de) || de.Segment != tt.segment || de.Element != tt.element {
				t.Fatalf("err = %v, want a DataError for %s%02d", err, tt.segment, tt.element)
			}
			if !strings.Contains(err.Error(), tt.segment) {
				t.Errorf("message %q does not name the segment", err)
			}
			w.Flush()
			if buf.Len() != 0 {
				t.Errorf("refused segment was written: %q", buf.String())
			}
		})
	}
}

func TestWriterOptionsAndChecks(t *testing.T) {
	var buf bytes.Buffer
	w := x12.NewWriter(&buf, x12.Delimiters{Element: '|', Component: '>', Segment: '\n'}, x12.WithLineBreaks())
	w.WriteSegment("ST", "270", "0001")
	if err := w.WriteSegmentFields("EQ", x12.Repeated(x12.Simple("30"), x12.Simple("1"))); err == nil {
		t.Error("repetitions without a repetition separator: want an error")
	}
	if err := w.WriteSegment("st", "x"); err == nil {
		t.Error("lower-case segment id: want an error")
	}
	w.Flush()
	if got := buf.String(); got != "ST|270|0001\n" {
		t.Errorf("got %q (no extra line break after a LF terminator)", got)
	}
	if err := x12.NewWriter(&buf, x12.Delimiters{Element: '*', Component: '*', Segment: '~'}).WriteSegment("ST"); err == nil {
		t.Error("duplicate delimiters: want an error")
	}
}

func TestInterchangeWriterOrderAndCounts(t *testing.T) {
	var buf bytes.Buffer
	iw := x12.NewInterchangeWriter(&buf, x12.DefaultDelimiters, &x12.SequentialControlNumbers{})
	if err := iw.BeginGroup(x12.GroupHeader{}); !errors.Is(err, x12.ErrEnvelopeOrder) {
		t.Errorf("BeginGroup before BeginInterchange: %v", err)
	}
	date := time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(iw.BeginInterchange(x12.InterchangeHeader{SenderID: "S", ReceiverID: "R", Date: date}))
	for g := 0; g < 2; g++ {
		must(iw.BeginGroup(x12.GroupHeader{FunctionalID: "HC", SenderCode: "SS", ReceiverCode: "RR", Date: date, Version: "005010X224A2"}))
		for s := 0; s < 3; s++ {
			must(iw.BeginTransaction("837", "005010X224A2"))
			for i := 0; i < s; i++ {
				must(iw.WriteSegment("NTE", "ADD", "x"))
			}
			if err := iw.EndGroup(); !errors.Is(err, x12.ErrEnvelopeOrder) {
				t.Errorf("EndGroup inside a transaction: %v", err)
			}
			must(iw.EndTransaction())
		}
		must(iw.EndGroup())
	}
	must(iw.EndInterchange())
	if c := iw.Controls(); c.Interchange != "000000001" || c.Group != "2" || c.Transaction != "0006" {
		t.Errorf("controls %+v", c)
	}
	rep, err := x12.Validate(bytes.NewReader(buf.Bytes()), x12.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if fs := rep.All(); len(fs) != 0 {
		t.Fatalf("written interchange has findings: %v\n%s", fs, buf.String())
	}
	if g := rep.Interchanges[0].Groups; len(g) != 2 || len(g[1].Sets) != 3 || g[1].Sets[2].Segments != 4 {
		t.Errorf("unexpected structure: %+v", g)
	}
}

func TestInterchangeWriterISAFields(t *testing.T) {
	var buf bytes.Buffer
	iw := x12.NewInterchangeWriter(&buf, x12.DefaultDelimiters, nil)
	err := iw.BeginInterchange(x12.InterchangeHeader{SenderID: "A SENDER ID THAT IS TOO LONG", ReceiverID: "R", ControlNumber: 5})
	if err == nil || !strings.Contains(err.Error(), "ISA06") {
		t.Errorf("long ISA06: err = %v", err)
	}
	if err := iw.BeginInterchange(x12.InterchangeHeader{SenderID: "S", ReceiverID: "R"}); err == nil {
		t.Error("no control number source and no ControlNumber: want an error")
	}
	if err := iw.BeginInterchange(x12.InterchangeHeader{SenderID: "S", ReceiverID: "R", ControlNumber: 5, AckRequested: true,
		Date: time.Date(2024, 5, 6, 7, 8, 0, 0, time.UTC)}); err != nil {
		t.Fatal(err)
	}
	iw.Flush()
	want := "ISA*00*          *00*          *ZZ*S              *ZZ*R              *240506*0708*^*00501*000000005*1*P*:~"
	if buf.String() != want || len(want) != 106 {
		t.Errorf("got  %q\nwant %q", buf.String(), want)
	}
}

func TestParseDelimiters(t *testing.T) {
	tests := []struct {
		in   string
		want x12.Delimiters
		ok   bool
	}{
		{"*^:~", x12.DefaultDelimiters, true},
		{`*0>\n`, x12.Delimiters{Element: '*', Component: '>', Segment: '\n'}, true},
		{`|^:\x1d`, x12.Delimiters{Element: '|', Repetition: '^', Component: ':', Segment: 0x1d}, true},
		{"*^:", x12.Delimiters{}, false},
		{"**:~", x12.Delimiters{}, false},
		{"A^:~", x12.Delimiters{}, false},
	}
	for _, tt := range tests {
		got, err := x12.ParseDelimiters(tt.in)
		if (err == nil) != tt.ok || (tt.ok && got != tt.want) {
			t.Errorf("ParseDelimiters(%q) = %s, %v", tt.in, got, err)
		}
	}
}

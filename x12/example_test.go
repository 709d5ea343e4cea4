package x12_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

const example270 = `ISA*00*          *00*          *ZZ*CLINIC         *ZZ*PAYER          *240102*0304*^*00501*000000042*1*T*:~
GS*HS*CLINIC*PAYER*20240102*0304*7*X*005010X279A1~
ST*270*0001*005010X279A1~
BHT*0022*13*REF1*20240102*0304~
HL*1**20*1~
NM1*PR*2*GENERATED PAYER*****PI*PAYER01~
SE*5*0001~
GE*1*7~
IEA*1*000000042~
`

// Read segments one at a time; each knows its byte offset.
func ExampleReader() {
	r := x12.NewReader(strings.NewReader(example270))
	for {
		seg, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			fmt.Println(err)
			return
		}
		if seg.Is("NM1") {
			line, col := r.LineCol(seg.Offset())
			fmt.Printf("%s at offset %d (line %d, col %d): %s, id %s\n",
				seg.ID(), seg.Offset(), line, col, seg.Element(3), seg.Element(9))
		}
	}
	fmt.Println(r.Delimiters())
	// Output:
	// NM1 at offset 228 (line 6, col 1): GENERATED PAYER, id PAYER01
	// '*' '^' ':' '~'
}

// Validate checks envelopes; findings carry their acknowledgment codes.
func ExampleValidate() {
	broken := strings.Replace(example270, "SE*5*0001", "SE*6*0001", 1)
	rep, err := x12.Validate(strings.NewReader(broken), x12.ValidateOptions{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, f := range rep.All() {
		fmt.Printf("line %d: %s %s (IK5 %s): %s\n", f.Line, f.Severity, f.Code, f.IK5, f.Message)
	}
	// Output:
	// line 7: error se.segment-count-mismatch (IK5 4): SE01 "6" but the transaction set has 5 segments (ST and SE included)
}

// Build an enveloped 270: counts and control numbers are computed.
func ExampleInterchangeWriter() {
	numbers := &x12.SequentialControlNumbers{Interchange: 41, Group: 6}
	iw := x12.NewInterchangeWriter(os.Stdout, x12.DefaultDelimiters, numbers, x12.WithLineBreaks())
	date := time.Date(2024, 1, 2, 3, 4, 0, 0, time.UTC)
	iw.BeginInterchange(x12.InterchangeHeader{SenderID: "CLINIC", ReceiverID: "PAYER", Date: date, Usage: "T"})
	iw.BeginGroup(x12.GroupHeader{FunctionalID: "HS", SenderCode: "CLINIC", ReceiverCode: "PAYER", Date: date, Version: "005010X279A1"})
	iw.BeginTransaction("270", "005010X279A1")
	iw.WriteSegment("BHT", "0022", "13", "REF1", "20240102", "0304")
	iw.WriteSegmentFields("EQ", x12.Repeated(x12.Simple("30"), x12.Simple("35")))
	if err := iw.WriteSegment("NM1", "IL", "1", "O*BRIEN"); err != nil {
		fmt.Println(err)
	}
	iw.EndTransaction()
	iw.EndGroup()
	if err := iw.EndInterchange(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// x12: NM103 contains '*', a delimiter of this interchange; remove it from the value
	// ISA*00*          *00*          *ZZ*CLINIC         *ZZ*PAYER          *240102*0304*^*00501*000000042*0*T*:~
	// GS*HS*CLINIC*PAYER*20240102*0304*7*X*005010X279A1~
	// ST*270*0001*005010X279A1~
	// BHT*0022*13*REF1*20240102*0304~
	// EQ*30^35~
	// SE*4*0001~
	// GE*1*7~
	// IEA*1*000000042~
}

// Acknowledge a file: a TA1 (ISA14 asked for one) and a 999 per group.
func ExampleWriteAcks() {
	broken := strings.Replace(example270, "GE*1*7", "GE*2*7", 1)
	rep, _ := x12.Validate(strings.NewReader(broken), x12.ValidateOptions{})
	var buf bytes.Buffer
	err := x12.WriteAcks(&buf, rep, x12.AckOptions{
		Date:       time.Date(2024, 1, 2, 5, 6, 0, 0, time.UTC),
		Numbers:    &x12.SequentialControlNumbers{Interchange: 99},
		LineBreaks: true,
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Print(buf.String())
	// Output:
	// ISA*00*          *00*          *ZZ*PAYER          *ZZ*CLINIC         *240102*0506*^*00501*000000100*0*T*:~
	// TA1*000000042*240102*0304*A*000~
	// GS*FA*PAYER*CLINIC*20240102*0506*1*X*005010X231A1~
	// ST*999*0001*005010X231A1~
	// AK1*HS*7*005010X279A1~
	// AK2*270*0001*005010X279A1~
	// IK5*A~
	// AK9*R*2*1*1*5~
	// SE*6*0001~
	// GE*1*1~
	// IEA*1*000000100~
}

package guide_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

const example270 = `ST*270*0001*005010X279A1~
BHT*0022*13*REQ1*20260101*1200~
HL*1**20*1~
NM1*PR*2*PAYER*****PI*12345~
HL*2*1*21*1~
NM1*1P*2*CLINIC*****XX*1234567893~
HL*3*2*22*0~
TRN*1*TRACE1*9999999999~
NM1*IL*1*DOE*JANE****MI*M1~
DMG*D8*19800101~
EQ*30~
SE*12*0001~
`

// A bare ST..SE set validated against the guide its ST03 names.
func ExampleValidate() {
	bad := strings.Replace(example270, "DMG*D8*19800101", "DMG*D8*19800231", 1)
	rep, err := guide.Validate(strings.NewReader(bad), guide.Options{}, x12.WithDelimiters(x12.DefaultDelimiters))
	if err != nil {
		panic(err)
	}
	for _, f := range rep.All() {
		if f.Rejects() {
			fmt.Println(f.Code, f.SegmentID, f.Position, f.LoopID, "IK403", f.IK4)
		}
	}
	// Output:
	// guide.element-invalid-date DMG 10 2100C IK403 8
}

// Translate writes Guide JSON; DecodeJSON writes the X12 back.
func ExampleTranslate() {
	var js bytes.Buffer
	if err := guide.Translate(&js, strings.NewReader(example270), guide.TranslateOptions{
		Reader: []x12.ReaderOption{x12.WithDelimiters(x12.DefaultDelimiters)}}); err != nil {
		panic(err)
	}
	out := js.String()
	i := strings.Index(out, `"subscriber_name_NM1"`)
	j := strings.Index(out, `"subscriber_first_name_04"`)
	fmt.Println(out[i:j])
	if err := guide.DecodeJSON(os.Stdout, &js, guide.DecodeOptions{LineBreaks: true}); err != nil {
		panic(err)
	}
	// Output:
	// "subscriber_name_NM1":{"entity_identifier_code_01":"IL","entity_type_qualifier_02":"1","subscriber_last_name_03":"DOE",
	// ST*270*0001*005010X279A1~
	// BHT*0022*13*REQ1*20260101*1200~
	// HL*1**20*1~
	// NM1*PR*2*PAYER*****PI*12345~
	// HL*2*1*21*1~
	// NM1*1P*2*CLINIC*****XX*1234567893~
	// HL*3*2*22*0~
	// TRN*1*TRACE1*9999999999~
	// NM1*IL*1*DOE*JANE****MI*M1~
	// DMG*D8*19800101~
	// EQ*30~
	// SE*12*0001~
}

// Lookup and the compiled tree: loops, segments and elements by name.
func ExampleLookup() {
	g, ok := guide.Lookup("837", "005010X224A2")
	fmt.Println(ok, g.ID, g.Name)
	for _, c := range g.Root().Children[:3] {
		if c.Segment != nil {
			fmt.Println(c.Segment.ID, c.Segment.Key)
		} else {
			fmt.Println(c.Loop.ID, c.Loop.Key)
		}
	}
	// Output:
	// true 837D Health Care Claim: Dental
	// ST transaction_set_header_ST
	// BHT beginning_of_hierarchical_transaction_BHT
	// 1000A submitter_name_NM1_loop
}

package claims

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
)

func TestResponseAndClearinghouseAck(t *testing.T) {
	req := loadExample(t)
	b := mustBuild(t, req)
	info := ResponseInfo{CorrelationID: "01KHCCA4V6K00NFPX588G859SJ", TraceID: "9b491769-5f2c-4d6c-9a1e-3f6d1c2b0a11",
		Mode: "test", PayerID: "52133", PayerName: "UnitedHealthcare Dental", SenderID: "CLEARHOUSE", Now: testNow}
	ack, err := ClearinghouseAck(req, b, info, Ack277Options{Numbers: &x12.SequentialControlNumbers{Interchange: 6}})
	if err != nil {
		t.Fatal(err)
	}
	if f := guideFindings(t, ack); len(f) > 0 {
		t.Errorf("our 277CA does not pass the 005010X214 guide:\n%s", strings.Join(f, "\n"))
	}
	for _, want := range []string{"BHT*0085*08*01KHCCA4V6K00NFPX588G859SJ", "STC*A0:17:AY*20261123*WQ*832",
		"TRN*2*12345", "STC*A1:20*20261123*WQ*832", "DTP*472*D8*20230428", "REF*D9*01KHCCA4V6K00NFPX588G859SJ"} {
		if !strings.Contains(string(ack), want) {
			t.Errorf("277CA lacks %s:\n%s", want, ack)
		}
	}
	info.Ack277 = ack
	js, err := json.MarshalIndent(NewResponse(req, b, info), "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	testenv.Golden(t, "testdata/golden/example.response.json", append(js, '\n'))
}

// A line without providerControlNumber gets the generated id, in the 837D
// (REF*6R) and in the response.
func TestGeneratedLineItemControlNumber(t *testing.T) {
	req := loadExample(t)
	req.ClaimInformation.ServiceLines[0].ProviderControlNumber = ""
	b := mustBuild(t, req)
	if !strings.Contains(string(b.X12), "REF*6R*LINE1~") || b.LineItemControlNumbers[0] != "LINE1" {
		t.Errorf("generated id not used: %v\n%s", b.LineItemControlNumbers, b.X12)
	}
}

func TestRejectedAck277PassesTheGuide(t *testing.T) {
	req := loadExample(t)
	c := ClaimAckOf(req, "TRACE1", Status{"A7", "164", "IL"})
	c.Lines = []LineAck{{ProcedureCode: "D7140", Charge: "832", Count: "2", LineItemControlNumber: "L1", Date: "20230428",
		Status: Status{"A7", "164", "IL"}}}
	a := &Ack277{SourceEntity: "PR", SourceName: "UNITEDHEALTHCARE DENTAL", SourceIDQualifier: "PI", SourceID: "52133",
		ReceiverName: "ABA Inc", ReceiverID: "1234567", ReceiverStatus: Status{"A1", "19", "PR"}, TraceID: "T1", BatchTrace: "B1",
		ProviderOrganization: "ABA Inc", ProviderNPI: "1999999992", Claims: []ClaimAck{c}}
	x, err := Write277CA(a, Ack277Options{Numbers: &x12.SequentialControlNumbers{}, Now: testNow, Usage: "T"})
	if err != nil {
		t.Fatal(err)
	}
	if f := guideFindings(t, x); len(f) > 0 {
		t.Errorf("rejected 277CA does not pass the guide:\n%s\n%s", strings.Join(f, "\n"), x)
	}
	for _, want := range []string{"QTY*AA*1", "AMT*YY*832", "STC*A7:164:IL*20261123*U*832", "REF*FJ*L1"} {
		if !strings.Contains(string(x), want) {
			t.Errorf("277CA lacks %s:\n%s", want, x)
		}
	}
}

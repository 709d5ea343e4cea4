package statusinquiry

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

func contractRequest(t *testing.T) *Request {
	t.Helper()
	b, err := os.ReadFile("testdata/contract-request.json")
	if err != nil {
		t.Fatal(err)
	}
	var r Request
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	return &r
}

// The contract's example request makes a 276 that passes the 005010X212
// guide, with the subscriber, the provider and the dates of service.
func TestBuild276(t *testing.T) {
	req := contractRequest(t)
	if err := req.Validate(); err != nil {
		t.Fatal(err)
	}
	x, err := Build(req, Envelope{SenderID: "CLEARHOUSE", ReceiverID: "87726", Usage: "T"}, &x12.SequentialControlNumbers{},
		time.Date(2025, 9, 12, 17, 18, 0, 0, time.UTC), "0123456789")
	if err != nil {
		t.Fatal(err)
	}
	rep, err := guide.Validate(bytes.NewReader(x), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.All() {
		if f.Severity >= x12.Warning {
			t.Errorf("finding: %s %s", f.Code, f.Message)
		}
	}
	for _, want := range []string{"ST*276*0001*005010X212~", "BHT*0010*13*0123456789*20250912*1718~", "NM1*PR*2*87726*****PI*87726~",
		"NM1*1P*2*PROVIDER NAME*****XX*1999999984~", "DMG*D8*19710101*U~", "NM1*IL*1*DOE*JANE****MI*UHC123456~",
		"TRN*1*0123456789~", "DTP*472*RD8*20250630-20250702~"} {
		if !strings.Contains(string(x), want) {
			t.Errorf("276 lacks %s:\n%s", want, x)
		}
	}
}

// The contract's example answer: its x12 maps to its claims, field by field.
func TestMap277ContractExample(t *testing.T) {
	b, err := os.ReadFile("testdata/contract-response.json")
	if err != nil {
		t.Fatal(err)
	}
	var want struct {
		X12    string          `json:"x12"`
		Claims json.RawMessage `json:"claims"`
		Payer  json.RawMessage `json:"payer"`
		Ctl    string          `json:"controlNumber"`
	}
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	got, err := Map([]byte(want.X12))
	if err != nil {
		t.Fatal(err)
	}
	// The published answer leaves out the line's modifier (SVC01-3 GT) that
	// its own x12 carries; Clearhouse reports it.
	if m := got.Claims[0].ServiceDetails[0].Service.ProcedureModifiers; len(m) != 1 || m[0] != "GT" {
		t.Errorf("modifiers %v", m)
	}
	got.Claims[0].ServiceDetails[0].Service.ProcedureModifiers = nil
	var wantClaims, gotClaims, wantPayer, gotPayer any
	gb, _ := json.Marshal(got.Claims)
	json.Unmarshal(gb, &gotClaims)
	json.Unmarshal(want.Claims, &wantClaims)
	pb, _ := json.Marshal(got.Payer)
	json.Unmarshal(pb, &gotPayer)
	json.Unmarshal(want.Payer, &wantPayer)
	if d := cmp.Diff(wantClaims, gotClaims); d != "" {
		t.Errorf("claims differ from the contract's example (-want +got):\n%s", d)
	}
	if d := cmp.Diff(wantPayer, gotPayer); d != "" {
		t.Errorf("payer differs (-want +got):\n%s", d)
	}
	if got.ControlNumber != want.Ctl {
		t.Errorf("controlNumber %q, want %q", got.ControlNumber, want.Ctl)
	}
}

// Every problem of a request is reported at once, each at its field.
func TestValidateReportsEveryProblem(t *testing.T) {
	req := &Request{Providers: []Provider{{ProviderType: "Billing"}}, Subscriber: &Subscriber{FirstName: "Jane"},
		Encounter:              &Encounter{BeginningDateOfService: "20250230", EndDateOfService: "20250101"},
		ServiceLineInformation: &ServiceLine{ProductOrServiceIDQualifier: "XX", LineItemChargeAmount: "12,50"}}
	err := req.Validate()
	ve, ok := err.(*ValidationError)
	if !ok {
		t.Fatalf("err = %v", err)
	}
	paths := map[string]bool{}
	for _, f := range ve.Fields {
		paths[f.Path] = true
	}
	for _, p := range []string{"/tradingPartnerServiceId", "/providers/0/providerType", "/providers/0/organizationName", "/providers/0/npi",
		"/subscriber/memberId", "/subscriber/lastName", "/encounter/beginningDateOfService", "/serviceLineInformation/productOrServiceIDQualifier",
		"/serviceLineInformation/procedureCode", "/serviceLineInformation/lineItemChargeAmount", "/serviceLineInformation/unitsOfServiceCount",
		"/serviceLineInformation/serviceLineDate"} {
		if !paths[p] {
			t.Errorf("no problem reported at %s (got %v)", p, ve.Fields)
		}
	}
}

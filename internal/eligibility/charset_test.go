package eligibility

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// TestCheckX12CharacterSet: letters with diacritics reach the 270 as their
// base letters; a no-break space, a zero-width space, an emoji or a C1
// control is a 400 naming the field, and nothing is sent. Before, all of
// them were written raw into the 270.
func TestCheckX12CharacterSet(t *testing.T) {
	f := newFixture(t, 0)
	f.prod.answer = func(context.Context, []byte) ([]byte, error) {
		return []byte("ST*271*1*005010X279A1~BHT*0022*11*X*20240801*0930~HL*1**20*1~NM1*PR*2*UHC*****PI*87726~" +
			"HL*2*1*21*1~NM1*1P*2*P~HL*3*2*22*0~NM1*IL*1*DOE~EB*6**30~SE*9*1~"), nil
	}
	request := func(first, last, org string) *Request {
		return &Request{TradingPartnerServiceID: "87726", Provider: &Provider{OrganizationName: org, NPI: "1999999984"},
			Subscriber: &Subscriber{MemberID: "M123", Patient: Patient{FirstName: first, LastName: last}}}
	}
	res, err := f.svc.Check(context.Background(), prodKey, request("José", "Muñoz Łódź", "Clínica Señora"))
	if err != nil || res.HTTPStatus != 200 {
		t.Fatalf("accented names: %v %d %+v", err, res.HTTPStatus, res.Problem)
	}
	upper := bytes.ToUpper(f.prod.got)
	if !bytes.Contains(upper, []byte("*MUNOZ LODZ*JOSE")) || !bytes.Contains(upper, []byte("*CLINICA SENORA*")) || !isASCII(f.prod.got) {
		t.Errorf("the 270 does not carry the base letters: %s", f.prod.got)
	}

	for _, tc := range []struct{ first, last, org, path, says string }{
		{"Jane", "Doe\u00a0Smith", "P", "/subscriber/lastName", "no-break space"},
		{"Ja\u200bne", "Doe", "P", "/subscriber/firstName", "zero-width"},
		{"Jane", "Doe", "Clinic 🦷", "/provider/organizationName", "emoji"},
		{"Jane\u0085", "Doe", "P", "/subscriber/firstName", "control character"},
	} {
		f.prod.got = nil
		res, err := f.svc.Check(context.Background(), prodKey, request(tc.first, tc.last, tc.org))
		if err != nil || res.HTTPStatus != 400 || res.Problem == nil || len(res.Problem.FieldList) != 1 ||
			res.Problem.FieldList[0].Path != tc.path || !strings.Contains(res.Problem.FieldList[0].Message, tc.says) {
			t.Errorf("%s: %v %d %+v", tc.path, err, res.HTTPStatus, res.Problem)
		}
		if f.prod.got != nil {
			t.Errorf("%s: a 270 was sent", tc.path)
		}
	}
}

func isASCII(b []byte) bool {
	for _, c := range b {
		if c >= 0x80 {
			return false
		}
	}
	return true
}

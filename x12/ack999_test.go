package x12_test

import (
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// TestAck999Consistency: the 999 defects of issue 9, item 10. Each input is
// acknowledged and the output must (or must not) hold the given segments.
func TestAck999Consistency(t *testing.T) {
	isaAck := strings.Replace(isaStar, "*0*T*", "*1*T*", 1) // ISA14 = 1: TA1 requested
	// A large set: more segment errors than an envelope keeps, then a wrong
	// SE01 at the very end.
	var big strings.Builder
	big.WriteString("ST*837*0001*005010X222A1~BHT*0019*00*1*20240101*1200*CH~")
	for range x12.MaxFindingsPerEnvelope + 500 {
		big.WriteString("REF*X*~")
	}
	big.WriteString("SE*9*0001~")
	ack999 := "GS*FA*SENDER*RECEIVER*20240101*1200*5*X*005010X231A1~ST*999*0001*005010X231A1~AK1*HC*7*005010X222A1~AK2*837*0001*005010X222A1~IK5*A~AK9*A*1*1*1~SE*6*0001~GE*1*5~"
	tests := []struct {
		name       string
		in         string
		want, lack []string
	}{
		{"SE01 count finding survives the cap",
			isaStar + "GS*HC*SENDER*RECEIVER*20240101*1200*7*X*005010X222A1~" + big.String() + "GE*1*7~IEA*1*000000001~",
			[]string{"IK5*R*4*5~", "AK9*R*1*1*0~"}, nil},
		{"a 999 gets no 999",
			isaStar + ack999 + "IEA*1*000000001~",
			nil, []string{"ISA*", "ST*999", "AK1*FA"}},
		{"a 999 asking for a TA1 gets the TA1 only",
			isaAck + ack999 + "IEA*1*000000001~",
			[]string{"TA1*000000001*240101*1200*A*000~"}, []string{"ST*999", "AK1*FA"}},
		{"a 999 beside a claim group: only the claims are acknowledged",
			isaStar + ack999 + "GS*HC*SENDER*RECEIVER*20240101*1200*7*X*005010X222A1~ST*837*0001*005010X222A1~BHT*0019*00*1*20240101*1200*CH~SE*3*0001~GE*1*7~IEA*2*000000001~",
			[]string{"AK1*HC*7*005010X222A1~", "IK5*A~", "AK9*A*1*1*1~"}, []string{"AK1*FA"}},
		{"invalid GS05: group and set agree",
			isaStar + "GS*HC*SENDER*RECEIVER*20240101*2561*7*X*005010X222A1~ST*837*0001*005010X222A1~BHT*0019*00*1*20240101*1200*CH~SE*3*0001~GE*1*7~IEA*1*000000001~",
			[]string{"IK5*A~", "AK9*A*1*1*1~"}, []string{"AK9*R"}},
		{"invalid GS04: group and set agree",
			isaStar + "GS*HC*SENDER*RECEIVER*20241301*1200*7*X*005010X222A1~ST*837*0001*005010X222A1~BHT*0019*00*1*20240101*1200*CH~SE*3*0001~GE*1*7~IEA*1*000000001~",
			[]string{"IK5*A~", "AK9*A*1*1*1~"}, []string{"AK9*R"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := ackOf(t, tt.in, x12.AckOptions{Date: ackDate})
			for _, s := range tt.want {
				if !strings.Contains(out, s) {
					t.Errorf("acknowledgment lacks %q:\n%s", s, out)
				}
			}
			for _, s := range tt.lack {
				if strings.Contains(out, s) {
					t.Errorf("acknowledgment has %q:\n%s", s, out)
				}
			}
		})
	}
}

// TestInvalidGSTimeStillReported: the 999 has no code for GS04/GS05, but
// validation still reports them as errors.
func TestInvalidGSTimeStillReported(t *testing.T) {
	in := isaStar + "GS*HC*SENDER*RECEIVER*20240101*2561*7*X*005010X222A1~ST*837*0001*005010X222A1~BHT*0019~SE*3*0001~GE*1*7~IEA*1*000000001~"
	rep, err := x12.Validate(strings.NewReader(in), x12.ValidateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var hit bool
	for _, f := range rep.All() {
		if f.Code == x12.CodeGSValue && f.Element == 5 && f.Severity == x12.Error && f.AK9 == "" {
			hit = true
		}
	}
	if !hit {
		t.Errorf("no error for GS05 2561: %v", rep.All())
	}
}

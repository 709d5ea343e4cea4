package x12_test

import (
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// TestHIPAAEnvelopeValues: ISA01, ISA05/ISA07 and ISA15 hold the values the
// HIPAA guides allow; anything else is rejected with the field's TA1 code.
func TestHIPAAEnvelopeValues(t *testing.T) {
	// isa builds a 106-character ISA with the given fields replaced.
	isa := func(auth, senderQ, receiverQ, usage string) string {
		return "ISA*" + auth + "*          *00*          *" + senderQ + "*SENDER         *" + receiverQ +
			"*RECEIVER       *240101*1200*^*00501*000000001*0*" + usage + "*:~"
	}
	body := "GS*HS*A1*B1*20240101*1200*1*X*005010X279A1~ST*270*0001*005010X279A1~BHT*0022*13*1*20240101*1200~SE*3*0001~GE*1*1~IEA*1*000000001~"
	tests := []struct {
		name    string
		header  string
		element int    // ISA element at fault, 0 for none
		ta1     string // its TA1 note code
	}{
		{"all allowed", isa("00", "ZZ", "30", "T"), 0, ""},
		{"ISA01 03", isa("03", "01", "33", "P"), 0, ""},
		{"ISA01 01", isa("01", "ZZ", "ZZ", "P"), 1, "010"},
		{"ISA01 05", isa("05", "ZZ", "ZZ", "P"), 1, "010"},
		{"ISA05 12 (phone)", isa("00", "12", "ZZ", "P"), 5, "005"},
		{"ISA07 AA", isa("00", "ZZ", "AA", "P"), 7, "007"},
		{"ISA07 14", isa("00", "ZZ", "14", "P"), 0, ""},
		{"ISA15 I (information)", isa("00", "ZZ", "ZZ", "I"), 15, "020"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := x12.Validate(strings.NewReader(tt.header+body), x12.ValidateOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var got []x12.Finding
			for _, f := range rep.All() {
				if f.Code == x12.CodeISAValue {
					got = append(got, f)
				}
			}
			if tt.element == 0 {
				if len(got) > 0 {
					t.Errorf("unexpected findings: %v", got)
				}
				return
			}
			if len(got) != 1 || got[0].Element != tt.element || got[0].TA1 != tt.ta1 || got[0].Severity != x12.Error {
				t.Errorf("got %v, want one error on ISA%02d with TA1 %s", got, tt.element, tt.ta1)
			}
		})
	}
}

package mockpayer

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/reports"
)

// The 835 the mock pays accepted claims with validates against the 835
// guide (X221A1), balances, and pays by the member's rule.
func TestRemitOutcomes(t *testing.T) {
	for _, tc := range []struct {
		member string
		want   []string // in the 835
		absent []string
	}{
		{"W000000001", []string{"CLP*", "*1*", "AMT*B6*"}, []string{"CAS*CO*16", "LQ*HE"}},
		{"PARTIAL0001", []string{"CAS*CO*45*", "CAS*PR*1*"}, []string{"CAS*CO*16"}},
		{"DENIED0001", []string{"CAS*CO*16*", "LQ*HE*N290", "BPR*H*0*C*NON"}, []string{"AMT*B6"}},
		{"REVERSAL0001", []string{"*22*-"}, nil},
	} {
		t.Run(tc.member, func(t *testing.T) {
			file := claim837(t, func(r *claims.Request) { r.Subscriber.MemberID = tc.member })
			era, err := mock().Remit(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			validClean(t, "835", era)
			s := string(era)
			for _, w := range tc.want {
				if !strings.Contains(s, w) {
					t.Errorf("835 lacks %q:\n%s", w, s)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(s, a) {
					t.Errorf("835 has %q:\n%s", a, s)
				}
			}
			// It converts, and the report names the claim by its patient
			// control number.
			var js bytes.Buffer
			if err := reports.Convert835(bytes.NewReader(era), &js, reports.Meta{}); err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(js.String(), `"patientControlNumber"`) {
				t.Errorf("report %s", js.String())
			}
		})
	}
}

// A claim the 277CA rejects is never paid.
func TestRemitSkipsRejected(t *testing.T) {
	file := claim837(t, func(r *claims.Request) { r.Subscriber.MemberID = ClaimRejectMemberID })
	era, err := mock().Remit(context.Background(), file)
	if err != nil || era != nil {
		t.Fatalf("835 for a rejected claim: %v\n%s", err, era)
	}
}

package mockpayer

import (
	"context"
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claims"
	sim "github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

func cookbookPayer(t *testing.T) *Payer {
	t.Helper()
	data, err := os.ReadFile("scenario/testdata/cookbook.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := sim.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	p := mock()
	WithScenarioSet(set)(p)
	return p
}

// A scenario's 999 rejection: IK3 on the claim's CLM, IK4 on the element
// it names, IK5 R; no 277CA and no 835 follow.
func TestScenario999Rejection(t *testing.T) {
	set, err := sim.Parse([]byte(`{"scenarios": [{"name": "bad-clm", "match": {"memberId": "IK0001"},
		"claim": {"functionalAck": {"status": "rejected", "segmentCode": "8", "elementCode": "7", "element": 1}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p := mock()
	WithScenarioSet(set)(p)
	file := claim837(t, func(r *claims.Request) { r.Subscriber.MemberID = "IK0001" })
	ans, err := p.AnswerClaims(context.Background(), file)
	if err != nil {
		t.Fatal(err)
	}
	validClean(t, "999", ans.Ack999)
	ack := string(ans.Ack999)
	for _, want := range []string{"IK3*CLM*", "*2300*8~", "IK4*1*1028*7*12345~", "CTX*CLM01:12345~", "IK5*R", "AK9*R"} {
		if !strings.Contains(ack, want) {
			t.Errorf("999 lacks %q:\n%s", want, strings.ReplaceAll(ack, "~", "~\n"))
		}
	}
	if ans.Ack277CA != nil {
		t.Errorf("a 277CA after a rejecting 999:\n%s", ans.Ack277CA)
	}
	if era, err := p.Remit(context.Background(), file); err != nil || era != nil {
		t.Errorf("an 835 after a rejecting 999: %v\n%s", err, era)
	}
	// Without the scenario the same claim is accepted.
	if ans, _ := mock().AnswerClaims(context.Background(), file); ans == nil || ans.Ack277CA == nil {
		t.Error("the published rules reject the claim too: the test proves nothing")
	}
}

// Scenarios decide the 277CA and the 835 of the claims they match: the
// codes they name come back, guide-valid; other claims keep the published
// rules.
func TestScenarioClaimOutcomes(t *testing.T) {
	p := cookbookPayer(t)
	for _, tc := range []struct {
		name   string
		edit   func(*claims.Request)
		ack    string   // in the 277CA
		want   []string // in the 835 (nil: no 835)
		absent []string
	}{
		{"denied CO-197 with its remark", func(r *claims.Request) {
			r.Subscriber.MemberID = "PA0001"
			r.ClaimInformation.ServiceLines[0].DentalService.ProcedureCode = "D2740"
		}, "STC*A2:20", []string{"CLP*12345*4*", "CAS*CO*197*", "LQ*HE*N54", "BPR*H*0*C*NON"}, []string{"AMT*B6", "CAS*CO*16", "N290"}},
		{"same member, another procedure: published rules (paid)", func(r *claims.Request) { r.Subscriber.MemberID = "PA0001" },
			"STC*A2:20", []string{"CLP*12345*1*", "AMT*B6*"}, []string{"CAS*CO*197"}},
		{"partial with own codes", func(r *claims.Request) { r.Subscriber.MemberID = "PART0002" },
			"STC*A2:20", []string{"CAS*CO*45*", "CAS*PR*2*", "LQ*HE*N381"}, nil},
		{"rejected by pattern, never paid", func(r *claims.Request) { r.ClaimInformation.PatientControlNumber = "REJ-77" },
			"STC*A7:21:IL", nil, nil},
		{"silence: no 277CA, no 835", func(r *claims.Request) { r.Subscriber.MemberID = "QUIET0001" }, "", nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := claim837(t, tc.edit)
			ans, err := p.AnswerClaims(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			if tc.ack == "" {
				if ans.Ack277CA != nil || ans.Ack999 == nil {
					t.Errorf("silence: 999 %t, 277CA:\n%s", ans.Ack999 != nil, ans.Ack277CA)
				}
			} else {
				validClean(t, "277CA", ans.Ack277CA)
			}
			if !strings.Contains(string(ans.Ack277CA), tc.ack) {
				t.Errorf("277CA lacks %q:\n%s", tc.ack, ans.Ack277CA)
			}
			era, err := p.Remit(context.Background(), file)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == nil {
				if era != nil {
					t.Errorf("an 835 for a claim that gets none:\n%s", era)
				}
				return
			}
			validClean(t, "835", era)
			for _, w := range tc.want {
				if !strings.Contains(string(era), w) {
					t.Errorf("835 lacks %q:\n%s", w, era)
				}
			}
			for _, a := range tc.absent {
				if strings.Contains(string(era), a) {
					t.Errorf("835 has %q:\n%s", a, era)
				}
			}
		})
	}
}

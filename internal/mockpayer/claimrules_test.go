package mockpayer

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/x12"
)

// professional837 is the contract's professional example as an 837P, with
// the subscriber's member id set.
func professional837(t *testing.T, memberID string) []byte {
	t.Helper()
	b, err := os.ReadFile("../claims/testdata/professional/example.json")
	if err != nil {
		t.Fatal(err)
	}
	var r claims.ProfessionalRequest
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	r.Subscriber.MemberID = memberID
	if err := claims.ValidateProfessional(&r); err != nil {
		t.Fatal(err)
	}
	built, err := claims.Build837P(&r, claims.BuildOptions{Envelope: claims.Envelope{SenderID: "CLEARHOUSE"},
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100}, PayerID: "87726",
		CorrelationID: "CORR1", Now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return built.X12
}

// Every published rejection rejects the claim types it names with its STC
// in a 277CA that passes the guide; the others are accepted; the constant
// the console and tests use is the first rule.
func TestClaimRejectionRulesAreData(t *testing.T) {
	rules := ClaimRejections()
	if len(rules) < 3 || rules[0].MemberID != ClaimRejectMemberID || rules[0].Status != (claims.Status{Category: "A7", Code: "164", Entity: "IL"}) {
		t.Fatalf("rules = %+v", rules)
	}
	for _, r := range rules {
		for _, typ := range []string{"837D", "837P"} {
			var x []byte
			if typ == "837D" {
				x = claim837(t, func(req *claims.Request) { req.Subscriber.MemberID = r.MemberID })
			} else {
				x = professional837(t, r.MemberID)
			}
			ans, err := mock().AnswerClaims(context.Background(), x)
			if err != nil {
				t.Fatal(err)
			}
			want := "STC*" + r.Status.Category + ":" + r.Status.Code
			if r.Status.Entity != "" {
				want += ":" + r.Status.Entity
			}
			rejects := strings.Contains(strings.Join(r.ClaimTypes, " "), typ)
			if got := strings.Contains(string(ans.Ack277CA), want+"*"); got != rejects || (ans.Rejected == 1) != rejects {
				t.Errorf("%s %s: rejected=%d, %s in the 277CA = %v, want %v:\n%s", typ, r.MemberID, ans.Rejected, want, got, rejects, ans.Ack277CA)
			}
			validClean(t, typ+" 277CA", ans.Ack277CA)
			validClean(t, typ+" 999", ans.Ack999)
		}
	}
}

package mockpayer

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// claim837 builds the 837D of the claims package's example request, with
// edit applied first.
func claim837(t *testing.T, edit func(r *claims.Request)) []byte {
	t.Helper()
	return claim837From(t, "../claims/testdata/example.json", edit)
}

func claim837From(t *testing.T, file string, edit func(r *claims.Request)) []byte {
	t.Helper()
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var r claims.Request
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(&r)
	}
	if err := claims.Validate(&r); err != nil {
		t.Fatal(err)
	}
	built, err := claims.Build837D(&r, claims.BuildOptions{Envelope: claims.Envelope{SenderID: "CLEARHOUSE"},
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100}, PayerID: r.TradingPartnerServiceID,
		CorrelationID: "CORR1", Now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return built.X12
}

func validClean(t *testing.T, name string, x []byte) {
	t.Helper()
	rep, err := guide.Validate(bytes.NewReader(x), guide.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range rep.All() {
		if f.Severity >= x12.Warning {
			t.Errorf("%s: %s\n%s", name, f, x)
		}
	}
}

func mock() *Payer {
	return New(WithClock(func() time.Time { return time.Date(2026, 11, 23, 9, 5, 0, 0, time.UTC) }), WithControlNumberStart(500))
}

func TestClaimAccepted(t *testing.T) {
	ans, err := mock().AnswerClaims(context.Background(), claim837(t, nil))
	if err != nil {
		t.Fatal(err)
	}
	validClean(t, "999", ans.Ack999)
	validClean(t, "277CA", ans.Ack277CA)
	for _, want := range []string{"AK1*HC*101*005010X224A2", "IK5*A", "AK9*A*1*1*1"} {
		if !strings.Contains(string(ans.Ack999), want) {
			t.Errorf("999 lacks %s:\n%s", want, ans.Ack999)
		}
	}
	for _, want := range []string{"NM1*PR*2*United HealthCare Dental*****PI*52133", "TRN*2*CORR1", "STC*A1:19:PR",
		"TRN*2*12345", "STC*A2:20*20261123*WQ*832", "REF*1K*52133000000101001", "REF*D9*CORR1", "DTP*472*D8*20230428",
		"ZZ*52133          *ZZ*CLEARHOUSE     ", "*T*:~"} {
		if !strings.Contains(string(ans.Ack277CA), want) {
			t.Errorf("277CA lacks %s:\n%s", want, ans.Ack277CA)
		}
	}
	if ans.Rejected != 0 {
		t.Errorf("rejected = %d", ans.Rejected)
	}
}

func TestClaimRejectedByMockRule(t *testing.T) {
	ans, err := mock().AnswerClaims(context.Background(), claim837(t, func(r *claims.Request) { r.Subscriber.MemberID = ClaimRejectMemberID }))
	if err != nil {
		t.Fatal(err)
	}
	validClean(t, "277CA", ans.Ack277CA)
	if !strings.Contains(string(ans.Ack277CA), "STC*A7:164:IL*20261123*U*832") || strings.Contains(string(ans.Ack277CA), "REF*1K") ||
		!strings.Contains(string(ans.Ack277CA), "QTY*AA*1") || ans.Rejected != 1 {
		t.Errorf("not a rejection:\n%s", ans.Ack277CA)
	}
	if !strings.Contains(string(ans.Ack999), "IK5*A") {
		t.Errorf("the file itself is valid; 999 should accept:\n%s", ans.Ack999)
	}
}

func TestClaimToUnreachablePayer(t *testing.T) {
	_, err := mock().AnswerClaims(context.Background(), claim837(t, func(r *claims.Request) { r.TradingPartnerServiceID = UnreachablePayerID }))
	if !errors.Is(err, ErrUnreachable) {
		t.Fatalf("err = %v, want ErrUnreachable", err)
	}
}

// A file that breaks the guide gets a rejecting 999 and no 277CA.
func TestInvalidClaimFileGetsRejecting999(t *testing.T) {
	x := bytes.Replace(claim837(t, nil), []byte("CLM*12345*832*"), []byte("CLM*12345*900*"), 1)
	ans, err := mock().AnswerClaims(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	validClean(t, "999", ans.Ack999)
	if !strings.Contains(string(ans.Ack999), "IK5*R") || ans.Ack277CA != nil {
		t.Errorf("want a rejecting 999 and no 277CA:\n%s", ans.Ack999)
	}
}

func TestNotAClaim(t *testing.T) {
	if _, err := mock().AnswerClaims(context.Background(), []byte("hello")); !errors.Is(err, ErrNotAClaim) {
		t.Errorf("err = %v", err)
	}
}

// With a dependent and coordination of benefits, the 277CA names the
// patient (2010CA) with the subscriber's member id, not the other insured.
func TestClaimWithDependent(t *testing.T) {
	ans, err := mock().AnswerClaims(context.Background(), claim837From(t, "../claims/testdata/full.json", nil))
	if err != nil {
		t.Fatal(err)
	}
	validClean(t, "277CA", ans.Ack277CA)
	if !strings.Contains(string(ans.Ack277CA), "NM1*QC*1*Dent*Jose****MI*U3141592653") ||
		!strings.Contains(string(ans.Ack277CA), "DTP*472*RD8*20261020-20261021") {
		t.Errorf("277CA:\n%s", ans.Ack277CA)
	}
}

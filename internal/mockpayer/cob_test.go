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

// A claim with coordination of benefits names the other payer's billing
// provider in 2330I (NM1*85 with ids only); the 277CA still names the
// claim's billing provider (2010AA). It named the 2330I one, with no name
// and NPI "0", and our own inbound path refused the 277CA.
func TestAnswerNamesTheBillingProviderNotTheOtherPayers(t *testing.T) {
	b, err := os.ReadFile("../claims/testdata/institutional/cob.json")
	if err != nil {
		t.Fatal(err)
	}
	var r claims.InstitutionalRequest
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if err := claims.ValidateInstitutional(&r); err != nil {
		t.Fatal(err)
	}
	built, err := claims.Build837I(&r, claims.BuildOptions{Envelope: claims.Envelope{SenderID: "CLEARHOUSE"},
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100}, PayerID: r.TradingPartnerServiceID,
		CorrelationID: "CORR1", Now: time.Date(2026, 11, 23, 9, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(built.X12), "~NM1*85*2~") {
		t.Fatalf("the claim has no 2330I to mislead the mock:\n%s", built.X12)
	}
	ans, err := mock().AnswerClaims(context.Background(), built.X12)
	if err != nil {
		t.Fatal(err)
	}
	validClean(t, "277CA", ans.Ack277CA)
	if !strings.Contains(string(ans.Ack277CA), "~NM1*85*2*Valley Home Health*****XX*1999999976~") {
		t.Errorf("277CA does not name the billing provider:\n%s", ans.Ack277CA)
	}
}

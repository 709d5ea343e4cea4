package mockpayer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/x12"
)

// The mock answers a 276 with a 277 (005010X212) that passes the guide:
// the claim's state when ClaimStates knows it, D0:35 when it does not.
func TestAnswerStatus(t *testing.T) {
	req := &statusinquiry.Request{TradingPartnerServiceID: "87726",
		Providers:  []statusinquiry.Provider{{ProviderType: "BillingProvider", OrganizationName: "Provider Name", NPI: "1999999984"}},
		Subscriber: &statusinquiry.Subscriber{MemberID: "UHC123456", FirstName: "Jane", LastName: "Doe"},
		Encounter:  &statusinquiry.Encounter{PatientAccountNumber: "PCN1", BeginningDateOfService: "20250630"}}
	x, err := statusinquiry.Build(req, statusinquiry.Envelope{SenderID: "CLEARHOUSE", ReceiverID: "87726", Usage: "T"},
		&x12.SequentialControlNumbers{}, time.Date(2025, 11, 2, 9, 0, 0, 0, time.UTC), "123")
	if err != nil {
		t.Fatal(err)
	}
	known := New(WithClaimStates(func(_ context.Context, q ClaimQuery) (ClaimState, bool) {
		return ClaimState{Category: "F1", Code: "65", Charge: "100", Paid: "80", PaidDate: "20251101", PayerClaimNumber: "ICN1"}, q.PatientAccountNumber == "PCN1"
	}))
	for _, tc := range []struct {
		name string
		p    *Payer
		want string
	}{{"known claim", known, "STC*F1:65*"}, {"unknown claim", mock(), "STC*D0:35*"}} {
		ans, err := tc.p.Exchange(context.Background(), x)
		if err != nil {
			t.Fatal(err)
		}
		validClean(t, tc.name, ans)
		if !strings.Contains(string(ans), tc.want) || !strings.Contains(string(ans), "TRN*2*123~") {
			t.Errorf("%s: 277 lacks %s:\n%s", tc.name, tc.want, ans)
		}
	}
}

package mockpayer_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/x12"
)

// A claim status request about a claim a scenario matches answers the
// scenario's 277 status; other claims keep the usual answer (not found).
func TestScenarioClaimStatus(t *testing.T) {
	set, err := scenario.Parse([]byte(`{"scenarios": [{"name": "pended", "match": {"memberId": "UHC123456"},
		"claim": {"status": {"category": "P1", "code": "20", "entity": "PR"}}},
		{"name": "remit-only", "match": {"memberId": "OTHER01"}, "claim": {"remittance": {"outcome": "paid"}}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	m := mockpayer.New(mockpayer.WithScenarioSet(set))
	ask := func(member string) string {
		t.Helper()
		b, err := os.ReadFile("../statusinquiry/testdata/contract-request.json")
		if err != nil {
			t.Fatal(err)
		}
		var req statusinquiry.Request
		if err := json.Unmarshal(b, &req); err != nil {
			t.Fatal(err)
		}
		req.Subscriber.MemberID = member
		x276, err := statusinquiry.Build(&req, statusinquiry.Envelope{SenderID: "CLEARHOUSE", ReceiverID: "87726", Usage: "T"},
			&x12.SequentialControlNumbers{}, time.Now(), "0123456789")
		if err != nil {
			t.Fatal(err)
		}
		x277, err := m.Exchange(context.Background(), x276)
		if err != nil {
			t.Fatal(err)
		}
		res, err := statusinquiry.Map(x277)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(res.Claims)
		return string(raw)
	}
	if got := ask("UHC123456"); !strings.Contains(got, `"statusCategoryCode":"P1"`) || !strings.Contains(got, `"statusCode":"20"`) {
		t.Errorf("scenario status: %s", got)
	}
	if got := ask("OTHER01"); !strings.Contains(got, `"statusCategoryCode":"D0"`) {
		t.Errorf("a scenario without a status: %s", got)
	}
}

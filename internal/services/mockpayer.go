package services

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/partners"
)

// The mock payer stays at the edge: only the composition root (and tests)
// import internal/mockpayer, and hand the domain packages what they need
// of it as values and interfaces of their own.

// MockClaimsPayer is p as the MOCK connection's payer (delivery.MockPayer).
func MockClaimsPayer(p *mockpayer.Payer) delivery.MockPayer { return mockClaims{p} }

type mockClaims struct{ p *mockpayer.Payer }

func (m mockClaims) Reachable(file []byte) error { return mockpayer.CheckReachable(file) }

func (m mockClaims) AnswerClaims(ctx context.Context, file []byte) (delivery.MockAnswer, error) {
	a, err := m.p.AnswerClaims(ctx, file)
	if err != nil {
		return delivery.MockAnswer{}, err
	}
	return delivery.MockAnswer{Ack999: a.Ack999, Ack277CA: a.Ack277CA, Rejected: a.Rejected}, nil
}

func (m mockClaims) Remit(ctx context.Context, file []byte) ([]byte, error) {
	return m.p.Remit(ctx, file)
}

// MockPayers are the mock payers every account's test mode trades with
// (partners.Seed): the payers of the published mock requests, and the
// claim-only payer whose connection always fails.
func MockPayers() []partners.MockPayer {
	out := []partners.MockPayer{{ID: mockpayer.UnreachablePayerID, Name: UnreachablePayerName}}
	for _, r := range mockpayer.Requests() {
		out = append(out, partners.MockPayer{ID: r.TradingPartnerServiceID, Name: r.PayerName})
	}
	return partners.MockPayers(out)
}

// UnreachablePayerName is the name of mockpayer.UnreachablePayerID.
const UnreachablePayerName = "Mock dental payer (connection always fails)"

// MockExamples are the published mock requests as eligibility examples
// (the console's test-mode form offers them).
func MockExamples() []eligibility.Example {
	reqs := mockpayer.Requests()
	out := make([]eligibility.Example, len(reqs))
	for i, m := range reqs {
		out[i] = eligibility.Example{Name: m.Name, Scenario: m.Scenario, PayerName: m.PayerName, Outcome: m.Outcome}
		if err := json.Unmarshal(m.RequestJSON(), &out[i].Request); err != nil {
			// The shapes are the contract's; the mock's tests send every one.
			panic(fmt.Sprintf("services: mock request %s is not an eligibility request: %v", m.Name, err))
		}
	}
	return out
}

package mockpayer_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

// BenchmarkExchangeWithScenarios: the cost of a scenario file of 200
// scenarios for a request that is matched by its last scenario (a 271 built
// from benefits) and for a published mock request that passes all 200.
func BenchmarkExchangeWithScenarios(b *testing.B) {
	var sb strings.Builder
	sb.WriteString(`{"scenarios": [`)
	for i := range scenario.MaxScenarios {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"name": "s%d", "match": {"memberId": "SIM%04d"}, "eligibility": {"benefits": {"planName": "PLAN %d",
			"deductibles": [{"amount": "2500", "remaining": "1500"}], "copays": [{"serviceTypeCode": "98", "amount": "25"}]}}}`, i, i, i)
	}
	sb.WriteString("]}")
	set, err := scenario.Parse([]byte(sb.String()))
	if err != nil {
		b.Fatal(err)
	}
	m := mockpayer.New(mockpayer.WithClock(func() time.Time { return fixedNow }), mockpayer.WithScenarioSet(set))
	for _, c := range []struct{ name, body string }{
		{"last-scenario", string(request("87726", fmt.Sprintf("SIM%04d", scenario.MaxScenarios-1), "Doe", "30"))},
		{"published-mock-after-200", string(findRequest(b, "cigna-subscriber-jones").RequestJSON())},
	} {
		x270 := build270(b, []byte(c.body))
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := m.Exchange(context.Background(), x270); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

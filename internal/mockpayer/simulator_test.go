package mockpayer_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/mockpayer/scenario"
)

func cookbookMock(t *testing.T) *mockpayer.Payer {
	t.Helper()
	data, err := os.ReadFile("scenario/testdata/cookbook.json")
	if err != nil {
		t.Fatal(err)
	}
	set, err := scenario.Parse(data)
	if err != nil {
		t.Fatal(err)
	}
	return mockpayer.New(mockpayer.WithClock(func() time.Time { return fixedNow }), mockpayer.WithScenarioSet(set))
}

type mappedBenefit struct {
	Code                       string   `json:"code"`
	CoverageLevelCode          string   `json:"coverageLevelCode"`
	ServiceTypeCodes           []string `json:"serviceTypeCodes"`
	PlanCoverage               string   `json:"planCoverage"`
	TimeQualifierCode          string   `json:"timeQualifierCode"`
	BenefitAmount              string   `json:"benefitAmount"`
	BenefitPercent             string   `json:"benefitPercent"`
	InPlanNetworkIndicatorCode string   `json:"inPlanNetworkIndicatorCode"`
	BenefitQuantity            string   `json:"benefitQuantity"`
	QuantityQualifierCode      string   `json:"quantityQualifierCode"`
}

type mapped271 struct {
	Subscriber struct {
		MemberID string `json:"memberId"`
	} `json:"subscriber"`
	TraceNumbers []struct {
		TraceTypeCode, ReferenceIdentification, SecondaryReferenceIdentification string
	} `json:"subscriberTraceNumbers"`
	Benefits []mappedBenefit `json:"benefitsInformation"`
	Errors   []struct {
		Code     string `json:"code"`
		Location string `json:"location"`
	} `json:"errors"`
	Warnings []any `json:"warnings"`
}

func mapAnswer(t *testing.T, x271 []byte) mapped271 {
	t.Helper()
	parse271(t, x271) // guide-valid, no findings
	res, err := eligibility.Map271(x271)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(res)
	var got mapped271
	if err := json.Unmarshal(raw, &got); err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) > 0 {
		t.Errorf("mapper warnings: %s", raw)
	}
	return got
}

func request(payer, member, last, stc string) []byte {
	return []byte(`{"tradingPartnerServiceId": "` + payer + `", "provider": {"organizationName": "Clinic", "npi": "1999999984"},
		"subscriber": {"memberId": "` + member + `", "firstName": "Pat", "lastName": "` + last + `", "dateOfBirth": "19800101"},
		"encounter": {"serviceTypeCodes": ["` + stc + `"]}}`)
}

// A scenario's benefits description comes back as exactly those EB
// segments, guide-valid, and the JSON names the scenario in the payer's
// trace.
func TestScenarioBenefitsAnswer(t *testing.T) {
	m := cookbookMock(t)
	got := mapAnswer(t, exchange(t, m, build270(t, request("60054", "HDHP0001", "Rivera", "30"))))
	type key struct{ code, level, time, amount, percent, net string }
	var have []key
	for _, b := range got.Benefits {
		have = append(have, key{b.Code, b.CoverageLevelCode, b.TimeQualifierCode, b.BenefitAmount, b.BenefitPercent, b.InPlanNetworkIndicatorCode})
	}
	want := []key{
		{"1", "IND", "", "", "", ""},
		{"C", "IND", "23", "2500", "", "Y"}, {"C", "IND", "29", "1500", "", "Y"},
		{"C", "FAM", "23", "5000", "", "Y"}, {"C", "FAM", "29", "4000", "", "Y"},
		{"G", "IND", "23", "7000", "", "Y"}, {"G", "IND", "29", "6000", "", "Y"},
		{"B", "IND", "27", "40", "", "Y"},
		{"A", "IND", "27", "", "0.2", "Y"},
	}
	if len(have) != len(want) {
		t.Fatalf("benefits %+v\nwant %+v", have, want)
	}
	for i := range want {
		if have[i] != want[i] {
			t.Errorf("benefit %d = %+v, want %+v", i, have[i], want[i])
		}
	}
	if got.Benefits[0].PlanCoverage != "AETNA HDHP 2500" || got.Subscriber.MemberID != "HDHP0001" {
		t.Errorf("plan %q member %q", got.Benefits[0].PlanCoverage, got.Subscriber.MemberID)
	}
	named := false
	for _, tr := range got.TraceNumbers {
		named = named || tr.SecondaryReferenceIdentification == "high-deductible-plan"
	}
	if !named {
		t.Errorf("no trace names the scenario: %+v", got.TraceNumbers)
	}

	// The same request gives the same answer (ISA13 and times aside).
	again := mapAnswer(t, exchange(t, m, build270(t, request("60054", "HDHP0001", "Rivera", "30"))))
	a, _ := json.Marshal(got.Benefits)
	b, _ := json.Marshal(again.Benefits)
	if string(a) != string(b) {
		t.Errorf("not deterministic:\n%s\n%s", a, b)
	}
}

func TestScenarioInactiveRejectDentalLimits(t *testing.T) {
	m := cookbookMock(t)
	inactive := mapAnswer(t, exchange(t, m, build270(t, request("87726", "GONE0001", "Doe", "30"))))
	if len(inactive.Benefits) != 1 || inactive.Benefits[0].Code != "6" {
		t.Errorf("inactive: %+v", inactive.Benefits)
	}
	start := time.Now()
	rejected := mapAnswer(t, exchange(t, m, build270(t, request("87726", "NOPE0001", "Doe", "30"))))
	if len(rejected.Errors) != 1 || rejected.Errors[0].Code != "75" || len(rejected.Benefits) != 0 {
		t.Errorf("reject: %+v", rejected)
	}
	if d := time.Since(start); d < 200*time.Millisecond {
		t.Errorf("delayMs 200 answered after %s", d)
	}
	dental := mapAnswer(t, exchange(t, m, build270(t, request("62308", "DENT0001", "Doe", "35"))))
	var limits []mappedBenefit
	for _, b := range dental.Benefits {
		if b.Code == "F" {
			limits = append(limits, b)
		}
	}
	if len(limits) != 2 || limits[0].BenefitQuantity != "2" || limits[0].QuantityQualifierCode != "VS" || limits[0].TimeQualifierCode != "23" {
		t.Errorf("limitations %+v", limits)
	}
	// A published mock still answers as before next to the scenarios.
	pub := mockpayer.Requests()[0]
	if _, err := m.Exchange(context.Background(), build270(t, pub.RequestJSON())); err != nil {
		t.Errorf("published mock %s: %v", pub.Name, err)
	}
}

func TestScenarioTimeout(t *testing.T) {
	m := cookbookMock(t)
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err := m.Exchange(ctx, build270(t, request("87726", "ANY1", "Slow", "30")))
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("timeout scenario: %v", err)
	}
	// A dropped connection is an error that is neither a timeout nor a
	// refusal of the request.
	_, err = m.Exchange(context.Background(), build270(t, request("87726", "ANY1", "Drop", "30")))
	if !errors.Is(err, mockpayer.ErrSimulatedDrop) || errors.Is(err, mockpayer.ErrNoMockMatch) {
		t.Errorf("drop scenario: %v", err)
	}
	// Without a scenario set the same member is outside the mock set.
	_, err = newMock().Exchange(context.Background(), build270(t, request("87726", "ANY1", "Slow", "30")))
	if !errors.Is(err, mockpayer.ErrNoMockMatch) || strings.Contains(err.Error(), "scenario") {
		t.Errorf("without scenarios: %v", err)
	}
}

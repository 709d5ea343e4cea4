package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// captured keeps the checks the service records.
type captured struct{ checks []store.EligibilityCheck }

func (c *captured) InsertEligibilityCheck(_ context.Context, ch store.EligibilityCheck) error {
	c.checks = append(c.checks, ch)
	return nil
}

// TestResultViewGolden runs mock requests through the real service and
// mock payer (on a fixed date) and compares how the console lays out the
// stored answer: coverage box, people, benefit groups and tables, payer
// messages, rejections. Run with -update after an intended change and
// read the diff.
func TestResultViewGolden(t *testing.T) {
	day := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	dir := payers.Default()
	mock := mockpayer.New(mockpayer.WithDirectory(dir), mockpayer.WithClock(func() time.Time { return day }))
	router, err := payers.NewRouter(dir, mock, nil)
	if err != nil {
		t.Fatal(err)
	}
	history := &captured{}
	svc, err := eligibility.NewService(eligibility.Config{Router: router, History: history, Clock: clock.NewFake(day)})
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"uhc-dependent", "bcbstx-dependent", "cigna-dental", "metlife-dental", "uhc-inactive", "uhc-aaa-43", "kaiser-subscriber"} {
		t.Run(name, func(t *testing.T) {
			m, ok := findMock(name)
			if !ok {
				t.Fatalf("no mock request %s", name)
			}
			req := formFromMock(m).request()
			if _, err := svc.Check(context.Background(), eligibility.Caller{AccountID: "a", KeyID: "k", Mode: payers.ModeTest}, req); err != nil {
				t.Fatal(err)
			}
			view := newResultView(history.checks[len(history.checks)-1], dir)
			got, err := json.MarshalIndent(struct {
				Summary  string
				Coverage coverageView
				People   []personView
				Groups   []benefitGroup
				Messages []payerMessage
				Errors   []eligibility.AAAError
			}{view.Summary, view.Coverage, view.People, view.Groups, view.Messages, view.Errors}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			testenv.Golden(t, filepath.Join("testdata", "golden", name+".json"), got)
		})
	}
}

func findMock(name string) (mockpayer.MockRequest, bool) {
	for _, m := range mockpayer.Requests() {
		if m.Name == name {
			return m, true
		}
	}
	return mockpayer.MockRequest{}, false
}

func TestGroupBenefits(t *testing.T) {
	eb := func(code, level, st, network, time, amount, percent string, msgs ...string) eligibility.BenefitsInformation {
		b := eligibility.BenefitsInformation{Code: code, CoverageLevel: level, ServiceTypes: []string{st},
			InPlanNetworkIndicatorCode: network, TimeQualifierCode: time, BenefitAmount: amount, BenefitPercent: percent}
		b.Name = map[string]string{"A": "Co-Insurance", "B": "Co-Payment", "C": "Deductible", "1": "Active Coverage", "I": "Non-Covered"}[code]
		b.TimeQualifier = map[string]string{"23": "Calendar Year", "29": "Remaining", "27": "Visit"}[time]
		for _, m := range msgs {
			b.AdditionalInformation = append(b.AdditionalInformation, eligibility.AdditionalInformation{Description: m})
		}
		return b
	}
	groups, messages := groupBenefits([]eligibility.BenefitsInformation{
		eb("1", "", "Medical Care", "", "", "", ""),
		eb("C", "Individual", "Medical Care", "Y", "29", "250.5", ""), // remaining before total: reordered
		eb("C", "Individual", "Medical Care", "Y", "23", "1000", ""),
		eb("C", "Family", "Medical Care", "Y", "23", "2000", "", "MET WHEN FAMILY AMOUNT IS SATISFIED"),
		eb("C", "Individual", "Medical Care", "N", "23", "3000", ""),
		eb("A", "Individual", "Medical Care", "N", "27", "", "0.4"),
		eb("B", "Individual", "Medical Care", "Y", "27", "25", ""),
		eb("I", "", "Dental Care", "", "", "", "", "DENTAL IS NOT COVERED"),
		eb("A", "Individual", "Chiropractic", "N", "27", "", "0.4"),
		eb("A", "Individual", "Mental Health", "N", "27", "", "0.4"),
	})
	cell := func(amounts ...amount) []amount { return amounts }
	want := []benefitGroup{
		{
			ID: "benefits-1", Name: "Medical Care",
			Networks: []string{"In network", "Out of network"}, Levels: []string{"Individual", "Family"},
			Rows: []benefitRow{
				{Kind: "Copay", Cells: []benefitCell{
					{"In network, Individual", cell(amount{Value: "$25", Qualifier: "Visit"})},
					{"In network, Family", nil}, {"Out of network, Individual", nil}, {"Out of network, Family", nil},
				}},
				{Kind: "Coinsurance", Cells: []benefitCell{
					{"In network, Individual", nil}, {"In network, Family", nil},
					{"Out of network, Individual", cell(amount{Value: "40%", Qualifier: "Visit"})}, {"Out of network, Family", nil},
				}},
				{Kind: "Deductible", Cells: []benefitCell{
					{"In network, Individual", cell(amount{Value: "$1,000", Qualifier: "Calendar Year"}, amount{Value: "$250.50", Qualifier: "remaining", Remaining: true})},
					{"In network, Family", cell(amount{Value: "$2,000", Qualifier: "Calendar Year", Note: "MET WHEN FAMILY AMOUNT IS SATISFIED"})},
					{"Out of network, Individual", cell(amount{Value: "$3,000", Qualifier: "Calendar Year"})},
					{"Out of network, Family", nil},
				}},
			},
		},
		{ID: "benefits-2", Name: "Dental Care", Other: []otherLine{{Kind: "Non-Covered", Text: "DENTAL IS NOT COVERED"}}},
		{
			ID: "benefits-3", Name: "Chiropractic, Mental Health",
			Networks: []string{"Out of network"}, Levels: []string{"Individual"},
			Rows: []benefitRow{{Kind: "Coinsurance", Cells: []benefitCell{{"Out of network, Individual", cell(amount{Value: "40%", Qualifier: "Visit"})}}}},
		},
	}
	if d := cmp.Diff(want, groups); d != "" {
		t.Errorf("groups (-want +got):\n%s", d)
	}
	wantMessages := []payerMessage{
		{Context: "Medical Care · Deductible", Text: "MET WHEN FAMILY AMOUNT IS SATISFIED"},
		{Context: "Dental Care · Non-Covered", Text: "DENTAL IS NOT COVERED"},
	}
	if d := cmp.Diff(wantMessages, messages); d != "" {
		t.Errorf("messages (-want +got):\n%s", d)
	}
}

func TestStoredProblemIsShown(t *testing.T) {
	body, _ := json.Marshal(eligibility.Problem{Code: "FORBIDDEN", Message: "This is a test API key: no mock request matches"})
	v := newResultView(store.EligibilityCheck{ID: "ec_1", Status: "error", HTTPStatus: 403, ResponseJSON: body,
		RequestJSON: []byte(`{"tradingPartnerServiceId":"87726"}`)}, payers.Default())
	if v.Problem == nil || v.Problem.Code != "FORBIDDEN" || v.Response != nil || v.PayerName != "UnitedHealthcare" ||
		v.Coverage.Class != "bad" || v.Summary != "The check failed: This is a test API key: no mock request matches" {
		t.Errorf("view of a stored problem: %+v", v)
	}
}

func TestReadableX12(t *testing.T) {
	isa := "ISA*00*          *00*          *ZZ*SENDER         *ZZ*RECEIVER       *260302*0900*^*00501*000000001*0*T*:~"
	got := readableX12([]byte(isa + "GS*HB*A*B~ST*271*0001~"))
	want := isa + "\nGS*HB*A*B~\nST*271*0001~\n"
	if got != want {
		t.Errorf("readableX12:\n%s\nwant:\n%s", got, want)
	}
	if got := readableX12([]byte("not x12")); got != "not x12" {
		t.Errorf("non-X12 input changed: %q", got)
	}
}

func TestFormats(t *testing.T) {
	for _, tc := range []struct {
		f        func(string) string
		in, want string
	}{
		{formatMoney, "2000", "$2,000"},
		{formatMoney, "1475.82", "$1,475.82"},
		{formatMoney, "3210.4", "$3,210.40"},
		{formatMoney, "0", "$0"},
		{formatMoney, "1234567.5", "$1,234,567.50"},
		{formatMoney, "-20", "-$20"},
		{formatMoney, "abc", "abc"},
		{formatPercent, "0.2", "20%"},
		{formatPercent, ".125", "12.5%"},
		{formatPercent, "1", "100%"},
		{formatDate, "20260131", "Jan 31, 2026"},
		{formatDate, "20260101-20261231", "Jan 1, 2026 – Dec 31, 2026"},
		{formatDate, "2026", "2026"},
		{humanize, "dateOfLastUpdate", "Date of last update"},
	} {
		if got := tc.f(tc.in); got != tc.want {
			t.Errorf("%q → %q, want %q", tc.in, got, tc.want)
		}
	}
}

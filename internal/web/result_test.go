package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/services"
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
	for _, name := range []string{"uhc-dependent", "bcbstx-dependent", "cigna-dental", "metlife-dental", "uhc-inactive", "uhc-aaa-43", "kaiser-subscriber", "uhc-subscriber", "cms-subscriber", "ameritas-dental", "anthem-dental"} {
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
				Benefits benefitsView
				Errors   []aaaView
				Contacts []labeled
			}{view.Summary, view.Coverage, view.People, view.Benefits, view.Errors, view.Contacts}, "", "  ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			testenv.Golden(t, filepath.Join("testdata", "golden", name+".json"), got)
		})
	}
}

func findMock(name string) (eligibility.Example, bool) {
	for _, m := range services.MockExamples() {
		if m.Name == name {
			return m, true
		}
	}
	return eligibility.Example{}, false
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

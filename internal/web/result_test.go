package web

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
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
			view := summary.New(history.checks[len(history.checks)-1], dir)
			got, err := json.MarshalIndent(struct {
				Summary  string
				Coverage summary.Coverage
				People   []summary.Person
				Benefits summary.Benefits
				Errors   []summary.Rejection
				Contacts []summary.Labeled
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

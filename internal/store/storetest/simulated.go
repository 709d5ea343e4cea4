package storetest

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Which scenario produced an answer is stored with the check (same
// transaction) or per claim answer, kept once per subject and kind, and
// read only in its own account and mode.
func testSimulatedAnswers(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	c := newCheck(a, k, t0)
	c.Simulation = &store.SimulatedAnswer{Kind: "eligibility", Scenario: "hdhp-denied-197", Index: 2, Line: 14}
	must(t, s.InsertEligibilityCheck(ctx, c))
	got, err := s.ListSimulatedAnswers(ctx, a.ID, store.ModeTest, c.ID)
	must(t, err)
	if len(got) != 1 || got[0].Scenario != "hdhp-denied-197" || got[0].Index != 2 || got[0].Line != 14 || got[0].Kind != "eligibility" ||
		!got[0].CreatedAt.Equal(t0.Truncate(1000)) {
		t.Errorf("the check's simulation: %+v", got)
	}

	claim := store.ClaimSubject("ex-1", "PCN-1")
	answer := func(kind, name string) store.SimulatedAnswer {
		return store.SimulatedAnswer{AccountID: a.ID, Mode: store.ModeTest, Subject: claim, Kind: kind, Scenario: name, Line: 3, CreatedAt: t0}
	}
	must(t, s.PutSimulatedAnswers(ctx, []store.SimulatedAnswer{answer("277CA", "denied"), answer("835", "denied")}))
	must(t, s.PutSimulatedAnswers(ctx, []store.SimulatedAnswer{answer("835", "rerun")})) // a rerun keeps the first
	got, err = s.ListSimulatedAnswers(ctx, a.ID, store.ModeTest, claim)
	must(t, err)
	if len(got) != 2 || got[0].Kind != "277CA" || got[1].Kind != "835" || got[1].Scenario != "denied" {
		t.Errorf("the claim's simulations: %+v", got)
	}
	for _, c := range []struct{ account, mode string }{{other.ID, store.ModeTest}, {a.ID, store.ModeProduction}} {
		if got, err := s.ListSimulatedAnswers(ctx, c.account, c.mode, claim); err != nil || len(got) != 0 {
			t.Errorf("%s/%s reads the owner's simulations: %+v %v", c.account, c.mode, got, err)
		}
	}
}

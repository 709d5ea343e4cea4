package storetest

import (
	"time"

	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A resent claim's link to the claim it replaces is read from either side,
// once per claim, and only in its own account and mode.
func testClaimResends(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	link := func(claim, previous, frequency string, at int) store.ClaimResend {
		return store.ClaimResend{AccountID: a.ID, Mode: store.ModeTest, ClaimID: claim, PreviousClaimID: previous,
			Frequency: frequency, CreatedAt: t0.Add(time.Duration(at) * time.Second)}
	}
	must(t, s.RecordClaimResend(ctx, link("clm-b", "clm-a", "1", 1)))
	must(t, s.RecordClaimResend(ctx, link("clm-c", "clm-b", "7", 2)))
	wantErr(t, s.RecordClaimResend(ctx, link("clm-c", "clm-a", "8", 3)), store.ErrConflict)

	got, err := s.ClaimResendsOf(ctx, a.ID, store.ModeTest, "clm-b")
	must(t, err)
	if len(got) != 2 || got[0].ClaimID != "clm-b" || got[0].PreviousClaimID != "clm-a" || got[0].Frequency != "1" ||
		got[1].ClaimID != "clm-c" || got[1].PreviousClaimID != "clm-b" || got[1].Frequency != "7" || !got[0].CreatedAt.Equal(t0.Add(time.Second)) {
		t.Errorf("links of the middle claim: %+v", got)
	}
	if got, err := s.ClaimResendsOf(ctx, a.ID, store.ModeTest, "clm-a"); err != nil || len(got) != 1 || got[0].ClaimID != "clm-b" {
		t.Errorf("links of the first claim: %+v %v", got, err)
	}
	for _, c := range []struct{ account, mode string }{{other.ID, store.ModeTest}, {a.ID, store.ModeProduction}} {
		if got, err := s.ClaimResendsOf(ctx, c.account, c.mode, "clm-b"); err != nil || len(got) != 0 {
			t.Errorf("%s/%s reads the owner's links: %+v %v", c.account, c.mode, got, err)
		}
	}
}

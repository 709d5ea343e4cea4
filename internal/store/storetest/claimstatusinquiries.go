package storetest

import (
	"strconv"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A claim's real-time status answers: listed oldest first, the newest
// store.MaxClaimStatusInquiries of them; another account or mode asking
// about the same claim id sees none.
func testClaimStatusInquiries(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeProduction)
	record := func(account, mode, id string, at time.Duration) {
		t.Helper()
		must(t, s.RecordClaimStatusInquiry(ctx, store.ClaimStatusInquiry{AccountID: account, Mode: mode, ID: id, ClaimID: "claim-1",
			PayerID: "87726", CategoryCode: "F1", StatusCode: "65", EffectiveDate: "2026-11-20", AmountPaid: "832",
			PayerClaimNumber: "PCN-AT-PAYER", CreatedAt: t0.Add(at)}))
	}
	for i := range store.MaxClaimStatusInquiries + 5 {
		record(a.ID, store.ModeProduction, "inq-"+strconv.Itoa(i), time.Duration(i)*time.Second)
	}
	got, err := s.ClaimStatusInquiriesOf(ctx, a.ID, store.ModeProduction, "claim-1")
	must(t, err)
	if len(got) != store.MaxClaimStatusInquiries || got[0].ID != "inq-5" || got[len(got)-1].ID != "inq-104" {
		t.Fatalf("%d answers, first %+v", len(got), got[0])
	}
	if g := got[0]; g.PayerID != "87726" || g.CategoryCode != "F1" || g.StatusCode != "65" || g.AmountPaid != "832" ||
		g.EffectiveDate != "2026-11-20" || g.PayerClaimNumber != "PCN-AT-PAYER" || !g.CreatedAt.Equal(t0.Add(5*time.Second)) {
		t.Errorf("answer read back: %+v", g)
	}
	for _, other := range []struct{ account, mode string }{{"another-account", store.ModeProduction}, {a.ID, store.ModeTest}} {
		if got, err := s.ClaimStatusInquiriesOf(ctx, other.account, other.mode, "claim-1"); err != nil || len(got) != 0 {
			t.Errorf("%s/%s sees %d answers (%v)", other.account, other.mode, len(got), err)
		}
	}
}

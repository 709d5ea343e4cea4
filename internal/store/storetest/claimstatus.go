package storetest

import (
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testClaimStatus: answers link to claims, a lower-ranked answer never
// replaces a higher one, a repeat changes nothing, and the list filters by
// the status a claim's life gives it.
func testClaimStatus(t *testing.T, s store.Store) {
	a := newAccount(t, s, "claimstatus")
	other := newAccount(t, s, "other")
	e := newExecution(a.ID, 1)
	e.Direction, e.Status = store.DirectionOutbound, store.ExecutionDelivered
	must(t, s.InsertExecution(ctx, e))
	tr := store.Transaction{ID: "tx-837", AccountID: a.ID, Mode: store.ModeTest, ExecutionID: e.ID, Direction: store.DirectionOutbound,
		Status: store.TransactionSucceeded, TransactionSetID: "837", ControlNumber: "0001", PartnershipID: "ship", CreatedAt: t0, ProcessedAt: t0}
	must(t, s.InsertTransaction(ctx, tr))
	claim := func(id, pcn string, at time.Time) store.DentalClaim {
		return store.DentalClaim{ID: id, AccountID: a.ID, Mode: store.ModeTest, PatientControlNumber: pcn, PayerID: "52133",
			ChargeCents: 100, ControlNumber: "7", ExecutionID: e.ID, TransactionID: tr.ID, Response: []byte(`{}`), CreatedAt: at,
			GroupControlNumber: "41", PatientName: "Jane Doe"}
	}
	must(t, s.InsertDentalClaim(ctx, claim("c1", "PCN-1", t0)))
	must(t, s.InsertDentalClaim(ctx, claim("c2", "PCN-1", t0.Add(time.Second))))
	must(t, s.InsertDentalClaim(ctx, claim("c3", "PCN-3", t0.Add(2*time.Second))))

	found, err := s.FindClaimsForAnswer(ctx, a.ID, store.ModeTest, []string{"c3"}, []string{"PCN-1"})
	must(t, err)
	if len(found) != 3 || found[0].ID != "c3" || found[1].ID != "c2" || found[2].PatientName != "Jane Doe" {
		t.Errorf("FindClaimsForAnswer = %+v", found)
	}
	if found, _ := s.FindClaimsForAnswer(ctx, other.ID, store.ModeTest, []string{"c3"}, []string{"PCN-1"}); len(found) != 0 {
		t.Errorf("another account finds %d claims", len(found))
	}
	byControl, err := s.FindClaimsByControlNumbers(ctx, a.ID, store.ModeTest, "ship", "41", "0001")
	must(t, err)
	if len(byControl) != 3 {
		t.Errorf("FindClaimsByControlNumbers = %d claims", len(byControl))
	}
	if none, _ := s.FindClaimsByControlNumbers(ctx, a.ID, store.ModeTest, "other-ship", "41", "0001"); len(none) != 0 {
		t.Errorf("another partnership's 999 finds %d claims", len(none))
	}

	answer := func(claim, kind, outcome, tx string, at time.Time) store.ClaimAnswer {
		return store.ClaimAnswer{ClaimID: claim, AccountID: a.ID, Mode: store.ModeTest, Kind: kind, Outcome: outcome,
			ExecutionID: "in-" + tx, TransactionID: tx, Detail: []byte(`{"ackStatus":"A"}`), CreatedAt: at}
	}
	record := func(a store.ClaimAnswer) {
		t.Helper()
		_, err := s.RecordClaimAnswer(ctx, a)
		must(t, err)
	}
	record(answer("c1", store.ClaimAnswer277CA, "accepted", "t277", t0.Add(time.Minute)))
	record(answer("c1", store.ClaimAnswer999, "acknowledged", "t999", t0.Add(2*time.Minute))) // late 999
	record(answer("c1", store.ClaimAnswer277CA, "accepted", "t277", t0.Add(3*time.Minute)))   // again
	record(answer("c2", store.ClaimAnswer277CA, "rejected", "t277b", t0.Add(time.Minute)))
	got, err := s.GetDentalClaim(ctx, a.ID, "c1")
	must(t, err)
	if got.Answer != "accepted" || !got.AnsweredAt.Equal(t0.Add(time.Minute)) || got.GroupControlNumber != "41" {
		t.Errorf("claim after a 277CA and a late 999: %q at %v", got.Answer, got.AnsweredAt)
	}
	answers, err := s.ListClaimAnswers(ctx, a.ID, "c1")
	must(t, err)
	if len(answers) != 2 || answers[0].Kind != store.ClaimAnswer277CA || string(answers[1].Detail) != `{"ackStatus":"A"}` {
		t.Errorf("ListClaimAnswers = %+v", answers)
	}
	if list, _ := s.ListClaimAnswers(ctx, other.ID, "c1"); len(list) != 0 {
		t.Errorf("another account lists %d answers", len(list))
	}

	for _, c := range []struct {
		f    store.DentalClaimFilter
		want []string
	}{
		{store.DentalClaimFilter{}, []string{"c3", "c2", "c1"}},
		{store.DentalClaimFilter{Status: "accepted"}, []string{"c1"}},
		{store.DentalClaimFilter{Status: "rejected"}, []string{"c2"}},
		{store.DentalClaimFilter{Status: store.ClaimDelivered}, []string{"c3"}},
		{store.DentalClaimFilter{Status: store.ClaimSubmitted}, nil},
		{store.DentalClaimFilter{PatientControlNumber: "PCN-1"}, []string{"c2", "c1"}},
		{store.DentalClaimFilter{From: t0.Add(time.Second), To: t0.Add(2 * time.Second)}, []string{"c2"}},
		{store.DentalClaimFilter{Mode: store.ModeProduction}, nil},
	} {
		rows, _, err := s.ListDentalClaims(ctx, a.ID, c.f)
		must(t, err)
		var ids []string
		for _, r := range rows {
			ids = append(ids, r.ID)
			if r.FileStatus != store.ExecutionDelivered {
				t.Errorf("row %s file status %q", r.ID, r.FileStatus)
			}
		}
		if len(ids) != len(c.want) || (len(ids) > 0 && ids[0] != c.want[0]) {
			t.Errorf("filter %+v: %v, want %v", c.f, ids, c.want)
		}
	}
	// Pages.
	page1, next, err := s.ListDentalClaims(ctx, a.ID, store.DentalClaimFilter{Limit: 2})
	must(t, err)
	page2, last, err := s.ListDentalClaims(ctx, a.ID, store.DentalClaimFilter{Limit: 2, Cursor: next})
	must(t, err)
	if len(page1) != 2 || next == "" || len(page2) != 1 || page2[0].ID != "c1" || last != "" {
		t.Errorf("pages: %d then %d (%q)", len(page1), len(page2), last)
	}
}

package storetest

import (
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testClaimLifecycle: a claim's status follows its answers by rank and is
// reported as a change exactly once, payments add up (a reversal
// subtracts), the list filters by status, payer, patient control number,
// submission time and dates of service, and unmatched report claims are
// stored once and paged.
func testClaimLifecycle(t *testing.T, s store.Store) {
	a := newAccount(t, s, "lifecycle")
	submitted := store.ClaimState{Status: store.ClaimStatusSubmitted, ReportedBy: store.ReportedByClearinghouse}
	claim := func(id, pcn, payer, start, end string, at time.Time) store.DentalClaim {
		return store.DentalClaim{ID: id, AccountID: a.ID, Mode: store.ModeTest, PatientControlNumber: pcn, PayerID: payer,
			ChargeCents: 24500, ControlNumber: "7", Response: []byte(`{}`), CreatedAt: at,
			Lifecycle: store.ClaimLifecycle{Type: "DENTAL", Status: submitted.Status, ReportedBy: submitted.ReportedBy,
				ServiceStart: start, ServiceEnd: end, Patient: []byte(`{"firstName":"JANE","lastName":"DOE"}`)}}
	}
	must(t, s.InsertDentalClaim(ctx, claim("L1", "P-1", "52133", "2026-11-01", "", t0)))
	must(t, s.InsertDentalClaim(ctx, claim("L2", "P-2", "87726", "2026-10-01", "2026-10-05", t0.Add(time.Second))))
	must(t, s.InsertDentalClaim(ctx, claim("L3", "P-3", "52133", "", "", t0.Add(2*time.Second))))

	got, err := s.GetDentalClaim(ctx, a.ID, "L1")
	must(t, err)
	if l := got.Lifecycle; l.Type != "DENTAL" || l.Status != store.ClaimStatusSubmitted || l.PaidKnown || string(l.Patient) == "" {
		t.Fatalf("inserted lifecycle: %+v", l)
	}

	accepted := store.ClaimState{Status: store.ClaimStatusAccepted, ReportedBy: store.ReportedByPayer}
	processed := store.ClaimState{Status: store.ClaimStatusProcessed, ReportedBy: store.ReportedByPayer}
	answer := func(kind, tx string, state store.ClaimState, paid bool, cents int64) store.ClaimAnswer {
		return store.ClaimAnswer{ClaimID: "L1", AccountID: a.ID, Mode: store.ModeTest, Kind: kind, Outcome: "x",
			ExecutionID: "in-" + tx, TransactionID: tx, CreatedAt: t0.Add(time.Minute), State: state, Paid: paid, PaidCents: cents}
	}
	for _, c := range []struct {
		name    string
		a       store.ClaimAnswer
		changed bool
		want    store.ClaimState
	}{
		{"277CA accepts", answer(store.ClaimAnswer277CA, "a1", accepted, false, 0), true, accepted},
		{"the same 277CA again", answer(store.ClaimAnswer277CA, "a1", accepted, false, 0), false, accepted},
		{"835 pays", answer(store.ClaimAnswer835, "p1", processed, true, 20000), true, processed},
		{"a late 999 changes nothing", answer(store.ClaimAnswer999, "k1", store.ClaimState{Status: store.ClaimStatusReceived, ReportedBy: store.ReportedByPayer}, false, 0), false, processed},
		{"a reversal subtracts", answer(store.ClaimAnswer835, "p2", processed, true, -20000), false, processed},
		{"a corrected payment", answer(store.ClaimAnswer835, "p3", processed, true, 15000), false, processed},
	} {
		ch, err := s.RecordClaimAnswer(ctx, c.a)
		must(t, err)
		if ch.Changed() != c.changed || ch.After != c.want {
			t.Errorf("%s: %+v", c.name, ch)
		}
	}
	got, err = s.GetDentalClaim(ctx, a.ID, "L1")
	must(t, err)
	if l := got.Lifecycle; l.Status != store.ClaimStatusProcessed || !l.PaidKnown || l.PaidCents != 15000 {
		t.Errorf("after the answers: %+v", l)
	}

	// Holding claims (PostgreSQL locks their rows; SQLite's writer holds
	// them already) tells the newest of their answers, whichever ids are
	// named.
	must(t, s.InTx(ctx, func(tx store.Queries) error {
		for _, c := range []struct {
			ids  []string
			want time.Time
		}{
			{[]string{"L2", "L1", "missing"}, t0.Add(time.Minute)},
			{[]string{"L2", "L3"}, time.Time{}},
			{nil, time.Time{}},
		} {
			newest, err := tx.HoldClaims(ctx, a.ID, c.ids)
			if err != nil {
				return err
			}
			if !newest.Equal(c.want) {
				t.Errorf("HoldClaims(%v): newest answer at %v, want %v", c.ids, newest, c.want)
			}
		}
		return nil
	}))

	// A delivery that failed for good rejects a claim still submitted, and
	// only such a claim.
	rejected := store.ClaimState{Status: store.ClaimStatusRejected, ReportedBy: store.ReportedByClearinghouse}
	ch, err := s.SetClaimState(ctx, a.ID, "L2", rejected, store.ClaimStatusSubmitted)
	must(t, err)
	if !ch.Changed() || ch.After != rejected {
		t.Errorf("SetClaimState of a submitted claim: %+v", ch)
	}
	if ch, err := s.SetClaimState(ctx, a.ID, "L1", rejected, store.ClaimStatusSubmitted); err != nil || ch.Changed() {
		t.Errorf("SetClaimState of a processed claim: %+v %v", ch, err)
	}

	for _, c := range []struct {
		name string
		f    store.ClaimFilter
		want []string
	}{
		{"all", store.ClaimFilter{}, []string{"L3", "L2", "L1"}},
		{"status", store.ClaimFilter{Statuses: []string{store.ClaimStatusProcessed, store.ClaimStatusRejected}}, []string{"L2", "L1"}},
		{"submitted", store.ClaimFilter{Statuses: []string{store.ClaimStatusSubmitted}}, []string{"L3"}},
		{"payer", store.ClaimFilter{PayerID: "52133"}, []string{"L3", "L1"}},
		{"pcn", store.ClaimFilter{PatientControlNumbers: []string{"P-2", "P-3"}}, []string{"L3", "L2"}},
		{"submitted between", store.ClaimFilter{SubmittedFrom: t0.Add(time.Second), SubmittedTo: t0.Add(2 * time.Second)}, []string{"L2"}},
		{"service from", store.ClaimFilter{ServiceFrom: "2026-10-05"}, []string{"L2", "L1"}},
		{"service to", store.ClaimFilter{ServiceTo: "2026-10-31"}, []string{"L2"}},
		{"service window", store.ClaimFilter{ServiceFrom: "2026-10-06", ServiceTo: "2026-11-01"}, []string{"L1"}},
		{"other mode", store.ClaimFilter{Mode: store.ModeProduction}, nil},
	} {
		list, _, err := s.ListClaims(ctx, a.ID, c.f)
		must(t, err)
		var ids []string
		for _, cl := range list {
			ids = append(ids, cl.ID)
		}
		if !equalStrings(ids, c.want) {
			t.Errorf("%s: %v, want %v", c.name, ids, c.want)
		}
	}
	page1, next, err := s.ListClaims(ctx, a.ID, store.ClaimFilter{Limit: 2})
	must(t, err)
	page2, last, err := s.ListClaims(ctx, a.ID, store.ClaimFilter{Limit: 2, Cursor: next})
	must(t, err)
	if len(page1) != 2 || next == "" || len(page2) != 1 || page2[0].ID != "L1" || last != "" {
		t.Errorf("pages: %d then %d (%q)", len(page1), len(page2), last)
	}

	un := []store.UnmatchedReport{
		{ID: store.UnmatchedReportID("t835", 0), AccountID: a.ID, Mode: store.ModeTest, TransactionID: "t835", Kind: store.ClaimAnswer835, PatientControlNumber: "X-1", CreatedAt: t0},
		{ID: store.UnmatchedReportID("t835", 2), AccountID: a.ID, Mode: store.ModeTest, TransactionID: "t835", Kind: store.ClaimAnswer835, PatientControlNumber: "X-3", CreatedAt: t0},
		{ID: store.UnmatchedReportID("t277", 0), AccountID: a.ID, Mode: store.ModeTest, TransactionID: "t277", Kind: store.ClaimAnswer277CA, CreatedAt: t0.Add(time.Second)},
	}
	must(t, s.RecordUnmatchedReports(ctx, un))
	must(t, s.RecordUnmatchedReports(ctx, un[:1])) // again
	first, next, err := s.ListUnmatchedReports(ctx, a.ID, store.ModeTest, 2, "")
	must(t, err)
	rest, last, err := s.ListUnmatchedReports(ctx, a.ID, store.ModeTest, 2, next)
	must(t, err)
	if len(first) != 2 || first[0].TransactionID != "t277" || first[1].PatientControlNumber != "X-3" || len(rest) != 1 ||
		rest[0].PatientControlNumber != "X-1" || last != "" {
		t.Errorf("unmatched pages: %+v then %+v", first, rest)
	}
	if other, _, _ := s.ListUnmatchedReports(ctx, a.ID, store.ModeProduction, 10, ""); len(other) != 0 {
		t.Errorf("production lists %d test reports", len(other))
	}
}

func equalStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

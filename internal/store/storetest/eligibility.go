package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/google/go-cmp/cmp"
)

func newCheck(a store.Account, k store.APIKey, at time.Time) store.EligibilityCheck {
	return store.EligibilityCheck{
		ID: store.NewID(), AccountID: a.ID, KeyID: k.ID, Mode: k.Mode,
		TradingPartnerServiceID: "60054", PayerName: "Aetna", ControlNumber: "123456789", SubmitterControlNumber: "000000042",
		Status: "active", RequestJSON: []byte(`{"tradingPartnerServiceId":"60054"}`),
		X12Request:   []byte("ISA*00*          *00*~"),
		X12Response:  []byte("ISA*00*          *00*~EB*1**30~"),
		ResponseJSON: []byte(`{"benefitsInformation":[]}`), HTTPStatus: 200,
		CreatedAt: at, DurationMicros: 1234567, CostMicros: 100000,
	}
}

func testEligibilityRoundTrip(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeProduction)
	c := newCheck(a, k, t0)
	must(t, s.InsertEligibilityCheck(ctx, c))
	wantErr(t, s.InsertEligibilityCheck(ctx, c), store.ErrConflict)
	got, err := s.GetEligibilityCheck(ctx, a.ID, c.ID)
	must(t, err)
	if diff := cmp.Diff(c, got); diff != "" {
		t.Errorf("GetEligibilityCheck (-want +got):\n%s", diff)
	}

	// Empty byte fields come back nil; unicode survives.
	c2 := store.EligibilityCheck{ID: store.NewID(), AccountID: a.ID, KeyID: k.ID, Mode: store.ModeProduction,
		PayerName: "Zürich Krankenkasse ✓", Status: "error", HTTPStatus: 400, CreatedAt: t0}
	must(t, s.InsertEligibilityCheck(ctx, c2))
	got, err = s.GetEligibilityCheck(ctx, a.ID, c2.ID)
	must(t, err)
	if diff := cmp.Diff(c2, got); diff != "" {
		t.Errorf("sparse check (-want +got):\n%s", diff)
	}
	_, err = s.GetEligibilityCheck(ctx, a.ID, "missing")
	wantErr(t, err, store.ErrNotFound)
}

func testEligibilityIsolation(t *testing.T, s store.Store) {
	a, ka := Seed(t, s, store.ModeTest)
	b, kb := Seed(t, s, store.ModeTest)
	ca := newCheck(a, ka, t0)
	cb := newCheck(b, kb, t0)
	must(t, s.InsertEligibilityCheck(ctx, ca))
	must(t, s.InsertEligibilityCheck(ctx, cb))

	_, err := s.GetEligibilityCheck(ctx, b.ID, ca.ID)
	wantErr(t, err, store.ErrNotFound)
	_, err = s.GetEligibilityCheck(ctx, a.ID, cb.ID)
	wantErr(t, err, store.ErrNotFound)
	for _, acct := range []store.Account{a, b} {
		list, _, err := s.ListEligibilityChecks(ctx, acct.ID, store.EligibilityFilter{})
		must(t, err)
		if len(list) != 1 || list[0].AccountID != acct.ID {
			t.Errorf("account %s lists %d checks: %+v", acct.Name, len(list), list)
		}
		usage, err := s.ListUsage(ctx, acct.ID)
		must(t, err)
		if len(usage) != 1 || usage[0].AccountID != acct.ID {
			t.Errorf("account %s sees usage %+v", acct.Name, usage)
		}
	}
	list, _, err := s.ListEligibilityChecks(ctx, "", store.EligibilityFilter{})
	must(t, err)
	if len(list) != 0 {
		t.Errorf("empty account id lists %d checks, want 0", len(list))
	}
}

func testEligibilityList(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	var all []store.EligibilityCheck // newest first
	for i := range 7 {
		c := newCheck(a, k, t0.Add(time.Duration(i)*time.Minute))
		if i%2 == 1 {
			c.TradingPartnerServiceID, c.Status = "CIGNA", "inactive"
		}
		must(t, s.InsertEligibilityCheck(ctx, c))
		all = append([]store.EligibilityCheck{c}, all...)
	}
	// Two checks in the same microsecond: the id breaks the tie.
	twin1, twin2 := newCheck(a, k, t0.Add(-time.Minute)), newCheck(a, k, t0.Add(-time.Minute))
	must(t, s.InsertEligibilityCheck(ctx, twin1))
	must(t, s.InsertEligibilityCheck(ctx, twin2))
	all = append(all, twin2, twin1)

	ids := func(cs []store.EligibilityCheck) []string {
		out := []string{}
		for _, c := range cs {
			out = append(out, c.ID)
		}
		return out
	}
	var paged []store.EligibilityCheck
	cursor, pages := "", 0
	for {
		page, next, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Limit: 4, Cursor: cursor})
		must(t, err)
		paged = append(paged, page...)
		pages++
		if next == "" {
			break
		}
		if pages > 10 {
			t.Fatal("pagination does not end")
		}
		cursor = next
	}
	if diff := cmp.Diff(ids(all), ids(paged)); diff != "" {
		t.Errorf("paged listing (-want +got):\n%s", diff)
	}
	if pages != 3 {
		t.Errorf("9 checks at 4 per page took %d pages, want 3", pages)
	}

	filters := []struct {
		f    store.EligibilityFilter
		want int
	}{
		{store.EligibilityFilter{PayerID: "CIGNA"}, 3},
		{store.EligibilityFilter{Status: "active"}, 6},
		{store.EligibilityFilter{PayerID: "CIGNA", Status: "active"}, 0},
		{store.EligibilityFilter{From: t0.Add(2 * time.Minute)}, 5},
		{store.EligibilityFilter{From: t0, To: t0.Add(2 * time.Minute)}, 2},
		{store.EligibilityFilter{To: t0}, 2},
		{store.EligibilityFilter{Limit: 2}, 2},
	}
	for _, tc := range filters {
		got, _, err := s.ListEligibilityChecks(ctx, a.ID, tc.f)
		must(t, err)
		if len(got) != tc.want {
			t.Errorf("filter %+v: %d checks, want %d", tc.f, len(got), tc.want)
		}
	}
	_, _, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Cursor: "not a cursor!"})
	if !errors.Is(err, store.ErrBadCursor) {
		t.Errorf("bad cursor: error %v, want ErrBadCursor", err)
	}
}

func testUsage(t *testing.T, s store.Store) {
	a, test := Seed(t, s, store.ModeTest)
	live := store.APIKey{ID: store.NewID(), AccountID: a.ID, Mode: store.ModeProduction, Hash: "x", CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, live))
	for i := range 3 {
		must(t, s.InsertEligibilityCheck(ctx, newCheck(a, test, t0.Add(time.Duration(i)*time.Second))))
	}
	for i := range 2 {
		must(t, s.InsertEligibilityCheck(ctx, newCheck(a, live, t0.Add(time.Duration(i)*time.Second))))
	}
	records, err := s.ListUsage(ctx, a.ID)
	must(t, err)
	if len(records) != 5 {
		t.Fatalf("%d usage records, want one per check (5)", len(records))
	}
	for _, r := range records {
		if r.Kind != store.UsageEligibilityCheck || r.RefID == "" {
			t.Errorf("usage record %+v lacks kind or check id", r)
		}
		if r.Mode == store.ModeTest && r.CostMicros != 0 {
			t.Errorf("test-mode check cost %d, want 0", r.CostMicros)
		}
	}
	totals, err := s.UsageByKey(ctx, a.ID, time.Time{}, time.Time{})
	must(t, err)
	want := map[string]store.UsageTotal{
		test.ID: {KeyID: test.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeTest, Count: 3, CostMicros: 0},
		live.ID: {KeyID: live.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeProduction, Count: 2, CostMicros: 200000},
	}
	if len(totals) != len(want) {
		t.Fatalf("UsageByKey = %+v, want %d rows", totals, len(want))
	}
	for _, got := range totals {
		if diff := cmp.Diff(want[got.KeyID], got); diff != "" {
			t.Errorf("UsageByKey %s (-want +got):\n%s", got.KeyID, diff)
		}
	}
	windowed, err := s.UsageByKey(ctx, a.ID, t0.Add(time.Second), t0.Add(2*time.Second))
	must(t, err)
	var n int64
	for _, w := range windowed {
		n += w.Count
	}
	if n != 2 {
		t.Errorf("usage in [t0+1s, t0+2s) counts %d calls, want 2", n)
	}
}

func testTxRollback(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	c := newCheck(a, k, t0)
	boom := fmt.Errorf("boom")
	err := s.InTx(ctx, func(tx store.Queries) error {
		must(t, tx.InsertEligibilityCheck(ctx, c))
		if _, err := tx.GetEligibilityCheck(ctx, a.ID, c.ID); err != nil {
			t.Errorf("transaction does not see its own write: %v", err)
		}
		return boom
	})
	wantErr(t, err, boom)
	_, err = s.GetEligibilityCheck(ctx, a.ID, c.ID)
	wantErr(t, err, store.ErrNotFound)
	if u, _ := s.ListUsage(ctx, a.ID); len(u) != 0 {
		t.Errorf("rolled back check left %d usage rows", len(u))
	}
	must(t, s.InTx(ctx, func(tx store.Queries) error { return tx.InsertEligibilityCheck(ctx, c) }))
	if _, err := s.GetEligibilityCheck(ctx, a.ID, c.ID); err != nil {
		t.Errorf("committed check not found: %v", err)
	}
}

// testEligibilityListByMode: the mode filter is applied by the query, so a
// page of n holds n checks of that mode even when the other mode's checks
// are interleaved with them, and the cursor pages through that mode only.
func testEligibilityListByMode(t *testing.T, s store.Store) {
	a, test := Seed(t, s, store.ModeTest)
	live := store.APIKey{ID: store.NewID(), AccountID: a.ID, Mode: store.ModeProduction, Hash: "x", CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, live))
	want := map[string][]string{} // mode → ids, newest first
	for i := range 10 {
		k := test
		if i%2 == 1 {
			k = live
		}
		c := newCheck(a, k, t0.Add(time.Duration(i)*time.Second))
		must(t, s.InsertEligibilityCheck(ctx, c))
		want[k.Mode] = append([]string{c.ID}, want[k.Mode]...)
	}
	for _, mode := range []string{store.ModeTest, store.ModeProduction} {
		var got []string
		cursor := ""
		for pages := 0; ; pages++ {
			page, next, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Mode: mode, Limit: 2, Cursor: cursor})
			must(t, err)
			if next != "" && len(page) != 2 {
				t.Fatalf("mode %s: a page that is not the last holds %d checks, want 2", mode, len(page))
			}
			for _, c := range page {
				if c.Mode != mode {
					t.Errorf("mode %s lists a %s check", mode, c.Mode)
				}
				got = append(got, c.ID)
			}
			if next == "" || pages > 5 {
				break
			}
			cursor = next
		}
		if diff := cmp.Diff(want[mode], got); diff != "" {
			t.Errorf("mode %s (-want +got):\n%s", mode, diff)
		}
	}
	both, _, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Mode: store.ModeTest, Status: "active", PayerID: "60054"})
	must(t, err)
	if len(both) != 5 {
		t.Errorf("mode, status and payer together: %d checks, want 5", len(both))
	}
}

// testEligibilityConcurrentInserts: many checks inserted at once (SQLite
// commits them in groups) are all stored and counted in usage, and a
// duplicate among them fails alone with ErrConflict.
func testEligibilityConcurrentInserts(t *testing.T, s store.Store) {
	a, k := Seed(t, s, store.ModeTest)
	dup := newCheck(a, k, t0)
	must(t, s.InsertEligibilityCheck(ctx, dup))
	const n = 40
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			c := newCheck(a, k, t0.Add(time.Duration(i)*time.Millisecond))
			if i%10 == 5 {
				c = dup // already stored
			}
			errs[i] = s.InsertEligibilityCheck(ctx, c)
		})
	}
	wg.Wait()
	for i, err := range errs {
		if i%10 == 5 {
			if !errors.Is(err, store.ErrConflict) {
				t.Errorf("duplicate insert %d: %v, want ErrConflict", i, err)
			}
		} else if err != nil {
			t.Errorf("insert %d: %v", i, err)
		}
	}
	list, _, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Limit: 500})
	must(t, err)
	usage, err := s.ListUsage(ctx, a.ID)
	must(t, err)
	if want := 1 + n - n/10; len(list) != want || len(usage) != want {
		t.Errorf("%d checks and %d usage rows stored, want %d of each", len(list), len(usage), want)
	}
}

package storetest

import (
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/google/go-cmp/cmp"
)

// testUsageFromChecks: a check is its own usage row (package store,
// usage.go). Usage of other kinds, rows an older build wrote beside its
// checks, and rows of checks retention removed count beside the checks,
// each call exactly once; retention removing checks changes no total; an
// account sees only its own usage, and a scope only its own mode's.
func testUsageFromChecks(t *testing.T, s store.Store) {
	a, test := Seed(t, s, store.ModeTest)
	live := store.APIKey{ID: store.NewID(), AccountID: a.ID, Mode: store.ModeProduction, Hash: "x", CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, live))
	b, other := Seed(t, s, store.ModeTest)
	var checks []store.EligibilityCheck
	for i := range 4 {
		c := newCheck(a, test, t0.Add(time.Duration(i)*time.Second))
		must(t, s.InsertEligibilityCheck(ctx, c))
		checks = append(checks, c)
	}
	for i := range 3 {
		must(t, s.InsertEligibilityCheck(ctx, newCheck(a, live, t0.Add(time.Duration(i)*time.Second))))
	}
	must(t, s.InsertEligibilityCheck(ctx, newCheck(b, other, t0)))
	const insert = `INSERT INTO usage (id, account_id, key_id, mode, kind, ref_id, cost_micros, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`
	at := t0.UnixMicro()
	// Another kind of call, in both accounts.
	execRaw(t, s, insert, store.NewID(), a.ID, live.ID, store.ModeProduction, "claim", "clm_1", 7000, at)
	execRaw(t, s, insert, store.NewID(), b.ID, other.ID, store.ModeTest, "claim", "clm_2", 0, at)
	// What an older build wrote beside a check it stored (counted by the check).
	execRaw(t, s, insert, store.NewID(), a.ID, test.ID, store.ModeTest, store.UsageEligibilityCheck, checks[0].ID, 0, at)
	// A check an older build stored and retention then removed: its row alone.
	execRaw(t, s, insert, store.NewID(), a.ID, live.ID, store.ModeProduction, store.UsageEligibilityCheck, "ec_gone", 100000, at)

	want := []store.UsageTotal{
		{KeyID: test.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeTest, Count: 4, CostMicros: 0},
		{KeyID: live.ID, Kind: "claim", Mode: store.ModeProduction, Count: 1, CostMicros: 7000},
		{KeyID: live.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeProduction, Count: 4, CostMicros: 400000},
	}
	byKey := func(when string, want []store.UsageTotal) {
		t.Helper()
		got, err := s.UsageByKey(ctx, a.ID, time.Time{}, time.Time{})
		must(t, err)
		sortTotals(want)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: UsageByKey (-want +got):\n%s", when, diff)
		}
		records, err := s.ListUsage(ctx, a.ID)
		must(t, err)
		if len(records) != 9 {
			t.Errorf("%s: %d usage records, want 9: %+v", when, len(records), records)
		}
		seen := map[string]bool{}
		for i, r := range records {
			if r.AccountID != a.ID || seen[r.RefID] || (i > 0 && r.CreatedAt.Before(records[i-1].CreatedAt)) {
				t.Errorf("%s: usage record %d %+v (another account's, twice, or out of order)", when, i, r)
			}
			seen[r.RefID] = true
		}
	}
	byKey("stored", want)

	// Retention removes the checks made at t0 (a dry run first): their
	// usage stays, counted once — checks[0]'s by the older build's row.
	var purged store.PurgeResult
	for _, dry := range []bool{true, false} {
		must(t, s.InTx(ctx, func(tx store.Queries) error {
			var err error
			purged, err = tx.PurgeExpired(ctx, a.ID, store.PurgeCutoffs{Eligibility: t0.Add(time.Second)}, 0, dry)
			return err
		}))
		byKey("after the purge", want)
	}
	if purged.Checks != 2 { // the test and the live check at t0
		t.Errorf("purge removed %d checks, want 2", purged.Checks)
	}
	if _, err := s.GetEligibilityCheck(ctx, a.ID, checks[0].ID); err != store.ErrNotFound {
		t.Errorf("purged check: %v", err)
	}
	// A time window counts the calls inside it only.
	windowed, err := s.UsageByKey(ctx, a.ID, t0.Add(time.Second), t0.Add(3*time.Second))
	must(t, err)
	var n int64
	for _, w := range windowed {
		n += w.Count
	}
	if n != 4 { // test checks at +1s, +2s; live at +1s, +2s
		t.Errorf("usage in [t0+1s, t0+3s): %d calls (%+v), want 4", n, windowed)
	}

	// Tenancy: the other account sees its own check and claim; a scope sees
	// its own mode only.
	got, err := s.UsageByKey(ctx, b.ID, time.Time{}, time.Time{})
	must(t, err)
	wantB := []store.UsageTotal{
		{KeyID: other.ID, Kind: "claim", Mode: store.ModeTest, Count: 1},
		{KeyID: other.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeTest, Count: 1},
	}
	sortTotals(wantB)
	if diff := cmp.Diff(wantB, got); diff != "" {
		t.Errorf("the other account's UsageByKey (-want +got):\n%s", diff)
	}
	for _, mode := range []string{store.ModeTest, store.ModeProduction} {
		scoped, err := store.ForTenant(s, store.Scope{AccountID: a.ID, Mode: mode}).Usage(ctx, time.Time{}, time.Time{})
		must(t, err)
		for _, u := range scoped {
			if u.Mode != mode {
				t.Errorf("scope %s sees %+v", mode, u)
			}
		}
		if len(scoped) == 0 {
			t.Errorf("scope %s sees no usage", mode)
		}
	}
	if got, err := s.UsageByKey(ctx, "acct_none", time.Time{}, time.Time{}); err != nil || len(got) != 0 {
		t.Errorf("an unknown account's usage: %+v %v", got, err)
	}
}

// sortTotals orders totals as UsageByKey does (key, kind, mode).
func sortTotals(ts []store.UsageTotal) {
	for i := range ts {
		for j := i + 1; j < len(ts); j++ {
			x, y := ts[i], ts[j]
			if y.KeyID < x.KeyID || (y.KeyID == x.KeyID && (y.Kind < x.Kind || (y.Kind == x.Kind && y.Mode < x.Mode))) {
				ts[i], ts[j] = y, x
			}
		}
	}
}

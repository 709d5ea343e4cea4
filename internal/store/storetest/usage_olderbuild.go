package storetest

import (
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/google/go-cmp/cmp"
)

// testUsageKeptWhenAnOlderBuildDeletes: a check is its own usage row
// (dd8493a), and replicas of the previous version keep working beside the
// new schema (docs/operations/upgrades.md). Such a replica's retention
// deletes checks without copying their usage first — bfbcb7a's
// PurgeExpired ran just this DELETE — so the database keeps it: the usage
// totals are the same after it as before.
func testUsageKeptWhenAnOlderBuildDeletes(t *testing.T, s store.Store) {
	a, test := Seed(t, s, store.ModeTest)
	live := store.APIKey{ID: store.NewID(), AccountID: a.ID, Mode: store.ModeProduction, Hash: "y", CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, live))
	var ids []any
	for i := range 3 {
		for _, k := range []store.APIKey{test, live} {
			c := newCheck(a, k, t0.Add(time.Duration(i)*time.Second))
			must(t, s.InsertEligibilityCheck(ctx, c))
			ids = append(ids, c.ID)
		}
	}
	// One that already has the row an older build writes beside its check:
	// counted once, before and after.
	old := newCheck(a, live, t0.Add(time.Minute))
	must(t, s.InsertEligibilityCheck(ctx, old))
	execRaw(t, s, `INSERT INTO usage (id, account_id, key_id, mode, kind, ref_id, cost_micros, created_at)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`, store.NewID(), a.ID, live.ID, store.ModeProduction,
		store.UsageEligibilityCheck, old.ID, old.CostMicros, old.CreatedAt.UnixMicro())
	ids = append(ids, old.ID)

	before, err := s.UsageByKey(ctx, a.ID, time.Time{}, time.Time{})
	must(t, err)
	want := []store.UsageTotal{
		{KeyID: test.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeTest, Count: 3},
		{KeyID: live.ID, Kind: store.UsageEligibilityCheck, Mode: store.ModeProduction, Count: 4, CostMicros: 400000},
	}
	sortTotals(want)
	if diff := cmp.Diff(want, before); diff != "" {
		t.Fatalf("usage before (-want +got):\n%s", diff)
	}
	execRaw(t, s, `DELETE FROM eligibility_checks WHERE account_id = $1 AND id IN ($2, $3, $4, $5, $6, $7, $8)`,
		append([]any{a.ID}, ids...)...)
	if _, err := s.GetEligibilityCheck(ctx, a.ID, old.ID); err != store.ErrNotFound {
		t.Fatalf("deleted check: %v", err)
	}
	after, err := s.UsageByKey(ctx, a.ID, time.Time{}, time.Time{})
	must(t, err)
	if diff := cmp.Diff(want, after); diff != "" {
		t.Errorf("usage after an older build's retention deleted the checks (-want +got):\n%s", diff)
	}
	records, err := s.ListUsage(ctx, a.ID)
	must(t, err)
	if len(records) != len(ids) {
		t.Errorf("%d usage records, want %d: %+v", len(records), len(ids), records)
	}
}

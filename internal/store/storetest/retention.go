package storetest

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testRetentionPurge: a purge removes exactly the records older than the
// cutoffs — eligibility checks; finished files with their transactions,
// fragments, business identifiers, the claims they carried and those
// claims' answers; events without a pending webhook delivery — names the
// removed documents, leaves newer, unfinished and other accounts' records,
// and a dry run counts the same and removes nothing.
func testRetentionPurge(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, k := Seed(t, s, store.ModeTest)
	other, ok := Seed(t, s, store.ModeTest)
	now := time.Now().UTC().Truncate(time.Microsecond)
	old, recent := now.Add(-40*24*time.Hour), now.Add(-time.Hour)

	for _, c := range []store.EligibilityCheck{newCheck(a, k, old), newCheck(a, k, old), newCheck(a, k, recent), newCheck(other, ok, old)} {
		must(t, s.InsertEligibilityCheck(ctx, c))
	}
	file := func(acct string, at time.Time, status string) (store.Execution, store.Transaction) {
		e := newExecution(acct, 1)
		e.Status, e.CreatedAt, e.UpdatedAt = status, at, at
		e.Output = store.Artifact{Key: "executions/" + e.ID + "/output", Size: 3}
		e.Input.Key = "executions/" + e.ID + "/input"
		tr := store.Transaction{ID: store.NewUUID(), AccountID: acct, Mode: store.ModeTest, ExecutionID: e.ID,
			Direction: store.DirectionOutbound, Status: store.TransactionSucceeded, TransactionSetID: "837",
			Input: e.Input, Output: store.Artifact{Key: "transactions/" + e.ID + "/output.json", Size: 4},
			FragmentCount: 1, FragmentBatchSize: 1, FragmentKeyName: "loop",
			Fragments:   []store.Fragment{{Index: 0, Output: store.Artifact{Key: "transactions/" + e.ID + "/fragments/0.json", Size: 5}}},
			Identifiers: []store.BusinessIdentifier{{Element: "CLM-01", ElementID: "1028", Name: "Patient Control Number", Value: "PCN1"}},
			Detail:      []byte(`{}`), ProcessedAt: at, CreatedAt: at}
		err := s.InTx(ctx, func(tx store.Queries) error {
			if err := tx.InsertExecution(ctx, e); err != nil {
				return err
			}
			if err := tx.InsertTransaction(ctx, tr); err != nil {
				return err
			}
			return tx.InsertDentalClaim(ctx, store.DentalClaim{ID: store.NewID(), AccountID: acct, Mode: store.ModeTest,
				PatientControlNumber: "PCN1", PayerID: "52133", ControlNumber: "1", ExecutionID: e.ID, TransactionID: tr.ID,
				Response: []byte(`{}`), CreatedAt: at})
		})
		must(t, err)
		return e, tr
	}
	gone, goneTx := file(a.ID, old, store.ExecutionDelivered)
	_, _ = file(a.ID, old, store.ExecutionPendingDelivery) // unfinished: kept
	_, _ = file(a.ID, recent, store.ExecutionCompleted)
	_, _ = file(other.ID, old, store.ExecutionCompleted)
	for _, at := range []time.Time{old, recent} {
		must(t, s.InTx(ctx, func(tx store.Queries) error {
			return tx.InsertEvent(ctx, store.Event{ID: store.NewUUID(), AccountID: a.ID, Mode: store.ModeTest,
				DetailType: "file.processed.v2", Time: at, Envelope: []byte(`{}`)})
		}))
	}

	cut := store.PurgeCutoffs{Eligibility: now.Add(-30 * 24 * time.Hour), Files: now.Add(-30 * 24 * time.Hour), Events: now.Add(-30 * 24 * time.Hour)}
	want := store.PurgeResult{Checks: 2, Files: 1, Transactions: 1, Claims: 1, Events: 1}
	wantKeys := []string{gone.Input.Key, gone.Output.Key, goneTx.Output.Key, goneTx.Fragments[0].Output.Key}
	slices.Sort(wantKeys)
	same := func(what string, got store.PurgeResult) {
		t.Helper()
		keys := slices.Sorted(slices.Values(got.Blobs))
		got.Blobs = nil
		if got.Checks != want.Checks || got.Files != want.Files || got.Transactions != want.Transactions || got.Claims != want.Claims ||
			got.Events != want.Events || !slices.Equal(keys, wantKeys) {
			t.Fatalf("%s: %+v keys %v; want %+v keys %v", what, got, keys, want, wantKeys)
		}
	}
	dry, err := s.PurgeExpired(ctx, a.ID, cut, 100, true)
	must(t, err)
	same("dry run", dry)
	var done store.PurgeResult
	must(t, s.InTx(ctx, func(tx store.Queries) error {
		var err error
		done, err = tx.PurgeExpired(ctx, a.ID, cut, 100, false)
		return err
	}))
	same("purge", done)
	again, err := s.PurgeExpired(ctx, a.ID, cut, 100, true)
	must(t, err)
	if again.Any() || len(again.Blobs) > 0 {
		t.Fatalf("after the purge, still %+v", again)
	}
	if _, err := s.GetExecution(ctx, a.ID, gone.ID); err != store.ErrNotFound {
		t.Fatalf("purged execution: %v", err)
	}
	if _, err := s.GetTransaction(ctx, a.ID, goneTx.ID); err != store.ErrNotFound {
		t.Fatalf("purged transaction: %v", err)
	}
	// Its identifiers went too (the search rows are found by value: the
	// other transactions' rows of the same value stay).
	raw := Raw(t, s)
	for table, want := range map[string]int{"identifier_runs": 0, "identifier_values": 0} {
		var n int
		must(t, raw.QueryRowContext(ctx, `SELECT count(*) FROM `+table+` WHERE transaction_id = '`+goneTx.ID+`'`).Scan(&n))
		if n != want {
			t.Errorf("%s: %d rows of the purged transaction", table, n)
		}
	}
	if list, _, err := s.ListTransactions(ctx, a.ID, store.TransactionFilter{BusinessIdentifier: "PCN1"}); err != nil || len(list) != 2 {
		t.Errorf("the kept transactions by identifier: %d %v", len(list), err)
	}
	// The other account keeps everything.
	if r, _ := s.PurgeExpired(ctx, other.ID, cut, 100, true); r.Checks != 1 || r.Files != 1 {
		t.Fatalf("the other account's expired records: %+v", r)
	}
	p, err := s.GetRetentionPolicy(ctx, a.ID)
	if err != nil || p.EligibilityDays != 0 || p.FileDays != 0 {
		t.Fatalf("default policy %+v %v", p, err)
	}
	must(t, s.SetRetentionPolicy(ctx, store.RetentionPolicy{AccountID: a.ID, EligibilityDays: 30, FileDays: 90, EventDays: 7, UpdatedAt: now}))
	must(t, s.SetRetentionPolicy(ctx, store.RetentionPolicy{AccountID: a.ID, EligibilityDays: 31, FileDays: 90, EventDays: 7, UpdatedAt: now}))
	if ps, err := s.ListRetentionPolicies(ctx); err != nil || len(ps) != 1 || ps[0].EligibilityDays != 31 {
		t.Fatalf("policies %+v %v", ps, err)
	}
}

// testRetentionPurgeBothModes: the purge finds expired checks of both modes
// (it looks them up one mode at a time), oldest first within a mode, and
// removes no more than its limit.
func testRetentionPurgeBothModes(t *testing.T, s store.Store) {
	ctx := context.Background()
	a, kt := Seed(t, s, store.ModeTest)
	kp := store.APIKey{ID: store.NewID(), AccountID: a.ID, Mode: store.ModeProduction, Name: "prod",
		Hash: strings.Repeat("1", 64), CreatedAt: kt.CreatedAt}
	must(t, s.CreateAPIKey(ctx, kp))
	now := time.Now().UTC().Truncate(time.Microsecond)
	old, recent := now.Add(-40*24*time.Hour), now.Add(-time.Hour)
	for _, c := range []store.EligibilityCheck{newCheck(a, kt, old), newCheck(a, kp, old), newCheck(a, kp, old.Add(time.Second)),
		newCheck(a, kt, recent), newCheck(a, kp, recent)} {
		must(t, s.InsertEligibilityCheck(ctx, c))
	}
	cut := store.PurgeCutoffs{Eligibility: now.Add(-30 * 24 * time.Hour)}
	for _, step := range []struct{ limit, want int }{{2, 2}, {2, 1}, {2, 0}} {
		var r store.PurgeResult
		must(t, s.InTx(ctx, func(tx store.Queries) error {
			var err error
			r, err = tx.PurgeExpired(ctx, a.ID, cut, step.limit, false)
			return err
		}))
		if r.Checks != step.want {
			t.Fatalf("purge with limit %d removed %d checks, want %d", step.limit, r.Checks, step.want)
		}
	}
	for _, mode := range []string{store.ModeTest, store.ModeProduction} {
		list, _, err := s.ListEligibilityChecks(ctx, a.ID, store.EligibilityFilter{Mode: mode})
		must(t, err)
		if len(list) != 1 || !list[0].CreatedAt.Equal(recent) {
			t.Errorf("%s: %d checks left, want the recent one", mode, len(list))
		}
	}
}

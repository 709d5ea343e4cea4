package storetest

import (
	"errors"
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A connection's upstream cursor is created once (a second create keeps
// the first), moves forward with its job, and is read only in its own
// account and mode.
func testUpstreamCursors(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	c := store.UpstreamCursor{AccountID: a.ID, Mode: store.ModeTest, ConnectionID: "up-b", After: t0, JobID: "job-1", UpdatedAt: t0}
	for i, want := range []bool{true, false} {
		c2 := c
		c2.JobID = "job-" + string(rune('1'+i))
		created, err := s.CreateUpstreamCursor(ctx, c2)
		must(t, err)
		if created != want {
			t.Errorf("create #%d: created %v, want %v", i+1, created, want)
		}
	}
	got, err := s.GetUpstreamCursor(ctx, a.ID, store.ModeTest, "up-b")
	must(t, err)
	if got.JobID != "job-1" || !got.After.Equal(t0.Truncate(1000)) || got.Ingested != 0 {
		t.Errorf("after create: %+v", got)
	}
	c.After, c.JobID, c.Ingested = t0.Add(90e9), "job-3", 2
	must(t, s.SaveUpstreamCursor(ctx, c))
	got, err = s.GetUpstreamCursor(ctx, a.ID, store.ModeTest, "up-b")
	must(t, err)
	if got.JobID != "job-3" || !got.After.Equal(t0.Add(90e9).Truncate(1000)) || got.Ingested != 2 {
		t.Errorf("after save: %+v", got)
	}
	for _, o := range []struct{ account, mode string }{{"other-account", store.ModeTest}, {a.ID, store.ModeProduction}} {
		if _, err := s.GetUpstreamCursor(ctx, o.account, o.mode, "up-b"); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s/%s reads the owner's cursor: %v", o.account, o.mode, err)
		}
		c.AccountID, c.Mode = o.account, o.mode
		if err := s.SaveUpstreamCursor(ctx, c); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("%s/%s saves the owner's cursor: %v", o.account, o.mode, err)
		}
	}
}

package storetest

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A scenario file belongs to one account and one mode: the other account
// and the other mode never read, replace or delete it. Every change raises
// the scenarios version; reads and refused deletes leave it.
func testMockScenarios(t *testing.T, s store.Store) {
	version := func() int64 {
		t.Helper()
		v, err := s.MockScenariosVersion(ctx)
		must(t, err)
		return v
	}
	changed := func(what string, before int64) int64 {
		t.Helper()
		v := version()
		if v == before {
			t.Errorf("the scenarios version stayed %d after %s", v, what)
		}
		return v
	}
	a, _ := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	_, err := s.GetMockScenarios(ctx, a.ID, store.ModeTest)
	wantErr(t, err, store.ErrNotFound)
	v := version()

	must(t, s.PutMockScenarios(ctx, store.MockScenarios{AccountID: a.ID, Mode: store.ModeTest, Body: []byte(`{"scenarios":[1]}`), UpdatedAt: t0}))
	v = changed("an upload", v)
	must(t, s.PutMockScenarios(ctx, store.MockScenarios{AccountID: a.ID, Mode: store.ModeTest, Body: []byte(`{"scenarios":[2]}`), UpdatedAt: t0}))
	v = changed("a replacement", v)
	got, err := s.GetMockScenarios(ctx, a.ID, store.ModeTest)
	must(t, err)
	if string(got.Body) != `{"scenarios":[2]}` || !got.UpdatedAt.Equal(t0) {
		t.Errorf("GetMockScenarios = %s at %v, want the second upload", got.Body, got.UpdatedAt)
	}
	for _, c := range []struct{ account, mode string }{{other.ID, store.ModeTest}, {a.ID, store.ModeProduction}} {
		_, err := s.GetMockScenarios(ctx, c.account, c.mode)
		wantErr(t, err, store.ErrNotFound)
		wantErr(t, s.DeleteMockScenarios(ctx, c.account, c.mode), store.ErrNotFound)
	}
	if after := version(); after != v {
		t.Errorf("the scenarios version went from %d to %d with reads and refused deletes only", v, after)
	}
	must(t, s.DeleteMockScenarios(ctx, a.ID, store.ModeTest))
	changed("a delete", v)
	_, err = s.GetMockScenarios(ctx, a.ID, store.ModeTest)
	wantErr(t, err, store.ErrNotFound)
}

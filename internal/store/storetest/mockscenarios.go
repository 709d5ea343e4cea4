package storetest

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A scenario file belongs to one account and one mode: the other account
// and the other mode never read, replace or delete it.
func testMockScenarios(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	_, err := s.GetMockScenarios(ctx, a.ID, store.ModeTest)
	wantErr(t, err, store.ErrNotFound)

	must(t, s.PutMockScenarios(ctx, store.MockScenarios{AccountID: a.ID, Mode: store.ModeTest, Body: []byte(`{"scenarios":[1]}`), UpdatedAt: t0}))
	must(t, s.PutMockScenarios(ctx, store.MockScenarios{AccountID: a.ID, Mode: store.ModeTest, Body: []byte(`{"scenarios":[2]}`), UpdatedAt: t0}))
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
	must(t, s.DeleteMockScenarios(ctx, a.ID, store.ModeTest))
	_, err = s.GetMockScenarios(ctx, a.ID, store.ModeTest)
	wantErr(t, err, store.ErrNotFound)
}

package storetest

import (
	"testing"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A practice's providers: one default per role, listed first; the other
// account and the other mode never read, replace or delete them.
func testPracticeProviders(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	put := func(id, role string, def bool, body string) error {
		return s.PutPracticeProvider(ctx, store.PracticeProvider{ID: id, AccountID: a.ID, Mode: store.ModeTest, Role: role,
			Default: def, Body: []byte(body), CreatedAt: t0, UpdatedAt: t0})
	}
	must(t, put("p1", store.RoleBilling, true, `{"n":1}`))
	must(t, put("p2", store.RoleBilling, false, `{"n":2}`))
	must(t, put("r1", store.RoleRendering, true, `{"n":3}`))
	must(t, put("p2", store.RoleBilling, true, `{"n":22}`)) // p2 becomes the default
	list, err := s.ListPracticeProviders(ctx, a.ID, store.ModeTest, store.RoleBilling)
	must(t, err)
	if len(list) != 2 || list[0].ID != "p2" || !list[0].Default || string(list[0].Body) != `{"n":22}` || list[1].Default {
		t.Errorf("billing providers = %+v, want p2 (default, replaced) then p1", list)
	}
	r, err := s.GetPracticeProvider(ctx, a.ID, store.ModeTest, store.RoleRendering, "r1")
	must(t, err)
	if !r.Default || !r.CreatedAt.Equal(t0) {
		t.Errorf("rendering provider = %+v: another role's default must stay", r)
	}
	// A role is part of the address: p1 is not a rendering provider.
	_, err = s.GetPracticeProvider(ctx, a.ID, store.ModeTest, store.RoleRendering, "p1")
	wantErr(t, err, store.ErrNotFound)
	for _, c := range []struct{ account, mode string }{{other.ID, store.ModeTest}, {a.ID, store.ModeProduction}} {
		_, err := s.GetPracticeProvider(ctx, c.account, c.mode, store.RoleBilling, "p1")
		wantErr(t, err, store.ErrNotFound)
		wantErr(t, s.DeletePracticeProvider(ctx, c.account, c.mode, store.RoleBilling, "p1"), store.ErrNotFound)
		wantErr(t, s.PutPracticeProvider(ctx, store.PracticeProvider{ID: "p1", AccountID: c.account, Mode: c.mode,
			Role: store.RoleBilling, Body: []byte(`{}`), CreatedAt: t0, UpdatedAt: t0}), store.ErrNotFound)
		if l, err := s.ListPracticeProviders(ctx, c.account, c.mode, store.RoleBilling); err != nil || len(l) != 0 {
			t.Errorf("another tenant lists %d providers (%v)", len(l), err)
		}
	}
	must(t, s.DeletePracticeProvider(ctx, a.ID, store.ModeTest, store.RoleBilling, "p1"))
	_, err = s.GetPracticeProvider(ctx, a.ID, store.ModeTest, store.RoleBilling, "p1")
	wantErr(t, err, store.ErrNotFound)
	if got, _ := s.GetPracticeProvider(ctx, a.ID, store.ModeTest, store.RoleBilling, "p2"); string(got.Body) != `{"n":22}` {
		t.Errorf("another tenant's attempts changed p2: %s", got.Body)
	}
}

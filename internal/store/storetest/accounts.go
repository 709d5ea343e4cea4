package storetest

import (
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/google/go-cmp/cmp"
)

func testAccounts(t *testing.T, s store.Store) {
	a := store.Account{ID: store.NewID(), Name: "Acme Dental", CreatedAt: t0}
	must(t, s.CreateAccount(ctx, a))
	wantErr(t, s.CreateAccount(ctx, store.Account{ID: store.NewID(), Name: "Acme Dental", CreatedAt: t0}), store.ErrConflict)
	wantErr(t, s.CreateAccount(ctx, store.Account{ID: a.ID, Name: "Other", CreatedAt: t0}), store.ErrConflict)

	got, err := s.GetAccount(ctx, a.ID)
	must(t, err)
	if diff := cmp.Diff(a, got); diff != "" {
		t.Errorf("GetAccount (-want +got):\n%s", diff)
	}
	got, err = s.GetAccountByName(ctx, "Acme Dental")
	must(t, err)
	if got.ID != a.ID {
		t.Errorf("GetAccountByName id = %s, want %s", got.ID, a.ID)
	}
	_, err = s.GetAccount(ctx, "nope")
	wantErr(t, err, store.ErrNotFound)
	_, err = s.GetAccountByName(ctx, "nope")
	wantErr(t, err, store.ErrNotFound)

	b := store.Account{ID: store.NewID(), Name: "Beta Clinic", CreatedAt: t0}
	must(t, s.CreateAccount(ctx, b))
	list, err := s.ListAccounts(ctx)
	must(t, err)
	if diff := cmp.Diff([]store.Account{a, b}, list); diff != "" {
		t.Errorf("ListAccounts (-want +got):\n%s", diff)
	}
}

func testAPIKeys(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	other, otherKey := Seed(t, s, store.ModeTest)
	k := store.APIKey{ID: "k1" + store.NewID(), AccountID: a.ID, Mode: store.ModeProduction, Name: "billing",
		Hash: "ab12", CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, k))
	wantErr(t, s.CreateAPIKey(ctx, k), store.ErrConflict)

	got, err := s.GetAPIKey(ctx, k.ID)
	must(t, err)
	if diff := cmp.Diff(k, got); diff != "" {
		t.Errorf("GetAPIKey (-want +got):\n%s", diff)
	}
	if got.Revoked() {
		t.Error("new key reports revoked")
	}
	_, err = s.GetAPIKey(ctx, "missing")
	wantErr(t, err, store.ErrNotFound)

	list, err := s.ListAPIKeys(ctx, a.ID)
	must(t, err)
	if len(list) != 2 {
		t.Fatalf("ListAPIKeys = %d keys, want 2 (seed and billing)", len(list))
	}
	for _, key := range list {
		if key.AccountID != a.ID || key.ID == otherKey.ID {
			t.Errorf("ListAPIKeys(%s) returned key %s of account %s", a.ID, key.ID, key.AccountID)
		}
	}

	revokedAt := t0.Add(time.Hour)
	must(t, s.RevokeAPIKey(ctx, k.ID, revokedAt))
	must(t, s.RevokeAPIKey(ctx, k.ID, revokedAt.Add(time.Hour))) // idempotent, keeps first time
	got, err = s.GetAPIKey(ctx, k.ID)
	must(t, err)
	if !got.RevokedAt.Equal(revokedAt) {
		t.Errorf("RevokedAt = %v, want %v", got.RevokedAt, revokedAt)
	}
	wantErr(t, s.RevokeAPIKey(ctx, "missing", t0), store.ErrNotFound)
	if keys, _ := s.ListAPIKeys(ctx, other.ID); len(keys) != 1 || keys[0].Revoked() {
		t.Errorf("other account's keys changed: %+v", keys)
	}
}

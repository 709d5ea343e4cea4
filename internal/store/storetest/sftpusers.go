package storetest

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clearhouse/clearhouse/internal/store"
)

func testSFTPUsers(t *testing.T, s store.Store) {
	a, _ := Seed(t, s, store.ModeTest)
	other, _ := Seed(t, s, store.ModeTest)
	u := store.SFTPUser{Username: "partner-" + store.NewID(), AccountID: a.ID, Mode: store.ModeProduction,
		PasswordHash: "$2a$10$hash", PublicKeys: "ssh-ed25519 AAAA one\nssh-ed25519 AAAA two", CreatedAt: t0}
	must(t, s.CreateSFTPUser(ctx, u))
	// Usernames are unique across accounts: they are what a partner types.
	taken := u
	taken.AccountID = other.ID
	wantErr(t, s.CreateSFTPUser(ctx, taken), store.ErrConflict)

	got, err := s.GetSFTPUser(ctx, u.Username)
	must(t, err)
	if diff := cmp.Diff(u, got); diff != "" {
		t.Errorf("GetSFTPUser (-want +got):\n%s", diff)
	}
	_, err = s.GetSFTPUser(ctx, "missing")
	wantErr(t, err, store.ErrNotFound)

	o := store.SFTPUser{Username: "other-" + store.NewID(), AccountID: other.ID, Mode: store.ModeTest, CreatedAt: t0}
	must(t, s.CreateSFTPUser(ctx, o))
	list, err := s.ListSFTPUsers(ctx, a.ID)
	must(t, err)
	if len(list) != 1 || list[0].Username != u.Username {
		t.Errorf("ListSFTPUsers(account) = %+v, want only %s", list, u.Username)
	}
	all, err := s.ListSFTPUsers(ctx, "")
	must(t, err)
	if len(all) < 2 {
		t.Errorf("ListSFTPUsers(all) = %d users", len(all))
	}
	must(t, s.DeleteSFTPUser(ctx, u.Username))
	wantErr(t, s.DeleteSFTPUser(ctx, u.Username), store.ErrNotFound)
	_, err = s.GetSFTPUser(ctx, u.Username)
	wantErr(t, err, store.ErrNotFound)
}

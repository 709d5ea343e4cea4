package storetest

import (
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// testAPIKeyLastUsed: a key's last use shows in the list, and a late
// note of an earlier use never moves it back.
func testAPIKeyLastUsed(t *testing.T, s store.Store) {
	a := newAccount(t, s, "keyuse")
	k := store.APIKey{ID: "ku" + store.NewID(), AccountID: a.ID, Mode: store.ModeTest, Name: "k", Hash: "h", CreatedAt: t0}
	must(t, s.CreateAPIKey(ctx, k))
	list, err := s.ListAPIKeys(ctx, a.ID)
	must(t, err)
	if len(list) != 1 || !list[0].LastUsedAt.IsZero() {
		t.Fatalf("a new key: %+v", list)
	}
	must(t, s.NoteAPIKeyUse(ctx, k.ID, t0.Add(2*time.Minute)))
	must(t, s.NoteAPIKeyUse(ctx, k.ID, t0.Add(time.Minute))) // from a slower replica
	list, err = s.ListAPIKeys(ctx, a.ID)
	must(t, err)
	if !list[0].LastUsedAt.Equal(t0.Add(2 * time.Minute)) {
		t.Errorf("last used %v, want %v", list[0].LastUsedAt, t0.Add(2*time.Minute))
	}
}

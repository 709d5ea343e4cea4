package api

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// countingKeys is a key store that counts lookups.
type countingKeys struct {
	store.APIKeys
	recs    map[string]store.APIKey
	lookups int
}

func (k *countingKeys) GetAPIKey(_ context.Context, id string) (store.APIKey, error) {
	k.lookups++
	rec, ok := k.recs[id]
	if !ok {
		return store.APIKey{}, store.ErrNotFound
	}
	return rec, nil
}

func TestKeyCache(t *testing.T) {
	t.Parallel()
	keys := &countingKeys{recs: map[string]store.APIKey{"k1": {ID: "k1", Mode: store.ModeTest}}}
	c := newKeyCache(keys)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.now = func() time.Time { return now }
	ctx := context.Background()
	get := func(id string) (store.APIKey, error) { return c.GetAPIKey(ctx, id) }

	for range 3 {
		if rec, err := get("k1"); err != nil || rec.ID != "k1" {
			t.Fatalf("k1: %+v %v", rec, err)
		}
	}
	if keys.lookups != 1 {
		t.Errorf("3 lookups within the TTL reached the store %d times, want 1", keys.lookups)
	}
	// A revocation is seen once the entry is older than the TTL.
	keys.recs["k1"] = store.APIKey{ID: "k1", Mode: store.ModeTest, RevokedAt: now}
	now = now.Add(keyCacheTTL)
	if rec, _ := get("k1"); !rec.Revoked() {
		t.Errorf("after the TTL the revocation is not seen: %+v", rec)
	}
	// Unknown keys are asked for once per unknownKeyTTL (before, every
	// made-up key was a database read).
	for range 3 {
		if _, err := get("nope"); !errors.Is(err, store.ErrNotFound) {
			t.Fatalf("unknown key: %v", err)
		}
	}
	if keys.lookups != 3 {
		t.Errorf("%d store lookups, want 3 (1 + 1 after the TTL + 1 unknown)", keys.lookups)
	}
	now = now.Add(unknownKeyTTL)
	keys.recs["nope"] = store.APIKey{ID: "nope", Mode: store.ModeTest}
	if rec, err := get("nope"); err != nil || rec.ID != "nope" {
		t.Errorf("a key created after its id was asked for: %+v %v", rec, err)
	}
}

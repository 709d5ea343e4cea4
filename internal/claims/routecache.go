package claims

import (
	"context"
	"errors"
	"strings"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// partnershipCache remembers each account's partnership per payer, with its
// profiles and default outbound 837 setting, for a few seconds: a claim
// costs no partner or setting reads in the common case, and a change
// applies within the TTL on every replica.
type partnershipCache struct {
	mu      sync.Mutex
	entries map[string]shipEntry
}

type shipEntry struct {
	ship           store.Partnership
	local, partner store.Profile
	// setting is the partnership's outbound 837 setting of our guide; zero
	// when it has none.
	setting store.TransactionSetting
	err     error
	until   time.Time
}

const shipCacheTTL = 2 * time.Second

func (c *partnershipCache) find(ctx context.Context, st store.Store, accountID, mode, payerID, guideID string, now time.Time) (shipEntry, error) {
	key := accountID + "\x00" + mode + "\x00" + payerID + "\x00" + guideID
	c.mu.Lock()
	e, ok := c.entries[key]
	c.mu.Unlock()
	if ok && now.Before(e.until) {
		return e, e.err
	}
	e = shipEntry{until: now.Add(shipCacheTTL)}
	e.ship, e.local, e.partner, e.err = findPartnership(ctx, st, accountID, mode, payerID)
	if e.err == nil {
		e.setting, e.err = st.FindTransactionSetting(ctx, accountID, mode, e.ship.ID, store.DirectionOutbound, "837", guideID)
		if errors.Is(e.err, store.ErrNotFound) {
			e.setting, e.err = store.TransactionSetting{}, nil
		}
	}
	if e.err != nil && !errors.Is(e.err, store.ErrNotFound) {
		return e, e.err // do not cache a failing store
	}
	c.mu.Lock()
	if c.entries == nil || len(c.entries) > 10000 {
		c.entries = map[string]shipEntry{}
	}
	c.entries[key] = e
	c.mu.Unlock()
	return e, e.err
}

// findPartnership finds the partnership whose partner profile's ISA id is
// the payer id (the convention of the test setup and of payer
// partnerships), preferring one with a connection.
func findPartnership(ctx context.Context, st store.Store, accountID, mode, payerID string) (store.Partnership, store.Profile, store.Profile, error) {
	ships, err := st.ListPartnerships(ctx, accountID, mode)
	if err != nil {
		return store.Partnership{}, store.Profile{}, store.Profile{}, err
	}
	var found *store.Partnership
	var local, partner store.Profile
	for i := range ships {
		p, err := st.GetProfile(ctx, accountID, mode, ships[i].PartnerProfileID)
		if err != nil || !strings.EqualFold(p.ISAID, payerID) {
			continue
		}
		if found == nil || (found.ConnectionID == "" && ships[i].ConnectionID != "") {
			found, partner = &ships[i], p
		}
	}
	if found == nil {
		return store.Partnership{}, store.Profile{}, store.Profile{}, store.ErrNotFound
	}
	local, err = st.GetProfile(ctx, accountID, mode, found.LocalProfileID)
	if err != nil {
		return store.Partnership{}, store.Profile{}, store.Profile{}, err
	}
	return *found, local, partner, nil
}

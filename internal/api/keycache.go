package api

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// keyCacheTTL is how long a looked-up API key record is trusted. A key
// revoked with 'clearhouse keys revoke' (in any process) is refused by
// every replica within this time.
const keyCacheTTL = time.Second

// unknownKeyTTL is how long a key id the store does not hold is remembered
// as unknown. Ids are random and issued when their key is created, so no
// caller holds one before it exists: a flood of made-up keys is answered
// from memory instead of one database read each.
const unknownKeyTTL = 5 * time.Second

// keyCache remembers API key records for keyCacheTTL so that most requests
// authenticate without a database read. That read was 6% of a check's CPU,
// and on SQLite a constant stream of readers keeps the write-ahead log from
// starting over, which forced checkpoints that stall the writer. Unknown
// key ids are remembered for unknownKeyTTL, apart from the records (so
// made-up ids never crowd real keys out). The cache holds only records
// (the secret's SHA-256, never the secret); the hash is compared on every
// request.
type keyCache struct {
	store.APIKeys
	now func() time.Time

	mu      sync.Mutex
	entries map[string]cachedKey
	unknown map[string]time.Time // id → when the store said it has none
}

type cachedKey struct {
	rec     store.APIKey
	fetched time.Time
}

// maxCachedKeys bounds the cache; past it, expired entries are dropped.
const maxCachedKeys = 10000

func newKeyCache(keys store.APIKeys) *keyCache {
	return &keyCache{APIKeys: keys, now: time.Now, entries: map[string]cachedKey{}, unknown: map[string]time.Time{}}
}

func (c *keyCache) GetAPIKey(ctx context.Context, id string) (store.APIKey, error) {
	now := c.now()
	c.mu.Lock()
	e, ok := c.entries[id]
	missed, isUnknown := c.unknown[id]
	c.mu.Unlock()
	if ok && now.Sub(e.fetched) < keyCacheTTL {
		return e.rec, nil
	}
	if isUnknown && now.Sub(missed) < unknownKeyTTL {
		return store.APIKey{}, store.ErrNotFound
	}
	rec, err := c.APIKeys.GetAPIKey(ctx, id)
	if errors.Is(err, store.ErrNotFound) {
		c.rememberUnknown(id, now)
	}
	if err != nil {
		return rec, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.entries) >= maxCachedKeys {
		for k, e := range c.entries {
			if now.Sub(e.fetched) >= keyCacheTTL {
				delete(c.entries, k)
			}
		}
	}
	if len(c.entries) < maxCachedKeys {
		c.entries[id] = cachedKey{rec: rec, fetched: now}
	}
	return rec, nil
}

func (c *keyCache) rememberUnknown(id string, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.unknown) >= maxCachedKeys {
		for k, at := range c.unknown {
			if now.Sub(at) >= unknownKeyTTL {
				delete(c.unknown, k)
			}
		}
	}
	if len(c.unknown) < maxCachedKeys {
		c.unknown[id] = now
	}
}

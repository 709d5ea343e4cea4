package api

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// keyUseEvery is how often a key's last-used time is written, at most.
const keyUseEvery = time.Minute

// keyUse records when API keys are used (the console's keys page) without
// a write on every request: a request costs one map read and one atomic
// load while its key's minute is not over; the first request of a new
// minute writes, in its own goroutine with a timeout, so no request waits
// for it. Per process: n replicas write at most n times a minute per key.
type keyUse struct {
	keys   store.APIKeys
	logger *slog.Logger
	last   sync.Map // key id → *atomic.Int64, Unix seconds of the last write
}

// seen notes one authenticated request of key id at now.
func (u *keyUse) seen(id string, now time.Time) {
	v, ok := u.last.Load(id)
	if !ok {
		v, _ = u.last.LoadOrStore(id, new(atomic.Int64))
	}
	last := v.(*atomic.Int64)
	prev, sec := last.Load(), now.Unix()
	if sec-prev < int64(keyUseEvery/time.Second) || !last.CompareAndSwap(prev, sec) {
		return
	}
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := u.keys.NoteAPIKeyUse(ctx, id, now); err != nil {
			u.logger.Warn("api: note the key's last use", "key", id, "error", err.Error())
		}
	}()
}

package api

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store"
)

// useCountingKeys counts the last-used writes.
type useCountingKeys struct {
	store.APIKeys
	writes atomic.Int64
}

func (c *useCountingKeys) NoteAPIKeyUse(ctx context.Context, id string, at time.Time) error {
	c.writes.Add(1)
	return c.APIKeys.NoteAPIKeyUse(ctx, id, at)
}

func TestKeyUseWritesOncePerMinute(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	st, err := store.OpenSQLite(ctx, filepath.Join(t.TempDir(), "db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	_, k, err := auth.CreateKey(ctx, st, "Sunrise", store.ModeTest, "t", time.Now())
	if err != nil {
		t.Fatal(err)
	}
	keys := &useCountingKeys{APIKeys: st}
	u := &keyUse{keys: keys, logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	t0 := time.Now().Truncate(time.Second)
	for i := range 1000 { // 1000 requests within 50 s
		u.seen(k.ID, t0.Add(time.Duration(i)*50*time.Millisecond))
	}
	u.seen(k.ID, t0.Add(61*time.Second))
	waitKeys := func(want int64) {
		deadline := time.Now().Add(5 * time.Second)
		for keys.writes.Load() < want && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitKeys(2)
	time.Sleep(50 * time.Millisecond)
	if n := keys.writes.Load(); n != 2 {
		t.Errorf("%d writes for 1001 requests over 61 s, want 2", n)
	}
	var got time.Time
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		list, err := st.ListAPIKeys(ctx, k.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		if got = list[0].LastUsedAt; got.Equal(t0.Add(61 * time.Second)) {
			return
		}
	}
	t.Errorf("last used %v, want %v", got, t0.Add(61*time.Second))
}

// BenchmarkKeyUseSeen is what a request pays when its key was noted this
// minute (every request but one a minute).
func BenchmarkKeyUseSeen(b *testing.B) {
	u := &keyUse{}
	now := time.Now()
	u.last.Store("key", new(atomic.Int64))
	v, _ := u.last.Load("key")
	v.(*atomic.Int64).Store(now.Unix())
	b.ReportAllocs()
	for b.Loop() {
		u.seen("key", now)
	}
}

package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestPollerSkipsConnectionWithoutCoreURL: coreUrl is optional (only
// claims need it), so a connection without one is not a failure to warn
// about every poll interval for as long as it lives (a tenant can store
// many). A new one gets no poll at all; one whose coreUrl was removed says
// so once, at Info, and its polls stop; they start again when a coreUrl is
// set.
func TestPollerSkipsConnectionWithoutCoreURL(t *testing.T) {
	ctx := context.Background()
	w := newClaimWorld(t)
	up := newFakeUpstream(t)
	var logs bytes.Buffer // read once the queue has stopped
	q := jobs.New(w.st, jobs.Options{Clock: clock.System{}, Logger: slog.New(slog.DiscardHandler), Worker: "w", PollInterval: 5 * time.Millisecond})
	p := &Poller{Store: w.st, Jobs: q, Delivery: w.d, Interval: 5 * time.Millisecond, Now: time.Now,
		Logger: slog.New(slog.NewJSONHandler(&logs, nil))}
	p.Register()

	bare := w.connect(t, w.account, "up-bare", up, "2s") // url only
	if err := p.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := w.st.GetUpstreamCursor(ctx, w.account, store.ModeProduction, bare.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a connection without coreUrl got a poll cursor (err %v)", err)
	}

	// A connection polled before its coreUrl was removed.
	core := w.connect(t, w.account, "up-core", up, "2s")
	withCore, _ := json.Marshal(StoredSettings{URL: up.srv.URL + "/2024-04-01", CoreURL: up.srv.URL + "/2023-08-01", Timeout: "2s"})
	core.Settings = withCore
	if err := w.st.UpdateConnection(ctx, core); err != nil {
		t.Fatal(err)
	}
	if err := p.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	cur, err := w.st.GetUpstreamCursor(ctx, w.account, store.ModeProduction, core.ID)
	if err != nil {
		t.Fatal(err)
	}
	core.Settings = bare.Settings
	if err := w.st.UpdateConnection(ctx, core); err != nil {
		t.Fatal(err)
	}
	runCtx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { q.Run(runCtx); close(done) }()
	deadline := time.Now().Add(time.Minute)
	for {
		if j, err := w.st.GetJob(ctx, cur.JobID); err == nil && j.State == store.JobSucceeded {
			break
		}
		if time.Now().After(deadline) {
			cancel()
			<-done
			t.Fatal("the poll of the connection without coreUrl did not end")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(100 * time.Millisecond) // twenty intervals: a chain that went on would poll and log again
	cancel()
	<-done
	got := logs.String()
	if n := strings.Count(got, "no coreUrl"); n != 1 || strings.Contains(got, `"level":"WARN"`) {
		t.Errorf("want one Info line about the missing coreUrl and no warning, got %d:\n%s", n, got)
	}
	if after, _ := w.st.GetUpstreamCursor(ctx, w.account, store.ModeProduction, core.ID); after.JobID != cur.JobID {
		t.Errorf("a next poll was scheduled (%s) for a connection without coreUrl", after.JobID)
	}

	core.Settings = withCore
	if err := w.st.UpdateConnection(ctx, core); err != nil {
		t.Fatal(err)
	}
	if err := p.Ensure(ctx); err != nil {
		t.Fatal(err)
	}
	if j, err := w.st.GetJob(ctx, cur.JobID); err != nil || j.State != store.JobAvailable {
		t.Errorf("with its coreUrl back, the connection's poll is %q (%v), want available again", j.State, err)
	}
}

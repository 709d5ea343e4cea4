package core_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

func TestDirectoryConnection(t *testing.T) {
	e := newEnv(t, storetest.SQLite)
	dir := t.TempDir()
	must(t, e.store.CreateConnection(ctx, store.Connection{ID: "drop", AccountID: e.account, Mode: store.ModeTest,
		Type: store.ConnectionDirectory, Name: "drop folder", Settings: []byte(`{"inboundPath":"` + dir + `","pollInterval":"1s"}`),
		CreatedAt: time.Now()}))
	old := time.Now().Add(-time.Minute)
	drop := func(name, body string) {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte(body), 0o600))
		must(t, os.Chtimes(p, old, old))
	}
	drop("era-1.x12", coretest.Gen835([]int{1}, 2, 0))
	drop(".hidden", "not for us")
	// A file a crash left claimed, already received once under its id.
	id := store.NewUUID()
	claimed := filepath.Join(dir, ".clearhouse", "claimed")
	must(t, os.MkdirAll(claimed, 0o700))
	must(t, os.WriteFile(filepath.Join(claimed, id+"_era-2.x12"), []byte(coretest.Gen835([]int{1}, 1, 0)), 0o600))
	_, err := e.core.Receive(ctx, core.ReceiveParams{AccountID: e.account, Mode: store.ModeTest, Name: "era-2.x12",
		ExecutionID: id, Body: mustOpen(t, filepath.Join(claimed, id+"_era-2.x12"))})
	must(t, err)

	poller := e.core.NewDirectoryPoller()
	must(t, poller.PollOnce(ctx, true))
	must(t, poller.PollOnce(ctx, true)) // nothing new: no second execution
	list, _, err := e.store.ListExecutions(ctx, e.account, store.ExecutionFilter{})
	must(t, err)
	if len(list) != 2 {
		t.Fatalf("%d executions, want 2 (era-1 once, era-2 once)", len(list))
	}
	for _, ex := range list {
		if ex.ConnectionID != "drop" && ex.ID != id {
			t.Errorf("execution %s has connection %q", ex.SourceName, ex.ConnectionID)
		}
		if done := e.wait(ex.ID); done.Status != store.ExecutionCompleted {
			t.Errorf("%s: %s %s", ex.SourceName, done.Status, done.FaultMessage)
		}
	}
	left, _ := os.ReadDir(dir)
	for _, f := range left {
		if f.Name() != ".clearhouse" && f.Name() != ".hidden" {
			t.Errorf("left in the folder: %s", f.Name())
		}
	}
	received, _ := os.ReadDir(filepath.Join(dir, ".clearhouse", "received"))
	if len(received) != 2 {
		t.Errorf("%d files in received/", len(received))
	}
	if rest, _ := os.ReadDir(claimed); len(rest) != 0 {
		t.Errorf("%d files still claimed", len(rest))
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	must(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

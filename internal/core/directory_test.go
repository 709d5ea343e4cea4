package core_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

// directoryEnv is a core env whose account has production partners and a
// directory root, with the DIRECTORY connection "drop" at inboundPath.
func directoryEnv(t *testing.T, inboundPath string) (*env, *tenantdir.Root, string) {
	e := newEnv(t, storetest.SQLite)
	_, err := coretest.SetupPartners(ctx, e.store, e.account, store.ModeProduction)
	must(t, err)
	base := t.TempDir()
	dirs, err := tenantdir.Open(filepath.Join(base, "root"), filepath.Join(base, "data"))
	must(t, err)
	t.Cleanup(func() { dirs.Close() })
	must(t, e.store.CreateConnection(ctx, store.Connection{ID: "drop", AccountID: e.account, Mode: store.ModeProduction,
		Type: store.ConnectionDirectory, Name: "drop folder", Settings: []byte(`{"inboundPath":"` + inboundPath + `","pollInterval":"1s"}`),
		CreatedAt: time.Now()}))
	return e, dirs, base
}

func TestDirectoryConnection(t *testing.T) {
	t.Parallel()
	e, dirs, base := directoryEnv(t, "payer-x/drop")
	dir := filepath.Join(base, "root", e.account, store.ModeProduction, "payer-x", "drop")
	must(t, os.MkdirAll(dir, 0o700))
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
	_, err := e.core.Receive(ctx, core.ReceiveParams{AccountID: e.account, Mode: store.ModeProduction, Name: "era-2.x12",
		ExecutionID: id, Body: mustOpen(t, filepath.Join(claimed, id+"_era-2.x12"))})
	must(t, err)

	poller := e.core.NewDirectoryPoller(dirs)
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

// A tenant's folder never reaches outside its account's folder under the
// root: not through a link made after the connection was stored, not
// through a path stored before paths were relative (absolute), and a
// test-mode DIRECTORY connection (test keys may no longer make them) is
// not polled at all.
func TestDirectoryConnectionConfined(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, inboundPath string
		mode              string
		prepare           func(t *testing.T, tenantDir, data string)
		wantErr           string
	}{
		{name: "link to the data directory", inboundPath: "drop", mode: store.ModeProduction,
			prepare: func(t *testing.T, tenantDir, data string) {
				must(t, os.Symlink(data, filepath.Join(tenantDir, "drop")))
			},
			wantErr: "cannot be used"},
		{name: "link inside leading out", inboundPath: "in/drop", mode: store.ModeProduction,
			prepare: func(t *testing.T, tenantDir, data string) {
				must(t, os.MkdirAll(filepath.Join(tenantDir, "in"), 0o700))
				must(t, os.Symlink("../../../../data", filepath.Join(tenantDir, "in", "drop")))
			},
			wantErr: "cannot be used"},
		{name: "absolute path stored before the fix", inboundPath: "DATA", mode: store.ModeProduction, wantErr: "absolute"},
		{name: "dot-dot stored before the fix", inboundPath: "../../../data", mode: store.ModeProduction, wantErr: "'..'"},
		{name: "test mode", inboundPath: "DATA", mode: store.ModeTest},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newEnv(t, storetest.SQLite)
			base := t.TempDir()
			data := filepath.Join(base, "data")
			must(t, os.MkdirAll(data, 0o700))
			must(t, os.WriteFile(filepath.Join(data, "clearhouse.db"), []byte("the server's own"), 0o600))
			old := time.Now().Add(-time.Minute)
			must(t, os.Chtimes(filepath.Join(data, "clearhouse.db"), old, old))
			dirs, err := tenantdir.Open(filepath.Join(base, "root"), data)
			must(t, err)
			defer dirs.Close()
			tenantDir := filepath.Join(base, "root", e.account, tc.mode)
			must(t, os.MkdirAll(tenantDir, 0o700))
			if tc.prepare != nil {
				tc.prepare(t, tenantDir, data)
			}
			inbound := strings.ReplaceAll(tc.inboundPath, "DATA", data)
			must(t, e.store.CreateConnection(ctx, store.Connection{ID: "drop", AccountID: e.account, Mode: tc.mode,
				Type: store.ConnectionDirectory, Settings: []byte(`{"inboundPath":"` + inbound + `"}`), CreatedAt: time.Now()}))
			err = e.core.NewDirectoryPoller(dirs).PollOnce(ctx, true)
			if tc.wantErr == "" && err != nil || tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)) {
				t.Errorf("poll: %v, want %q", err, tc.wantErr)
			}
			if b, err := os.ReadFile(filepath.Join(data, "clearhouse.db")); err != nil || string(b) != "the server's own" {
				t.Errorf("the data directory's file was taken: %q %v", b, err)
			}
			if left, _ := os.ReadDir(data); len(left) != 1 {
				t.Errorf("the data directory now holds %d entries", len(left))
			}
			list, _, err := e.store.ListExecutions(ctx, e.account, store.ExecutionFilter{})
			must(t, err)
			if len(list) != 0 {
				t.Errorf("%d executions, want none", len(list))
			}
		})
	}
}

func mustOpen(t *testing.T, path string) *os.File {
	t.Helper()
	f, err := os.Open(path)
	must(t, err)
	t.Cleanup(func() { f.Close() })
	return f
}

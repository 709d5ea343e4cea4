package delivery_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

func TestDirectoryDeliversInsideItsFolder(t *testing.T) {
	base := t.TempDir()
	data := filepath.Join(base, "data")
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	dirs, err := tenantdir.Open(filepath.Join(base, "root"), data)
	if err != nil {
		t.Fatal(err)
	}
	defer dirs.Close()
	file := func(mode, settings string) delivery.File {
		return delivery.File{
			Connection: store.Connection{ID: "drop", AccountID: "acme", Mode: mode, Type: store.ConnectionDirectory, Settings: []byte(settings)},
			Execution:  store.Execution{ID: "e1", SourceName: "999-../../data/clearhouse.db"},
			Body:       []byte("ISA*00~"),
		}
	}
	d := &delivery.Directory{Dirs: dirs}
	if _, err := d.Deliver(context.Background(), file(store.ModeProduction, `{"outboundPath":"payer-x/out"}`)); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(base, "root", "acme", "production", "payer-x", "out", "999-e1.x12"))
	if err != nil || string(got) != "ISA*00~" {
		t.Fatalf("delivered file: %q %v", got, err)
	}
	// A link placed in the tenant's folder that leads out, an absolute or
	// climbing path stored before the rule, test mode, no root: refused.
	if err := os.Symlink(data, filepath.Join(base, "root", "acme", "production", "stolen")); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		d        *delivery.Directory
		mode, in string
	}{
		{d, store.ModeProduction, `{"outboundPath":"stolen"}`},
		{d, store.ModeProduction, `{"outboundPath":"` + data + `"}`},
		{d, store.ModeProduction, `{"outboundPath":"../../../data"}`},
		{d, store.ModeProduction, `{}`},
		{d, store.ModeTest, `{"outboundPath":"payer-x/out"}`},
		{&delivery.Directory{}, store.ModeProduction, `{"outboundPath":"payer-x/out"}`},
	} {
		if msg, err := tc.d.Deliver(context.Background(), file(tc.mode, tc.in)); err == nil {
			t.Errorf("%s %s: delivered: %s", tc.mode, tc.in, msg)
		}
	}
	if left, _ := os.ReadDir(data); len(left) != 0 {
		t.Errorf("the data directory holds %d entries", len(left))
	}
}

package tenantdir_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/tenantdir"
)

func TestCheckPath(t *testing.T) {
	for _, tc := range []struct {
		path, wantErr string
	}{
		{"inbound", ""},
		{"payer-x/inbound", ""},
		{"a b/c_d-1", ""},
		{"", "must not be empty"},
		{"/tmp/x", "absolute"},
		{"/", "absolute"},
		{`\\server\share`, "absolute"},
		{"../other-account", "'..'"},
		{"in/../../x", "'..'"},
		{"..", "'..'"},
		{"in//x", "empty"},
		{"in/", "empty"},
		{"./in", "'.'"},
		{".clearhouse", "start with '.'"},
		{"in/.hidden", "start with '.'"},
		{`in\..\x`, `'\'`},
		{"c:in", "':'"},
		{"in\x00x", "control"},
		{strings.Repeat("a", tenantdir.MaxPathBytes+1), "at most"},
	} {
		got := tenantdir.CheckPath(tc.path)
		if (tc.wantErr == "") != (got == "") || !strings.Contains(got, tc.wantErr) {
			t.Errorf("CheckPath(%q) = %q, want %q", tc.path, got, tc.wantErr)
		}
	}
}

func TestOpenRefusesTheDataDirectory(t *testing.T) {
	base := t.TempDir()
	data := filepath.Join(base, "data")
	must(t, os.MkdirAll(data, 0o700))
	must(t, os.Symlink(data, filepath.Join(base, "data-link")))
	for _, root := range []string{data, filepath.Join(data, "dirs"), base, filepath.Join(base, "data-link"), filepath.Join(base, "data-link", "x")} {
		if r, err := tenantdir.Open(root, data); err == nil {
			r.Close()
			t.Errorf("Open(%s) with data directory %s: no error", root, data)
		} else if !strings.Contains(err.Error(), "overlaps") {
			t.Errorf("Open(%s): %v", root, err)
		}
	}
	r, err := tenantdir.Open(filepath.Join(base, "dirs"), data, filepath.Join(base, "blobs-not-made-yet"))
	must(t, err)
	r.Close()
	if _, err := tenantdir.Open("", data); err != tenantdir.ErrOff {
		t.Errorf("Open(\"\") = %v, want ErrOff", err)
	}
}

func TestFolderIsConfined(t *testing.T) {
	base := t.TempDir()
	secret := filepath.Join(base, "data")
	must(t, os.MkdirAll(secret, 0o700))
	must(t, os.WriteFile(filepath.Join(secret, "clearhouse.db"), []byte("db"), 0o600))
	r, err := tenantdir.Open(filepath.Join(base, "root"), secret)
	must(t, err)
	defer r.Close()

	// A folder that does not exist yet is fine, and made on first use,
	// under ROOT/<account>/<mode>.
	must(t, r.Check("acct1", "production", "payer-x/inbound"))
	f, err := r.Folder("acct1", "production", "payer-x/inbound")
	must(t, err)
	must(t, f.WriteFile("era.x12", []byte("ISA"), 0o600))
	f.Close()
	if _, err := os.Stat(filepath.Join(base, "root", "acct1", "production", "payer-x", "inbound", "era.x12")); err != nil {
		t.Fatal(err)
	}

	// A link that leads out, placed before or after the connection was
	// stored, is refused at the check and at every use.
	tenantDir := filepath.Join(base, "root", "acct1", "production")
	must(t, os.Symlink(secret, filepath.Join(tenantDir, "stolen")))
	must(t, os.Symlink("../../acct2/production", filepath.Join(tenantDir, "neighbour")))
	must(t, os.MkdirAll(filepath.Join(base, "root", "acct2", "production"), 0o700))
	for _, p := range []string{"stolen", "stolen/sub", "neighbour"} {
		if err := r.Check("acct1", "production", p); err == nil {
			t.Errorf("Check(%s): no error", p)
		}
		if f, err := r.Folder("acct1", "production", p); err == nil {
			f.Close()
			t.Errorf("Folder(%s): no error", p)
		}
	}
	// The other mode is another folder.
	if _, err := os.Stat(filepath.Join(base, "root", "acct1", "test")); !os.IsNotExist(err) {
		t.Errorf("test-mode folder exists: %v", err)
	}
	// A file where a folder belongs.
	must(t, os.WriteFile(filepath.Join(tenantDir, "plain"), nil, 0o600))
	if err := r.Check("acct1", "production", "plain"); err == nil {
		t.Error("Check(plain file): no error")
	}
	for _, bad := range [][2]string{{"", "production"}, {"../x", "production"}, {"acct1", "staging"}} {
		if _, err := r.Folder(bad[0], bad[1], "in"); err == nil {
			t.Errorf("Folder(%q, %q): no error", bad[0], bad[1])
		}
	}
	if b, err := os.ReadFile(filepath.Join(secret, "clearhouse.db")); err != nil || string(b) != "db" {
		t.Fatalf("the data directory changed: %q %v", b, err)
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

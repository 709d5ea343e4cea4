package sftpd

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestStagedUploadsLeftByACrashAreSwept: an upload a crash cut short stays
// in its user's staging folder; the next start removes it once it is older
// than a connection may idle, and keeps a fresh one and everything else.
func TestStagedUploadsLeftByACrashAreSwept(t *testing.T) {
	dir := t.TempDir()
	root := filepath.Join(dir, "users")
	home := filepath.Join(root, "acct", "test", "partner1")
	write := func(rel string, age time.Duration) string {
		p := filepath.Join(home, rel)
		os.MkdirAll(filepath.Dir(p), 0o700)
		if err := os.WriteFile(p, []byte("ISA*half"), 0o600); err != nil {
			t.Fatal(err)
		}
		at := time.Now().Add(-age)
		os.Chtimes(p, at, at)
		return p
	}
	leftover := write(".staging/in-123", time.Hour)
	fresh := write(".staging/in-456", time.Second)
	waiting := write("inbound/claims.x12", time.Hour)
	srv, err := New(Config{HostKeyFile: filepath.Join(dir, "host_key"), Root: root, IdleTimeout: 10 * time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	for p, want := range map[string]bool{leftover: false, fresh: true, waiting: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", p, err == nil, want)
		}
	}
}

package sweep

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestFilesRemovesOnlyOldTemporaryFiles(t *testing.T) {
	root := t.TempDir()
	now := time.Now()
	write := func(rel string, age time.Duration) string {
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, now.Add(-age), now.Add(-age)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	old := write("a/b/.tmp-123", 2*time.Hour)
	fresh := write("a/.tmp-456", time.Minute)
	kept := write("a/b/claims.x12", 2*time.Hour)
	isTemp := func(_, name string) bool { return strings.HasPrefix(name, ".tmp-") }
	n, err := Files(root, isTemp, time.Hour, now)
	if err != nil || n != 1 {
		t.Fatalf("removed %d, %v; want 1", n, err)
	}
	for p, want := range map[string]bool{old: false, fresh: true, kept: true} {
		if _, err := os.Stat(p); (err == nil) != want {
			t.Errorf("%s: exists %v, want %v", p, err == nil, want)
		}
	}
}

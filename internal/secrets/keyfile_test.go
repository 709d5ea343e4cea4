package secrets_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/secrets"
)

// TestKeyFile: the first call makes a private key file, later calls read
// the same key, and a key file others may read is refused.
func TestKeyFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), secrets.KeyFileName)
	first, created, err := secrets.LoadOrCreateKeyFile(path)
	if err != nil || !created || len(first) != secrets.KeySize {
		t.Fatalf("first start: key %d bytes, created %v, %v", len(first), created, err)
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if perm := info.Mode().Perm(); perm != 0o600 {
		t.Errorf("key file mode %04o, want 0600", perm)
	}
	again, created, err := secrets.LoadOrCreateKeyFile(path)
	if err != nil || created || !bytes.Equal(again, first) {
		t.Fatalf("second start: created %v, same key %v, %v", created, bytes.Equal(again, first), err)
	}
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, _, err := secrets.LoadOrCreateKeyFile(path); err == nil || !strings.Contains(err.Error(), "chmod 600") {
		t.Errorf("world-readable key file: %v, want a refusal saying chmod 600", err)
	}
}

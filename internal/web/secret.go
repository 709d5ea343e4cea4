package web

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// SecretFile is the name of the session-signing secret in the data directory.
const SecretFile = "console-secret"

// LoadOrCreateSecret reads the session-signing secret from path (64 hex
// characters), creating it with 32 random bytes and mode 0600 if it does
// not exist. Replicas that share a database must share this file (or the
// same content), or a session started on one is refused by the others.
func LoadOrCreateSecret(path string) ([]byte, error) {
	b, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		secret := make([]byte, 32)
		if _, err := rand.Read(secret); err != nil {
			return nil, err
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) { // another process won the race
			return LoadOrCreateSecret(path)
		}
		if err != nil {
			return nil, err
		}
		_, err = f.WriteString(hex.EncodeToString(secret) + "\n")
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, err
		}
		return secret, nil
	}
	if err != nil {
		return nil, err
	}
	secret, err := hex.DecodeString(strings.TrimSpace(string(b)))
	if err != nil || len(secret) < 32 {
		return nil, fmt.Errorf("web: %s must hold at least 64 hex characters (32 random bytes)", path)
	}
	return secret, nil
}

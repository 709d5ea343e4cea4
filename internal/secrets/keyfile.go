package secrets

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
)

// KeyFileName is the file in the data directory that holds the secrets key
// on the embedded default, when no key is given. It is made on first start
// (mode 0600) so that a laptop install keeps working secrets across
// restarts without any set-up. For production, move its content into
// --secrets-key / CLEARHOUSE_SECRETS_KEY (kept outside the data directory
// and its backups) and delete the file: a key beside the database it
// protects protects nothing against a copy of the whole directory.
const KeyFileName = "secrets-key"

// ReadKeyFile reads the key in path (base64 or hex, as ParseKey). A file
// that group or others may read is refused: it is a key.
func ReadKeyFile(path string) ([]byte, error) {
	info, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("secrets: %s is readable by other users (mode %04o); make it private: chmod 600 %s", path, info.Mode().Perm(), path)
	}
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	key, err := ParseKey(string(raw))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return key, nil
}

// LoadOrCreateKeyFile reads the key in path, or, when there is no such
// file, writes a new random key there (mode 0600) and reports created.
// Two processes starting at once agree: the file is created exclusively
// and the loser reads the winner's key.
func LoadOrCreateKeyFile(path string) (key []byte, created bool, err error) {
	key, err = ReadKeyFile(path)
	if !errors.Is(err, fs.ErrNotExist) {
		return key, false, err
	}
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if errors.Is(err, fs.ErrExist) {
		key, err = ReadKeyFile(path)
		return key, false, err
	}
	if err != nil {
		return nil, false, fmt.Errorf("secrets: create key file: %w", err)
	}
	encoded := NewKey()
	if _, err := f.WriteString(encoded + "\n"); err != nil {
		f.Close()
		os.Remove(path)
		return nil, false, fmt.Errorf("secrets: write key file: %w", err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(path)
		return nil, false, fmt.Errorf("secrets: write key file: %w", err)
	}
	if err := f.Close(); err != nil {
		os.Remove(path)
		return nil, false, fmt.Errorf("secrets: write key file: %w", err)
	}
	key, err = ParseKey(encoded)
	return key, true, err
}

package main

import (
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"log/slog"
	"path/filepath"

	"github.com/clearhouse/clearhouse/internal/secrets"
)

// secretsKeyFlag is --secrets-key, shared by serve and the commands that
// seal or open stored secrets.
type secretsKeyFlag struct{ key string }

func (s *secretsKeyFlag) add(fs *flag.FlagSet) {
	fs.StringVar(&s.key, "secrets-key", "", "key that encrypts connection and webhook secrets at rest: 32 random bytes as base64 or hex (openssl rand -base64 32); "+
		"keep it out of the database's backups. Empty on the embedded default: the key in the data directory's "+secrets.KeyFileName+" file (serve makes it on first start)")
}

// box returns the box of --secrets-key, or nil when none is given.
func (s *secretsKeyFlag) box() (*secrets.Box, error) {
	if s.key == "" {
		return nil, nil
	}
	key, err := secrets.ParseKey(s.key)
	if err != nil {
		return nil, &exitError{code: 2, err: fmt.Errorf("--secrets-key: %w", err)}
	}
	return secrets.New(key)
}

// boxFor is the box of --secrets-key or, without one, of dataDir's key file
// if it has one (nil if not): the key serve uses on the embedded default.
func (s *secretsKeyFlag) boxFor(dataDir string) (*secrets.Box, error) {
	if s.key != "" || dataDir == "" {
		return s.box()
	}
	key, err := secrets.ReadKeyFile(filepath.Join(dataDir, secrets.KeyFileName))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return secrets.New(key)
}

// serveBox is serve's box. A server always has a key, so storing a secret
// never fails for want of one: --secrets-key when given; on the embedded
// default the data directory's key file, made on first start; with
// PostgreSQL (where replicas share secrets, so a per-directory key would
// differ from replica to replica) a missing key stops the start.
func (s *secretsKeyFlag) serveBox(dataDir, databaseURL string, logger *slog.Logger) (*secrets.Box, error) {
	if s.key != "" {
		return s.box()
	}
	if databaseURL != "" {
		return nil, &exitError{code: 2, err: errors.New("--secrets-key is required with --database: every replica must seal and open " +
			"connection and webhook secrets with the same key (make one with: openssl rand -base64 32; pass it as --secrets-key or CLEARHOUSE_SECRETS_KEY)")}
	}
	path, err := filepath.Abs(filepath.Join(dataDir, secrets.KeyFileName))
	if err != nil {
		return nil, err
	}
	key, created, err := secrets.LoadOrCreateKeyFile(path)
	if err != nil {
		return nil, err
	}
	box, err := secrets.New(key)
	if err != nil {
		return nil, err
	}
	msg := "secrets key read from the data directory (no --secrets-key)"
	if created {
		msg = "secrets key created in the data directory (no --secrets-key)"
	}
	logger.Info(msg, "file", path, "key_id", box.KeyID(),
		"production", "move the key out of the data directory: pass its content as --secrets-key or CLEARHOUSE_SECRETS_KEY, then delete the file")
	return box, nil
}

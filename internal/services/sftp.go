package services

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/sftpd"
	"github.com/clearhouse/clearhouse/internal/store"
)

// SFTPConfig is the embedded SFTP server's place in the data directory:
// its host key (made on first start) and its users' folders.
func SFTPConfig(dataDir string) sftpd.Config {
	return sftpd.Config{HostKeyFile: filepath.Join(dataDir, "sftp_host_ed25519_key"), Root: filepath.Join(dataDir, "sftp")}
}

// NewSFTPServer builds the embedded SFTP server for partners on cfg (its
// HostKeyFile and Root): logins from `clearhouse sftp users`, each confined
// to its inbound/ and outbound/, and every complete upload to inbound/
// handed to the EDI core (core.Receive) as the user's account and mode.
func NewSFTPServer(cfg sftpd.Config, st store.Store, edi *core.Service, logger *slog.Logger) (*sftpd.Server, error) {
	log := logger.With("component", "sftp")
	cfg.HomeOf = sftpHome(st)
	cfg.MaxFileBytes = edi.MaxFileBytes()
	cfg.Logger = log
	cfg.PasswordHash = func(user string) (string, bool) {
		u, err := st.GetSFTPUser(context.Background(), user)
		return u.PasswordHash, err == nil
	}
	cfg.PublicKey = func(user string, key ssh.PublicKey) bool {
		u, err := st.GetSFTPUser(context.Background(), user)
		return err == nil && authorizedKey(u.PublicKeys, key)
	}
	cfg.OnInbound = func(ctx context.Context, user, name string, f *os.File) error {
		u, err := st.GetSFTPUser(ctx, user)
		if err != nil {
			return err
		}
		e, err := edi.Receive(ctx, core.ReceiveParams{AccountID: u.AccountID, Mode: u.Mode, Name: name,
			Dirname: "inbound", ConnectionID: "sftp:" + user, Body: f})
		if err != nil {
			if errors.Is(err, core.ErrEmptyFile) {
				return nil // nothing to process; the empty file is dropped
			}
			return err
		}
		log.Info("sftp: file received", "user", user, "execution", e.ID)
		return nil
	}
	return sftpd.New(cfg)
}

// sftpHome keys each SFTP user's folders by its account and mode
// (DATA/sftp/<account-id>/<mode>/<user>/): a user name deleted and made
// again by another account starts empty, never with the first owner's
// files.
func sftpHome(st store.SFTPUsers) func(user string) (string, error) {
	return func(user string) (string, error) {
		u, err := st.GetSFTPUser(context.Background(), user)
		if err != nil {
			return "", fmt.Errorf("sftp user %q: %w", user, err)
		}
		return filepath.Join(u.AccountID, u.Mode, u.Username), nil
	}
}

// authorizedKey reports whether key is one of the authorized_keys lines.
func authorizedKey(lines string, key ssh.PublicKey) bool {
	want := key.Marshal()
	for rest := []byte(lines); len(bytes.TrimSpace(rest)) > 0; {
		k, _, _, r, err := ssh.ParseAuthorizedKey(rest)
		if err != nil {
			return false
		}
		if bytes.Equal(k.Marshal(), want) {
			return true
		}
		rest = r
	}
	return false
}

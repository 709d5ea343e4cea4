package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/api"
	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/sftpconn"
	"github.com/clearhouse/clearhouse/internal/sftpd"
	"github.com/clearhouse/clearhouse/internal/store"
)

// newSFTPServer builds the embedded SFTP server of serve --sftp-listen:
// logins from `clearhouse sftp users`, each confined to its inbound/ and
// outbound/ under DATA/sftp, and every complete upload to inbound/ handed
// to the EDI core (core.Receive) as the user's account and mode. The host
// key is DATA/sftp_host_ed25519_key, made on first start.
func newSFTPServer(dataDir string, st store.Store, edi *core.Service, logger *slog.Logger) (*sftpd.Server, error) {
	log := logger.With("component", "sftp")
	srv, err := sftpd.New(sftpd.Config{
		HostKeyFile:  filepath.Join(dataDir, "sftp_host_ed25519_key"),
		Root:         filepath.Join(dataDir, "sftp"),
		HomeOf:       sftpHome(st),
		MaxFileBytes: edi.MaxFileBytes(),
		Logger:       log,
		PasswordHash: func(user string) (string, bool) {
			u, err := st.GetSFTPUser(context.Background(), user)
			return u.PasswordHash, err == nil
		},
		PublicKey: func(user string, key ssh.PublicKey) bool {
			u, err := st.GetSFTPUser(context.Background(), user)
			return err == nil && authorizedKey(u.PublicKeys, key)
		},
		OnInbound: func(ctx context.Context, user, name string, f *os.File) error {
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
		},
	})
	return srv, err
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

// serveSFTP serves srv on addr and returns the function that stops it
// (unfinished uploads are discarded).
func serveSFTP(srv *sftpd.Server, addr string, logger *slog.Logger) (func(), error) {
	log := logger.With("component", "sftp")
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	go func() {
		if err := srv.Serve(ln); err != nil {
			log.Error("sftp server stopped", "error", err.Error())
		}
	}()
	logger.Info("sftp listening", "addr", ln.Addr().String(),
		"hostKey", strings.TrimSpace(string(ssh.MarshalAuthorizedKey(srv.HostKey()))))
	return func() { srv.Close() }, nil
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

// sftpTransports are the delivery transports of SFTP connections (a
// partner's server) and SFTP_SERVER connections (our own, when running),
// and the poller of SFTP connections' inbound folders.
func sftpTransports(env api.Env, local *sftpd.Server, cfg serveConfig, logger *slog.Logger) (map[string]delivery.Transport, *sftpconn.Poller) {
	remote := &sftpconn.Remote{Box: env.Secrets, Options: connections.Options{Guard: cfg.connections.guard(nil)}}
	transports := map[string]delivery.Transport{store.ConnectionSFTP: remote, store.ConnectionSFTPServer: &sftpconn.Local{Server: local, Users: env.Store}}
	return transports, &sftpconn.Poller{Store: env.Store, Core: env.Core, Remote: remote, Logger: logger.With("component", "sftp-poll")}
}

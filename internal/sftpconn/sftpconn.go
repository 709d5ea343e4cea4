// Package sftpconn moves files over the SFTP connections of the partners
// configuration (store.Connection): outbound files are delivered to a
// partner's server (SFTP, upload then rename) or left in a partner's
// outbound/ folder on our own server (SFTP_SERVER), and the inbound
// folders of SFTP connections are polled into the EDI core.
package sftpconn

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/sftpd"
	"github.com/clearhouse/clearhouse/internal/store"
)

// settings are an SFTP or SFTP_SERVER connection's settings (the names of
// the partners schema).
type settings struct {
	Host         string `json:"host"`
	Port         int    `json:"port"`
	Username     string `json:"username"`
	InboundPath  string `json:"inboundPath"`
	OutboundPath string `json:"outboundPath"`
	HostKey      string `json:"hostKey"`
}

func parseSettings(c store.Connection) (settings, error) {
	var s settings
	if err := json.Unmarshal(c.Settings, &s); err != nil {
		return s, fmt.Errorf("connection %s: settings: %w", c.ID, err)
	}
	return s, nil
}

// Remote reaches partners' SFTP servers (store.ConnectionSFTP).
type Remote struct {
	Box *secrets.Box
	// Options carry the SSRF guard every session dials through.
	Options connections.Options
	// Timeout bounds one session (default connections.DefaultSFTPTimeout).
	Timeout time.Duration
}

// client builds the SFTP connection of a stored connection.
func (r *Remote) client(c store.Connection) (*connections.SFTPRemote, settings, error) {
	s, err := parseSettings(c)
	if err != nil {
		return nil, s, err
	}
	sec, err := partners.OpenSecrets(r.Box, c)
	if err != nil {
		return nil, s, err
	}
	d := connections.Definition{ID: c.ID, Type: connections.SFTP, Host: s.Host, Port: s.Port, Username: s.Username,
		HostKey: s.HostKey, OutboundDir: s.OutboundPath, InboundDir: s.InboundPath, Timeout: connections.Duration(r.Timeout)}
	remote, err := connections.NewSFTPRemote(d, sec["password"], sec["privateKey"], r.Options, nil)
	return remote, s, err
}

// Deliver uploads the file (delivery.Transport): under a temporary name,
// then renamed to the execution's name.
func (r *Remote) Deliver(ctx context.Context, f delivery.File) (string, error) {
	remote, _, err := r.client(f.Connection)
	if err != nil {
		return "", err
	}
	where, err := remote.Deliver(ctx, delivery.FileName(f.Execution), f.Body)
	if err != nil {
		return "", err
	}
	return "File was delivered to '" + where + "'", nil
}

// Local leaves files in a partner's outbound/ folder on our own SFTP
// server (store.ConnectionSFTPServer, whose setting "username" is the
// partner's login). The login must be an SFTP user of the connection's own
// account and mode (checked when the connection is stored and again here:
// a user deleted and made again by another account is not reached).
type Local struct {
	Server *sftpd.Server
	Users  store.SFTPUsers
}

// Deliver writes the file to the user's outbound/ (delivery.Transport).
func (l *Local) Deliver(ctx context.Context, f delivery.File) (string, error) {
	if l.Server == nil {
		return "", errors.New("this server runs no SFTP server (serve --sftp-listen)")
	}
	s, err := parseSettings(f.Connection)
	if err != nil {
		return "", err
	}
	if err := l.owned(ctx, f.Connection, s.Username); err != nil {
		return "", err
	}
	name := delivery.FileName(f.Execution)
	if err := l.Server.PutOutbound(s.Username, name, strings.NewReader(string(f.Body))); err != nil {
		return "", err
	}
	return "File was delivered to '" + s.Username + "/outbound/" + name + "'", nil
}

// owned checks that username is an SFTP user of the connection's account
// and mode.
func (l *Local) owned(ctx context.Context, c store.Connection, username string) error {
	if l.Users == nil {
		return errors.New("sftpconn: no SFTP users store")
	}
	u, err := l.Users.GetSFTPUser(ctx, username)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return err
	}
	if err != nil || u.AccountID != c.AccountID || u.Mode != c.Mode {
		return fmt.Errorf("connection %s names SFTP user %q, which is not a user of this account's %s mode", c.ID, username, c.Mode)
	}
	return nil
}

// Poller polls the inbound folders of every SFTP connection into the core.
type Poller struct {
	Store  store.Store
	Core   *core.Service
	Remote *Remote
	Logger *slog.Logger
	// Interval between two polls of one connection (default 30 s).
	Interval time.Duration
	last     map[string]time.Time
}

// Run polls until ctx ends.
func (p *Poller) Run(ctx context.Context) {
	tick := time.NewTicker(time.Second)
	defer tick.Stop()
	for {
		if err := p.PollOnce(ctx, false); err != nil && ctx.Err() == nil {
			// Each connection's failure was logged with its ids as it
			// happened; this sums up the pass (and says when listing the
			// accounts failed).
			p.Logger.Warn("sftp: poll failed", logsafe.Error(err))
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// PollOnce polls the connections that are due (all of them when force).
func (p *Poller) PollOnce(ctx context.Context, force bool) error {
	if p.last == nil {
		p.last = map[string]time.Time{}
	}
	interval := p.Interval
	if interval <= 0 {
		interval = 30 * time.Second
	}
	accounts, err := p.Store.ListAccounts(ctx)
	if err != nil {
		return err
	}
	var errs []error
	for _, a := range accounts {
		conns, err := p.Store.ListConnections(ctx, a.ID, store.ModeProduction)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, c := range conns {
			if c.Type != store.ConnectionSFTP {
				continue
			}
			key := c.AccountID + "/" + c.ID
			if !force && time.Since(p.last[key]) < interval {
				continue
			}
			p.last[key] = time.Now()
			if err := p.poll(ctx, c); err != nil {
				// The class only: the server's words and file names stay out.
				p.Logger.Warn("sftp: polling a connection failed", "connection", c.ID, "account", c.AccountID, logsafe.Error(err))
				errs = append(errs, fmt.Errorf("connection %s: %w", c.ID, err))
			}
		}
	}
	return errors.Join(errs...)
}

func (p *Poller) poll(ctx context.Context, c store.Connection) error {
	remote, s, err := p.Remote.client(c)
	if err != nil {
		return err
	}
	if s.InboundPath == "" {
		return nil // outbound only
	}
	n, err := remote.Poll(ctx, func(ctx context.Context, name, key string, body io.Reader) error {
		// The execution id comes from the file's identity, so a file seen
		// again (not yet deleted when we crashed) is the same execution.
		_, err := p.Core.Receive(ctx, core.ReceiveParams{AccountID: c.AccountID, Mode: c.Mode, Name: name,
			Dirname: s.InboundPath, ConnectionID: c.ID, Body: body, ExecutionID: executionID(c, key)})
		if errors.Is(err, core.ErrEmptyFile) {
			return nil
		}
		return err
	})
	if n > 0 {
		p.Logger.Info("sftp: files received", "connection", c.ID, "account", c.AccountID, "files", n)
	}
	return err
}

func executionID(c store.Connection, key string) string {
	sum := sha256.Sum256([]byte("sftp\x00" + c.AccountID + "\x00" + c.Mode + "\x00" + c.ID + "\x00" + key))
	var id [16]byte
	copy(id[:], sum[:16])
	return store.FormatUUID(id, 5)
}

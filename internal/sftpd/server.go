// Package sftpd is Clearhouse's embedded SFTP server: partners log in with
// a password or a public key and see only two folders of their own,
// inbound/ (they upload) and outbound/ (we leave files for them).
//
// A file written to inbound/ is handed to Config.OnInbound only once it is
// complete: the client closed it (every handle on it, when a temporary name
// is renamed while still open). A connection that drops mid-upload never
// hands anything over (pkg/sftp reports the transfer error first), and a
// file uploaded under a temporary name (".name", "name.part", "name.tmp",
// "name.filepart") waits until it is renamed to its final name. Files for
// the partner are written to outbound/ under a temporary name and renamed,
// so a partner never downloads half a file.
package sftpd

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/sweep"
)

// Inbound is called with a complete upload: the user, the file's name in
// inbound/, and the file, open for reading. An error leaves the file for
// a retry (the client's close fails, so the partner knows).
type Inbound func(ctx context.Context, user, name string, f *os.File) error

// Config wires a Server.
type Config struct {
	// HostKeyFile holds the server's private host key (ed25519, OpenSSH
	// format); it is generated on first start and kept, so partners' pinned
	// host keys stay valid across restarts.
	HostKeyFile string
	// Root holds one directory per user (Root/<user>/inbound, /outbound).
	Root string
	// HomeOf names a user's directory under Root, as a relative path
	// (nil: the user name). Clearhouse keys it by the user's account and
	// mode, so a user name deleted and made again by another account
	// starts with empty folders.
	HomeOf func(user string) (string, error)
	// PasswordHash returns a user's bcrypt password hash (found false for
	// an unknown user, "" for one without a password); the server
	// compares it, under SignIn's limits. Password instead checks a
	// password itself (a cheap comparison: the mock payer's one user);
	// PasswordHash wins when both are set. Nil for both refuses
	// passwords.
	PasswordHash func(user string) (hash string, found bool)
	Password     func(user, password string) bool
	// SignIn bounds password sign-ins (lockouts, bcrypt concurrency).
	SignIn    SignInLimits
	PublicKey func(user string, key ssh.PublicKey) bool
	OnInbound Inbound
	// MaxFileBytes bounds one upload (default 64 MiB).
	MaxFileBytes int64
	// IdleTimeout closes connections silent that long (default 10 min).
	IdleTimeout time.Duration
	Logger      *slog.Logger
}

// Server is a running SFTP endpoint.
type Server struct {
	cfg     Config
	ssh     *ssh.ServerConfig
	hostKey ssh.Signer
	signIn  *signIn
	writes  openWrites

	mu     sync.Mutex
	ln     net.Listener
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// New loads (or creates) the host key and prepares the server.
func New(cfg Config) (*Server, error) {
	if cfg.Root == "" || cfg.HostKeyFile == "" {
		return nil, errors.New("sftpd: Root and HostKeyFile are required")
	}
	if cfg.MaxFileBytes <= 0 {
		cfg.MaxFileBytes = 64 << 20
	}
	if cfg.IdleTimeout <= 0 {
		cfg.IdleTimeout = 10 * time.Minute
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if err := os.MkdirAll(cfg.Root, 0o700); err != nil {
		return nil, err
	}
	// Uploads a crash cut short stay in their user's staging folder: a
	// file there untouched for longer than a connection may idle has no
	// handle left in any process.
	staged := func(dir, name string) bool { return dir == stagingDir && strings.HasPrefix(name, "in-") }
	if n, err := sweep.Files(cfg.Root, staged, cfg.IdleTimeout, time.Now()); err != nil {
		cfg.Logger.Warn("sftp: sweeping staged uploads left by a crash", "error", err.Error())
	} else if n > 0 {
		cfg.Logger.Info("sftp: removed staged uploads left by a crash", "files", n)
	}
	signer, err := loadOrCreateHostKey(cfg.HostKeyFile)
	if err != nil {
		return nil, err
	}
	s := &Server{cfg: cfg, hostKey: signer, conns: map[net.Conn]struct{}{}, signIn: newSignIn(cfg.SignIn, cfg.Logger)}
	sc := &ssh.ServerConfig{
		MaxAuthTries:  3,
		ServerVersion: "SSH-2.0-Clearhouse",
	}
	if cfg.PasswordHash != nil || cfg.Password != nil {
		sc.PasswordCallback = func(c ssh.ConnMetadata, pw []byte) (*ssh.Permissions, error) {
			user := c.User()
			verify := func(func() bool) (bool, error) { return validUser(user) && cfg.Password(user, string(pw)), nil }
			if cfg.PasswordHash != nil {
				verify = func(locked func() bool) (bool, error) {
					hash, found := "", false
					if validUser(user) {
						hash, found = cfg.PasswordHash(user)
					}
					return s.signIn.verifyHash(hash, found, string(pw), locked)
				}
			}
			if err := s.signIn.check(user, c.RemoteAddr(), verify); err != nil {
				return nil, err
			}
			return &ssh.Permissions{}, nil
		}
	}
	if cfg.PublicKey != nil {
		sc.PublicKeyCallback = func(c ssh.ConnMetadata, key ssh.PublicKey) (*ssh.Permissions, error) {
			if validUser(c.User()) && cfg.PublicKey(c.User(), key) {
				return &ssh.Permissions{}, nil
			}
			return nil, errors.New("key not authorized")
		}
	}
	sc.AddHostKey(signer)
	s.ssh = sc
	return s, nil
}

// HostKey is the server's public host key, for partners to pin.
func (s *Server) HostKey() ssh.PublicKey { return s.hostKey.PublicKey() }

// loadOrCreateHostKey reads the key at path, or writes a new ed25519 key
// there (0600) when there is none.
func loadOrCreateHostKey(path string) (ssh.Signer, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		_, priv, gerr := ed25519.GenerateKey(rand.Reader)
		if gerr != nil {
			return nil, gerr
		}
		block, merr := ssh.MarshalPrivateKey(priv, "clearhouse sftp host key")
		if merr != nil {
			return nil, merr
		}
		data = pem.EncodeToMemory(block)
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			return nil, err
		}
		if err := writeFileAtomic(path, data, 0o600); err != nil {
			return nil, fmt.Errorf("sftpd: write host key: %w", err)
		}
	} else if err != nil {
		return nil, fmt.Errorf("sftpd: read host key: %w", err)
	}
	signer, err := ssh.ParsePrivateKey(data)
	if err != nil {
		return nil, fmt.Errorf("sftpd: host key %s: %w", path, err)
	}
	return signer, nil
}

// writeFileAtomic writes data to a temporary file beside path, syncs it
// and renames it into place.
func writeFileAtomic(path string, data []byte, perm os.FileMode) error {
	tmp, err := os.CreateTemp(filepath.Dir(path), ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(perm); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

// Serve accepts connections on ln until Close.
func (s *Server) Serve(ln net.Listener) error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return net.ErrClosed
	}
	s.ln = ln
	s.mu.Unlock()
	for {
		c, err := ln.Accept()
		if err != nil {
			s.mu.Lock()
			closed := s.closed
			s.mu.Unlock()
			if closed {
				return nil
			}
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				time.Sleep(50 * time.Millisecond)
				continue
			}
			return err
		}
		s.mu.Lock()
		if s.closed {
			s.mu.Unlock()
			c.Close()
			return nil
		}
		s.conns[c] = struct{}{}
		s.wg.Add(1)
		s.mu.Unlock()
		go func() {
			defer s.wg.Done()
			defer func() {
				s.mu.Lock()
				delete(s.conns, c)
				s.mu.Unlock()
				c.Close()
			}()
			s.handle(c)
		}()
	}
}

// Close stops accepting, drops open connections (their unfinished uploads
// are discarded) and waits for the handlers.
func (s *Server) Close() error {
	s.mu.Lock()
	s.closed = true
	if s.ln != nil {
		s.ln.Close()
	}
	for c := range s.conns {
		c.Close()
	}
	s.mu.Unlock()
	s.wg.Wait()
	return nil
}

// idleConn closes a connection that has been silent for the idle time
// (30 s until the login is done).
type idleConn struct {
	net.Conn
	idle     time.Duration
	loggedIn atomic.Bool
}

func (c *idleConn) Read(p []byte) (int, error) {
	d := 30 * time.Second
	if c.loggedIn.Load() {
		d = c.idle
	}
	_ = c.Conn.SetReadDeadline(time.Now().Add(d))
	return c.Conn.Read(p)
}

func (s *Server) handle(raw net.Conn) {
	ic := &idleConn{Conn: raw, idle: s.cfg.IdleTimeout}
	conn, chans, reqs, err := ssh.NewServerConn(ic, s.ssh)
	if err != nil {
		s.cfg.Logger.Info("sftp: login failed", "remote", raw.RemoteAddr().String(), "error", err.Error())
		return
	}
	ic.loggedIn.Store(true)
	defer conn.Close()
	user := conn.User()
	log := s.cfg.Logger.With("user", user, "remote", raw.RemoteAddr().String())
	log.Info("sftp: login")
	home, err := s.home(user)
	if err != nil {
		log.Error("sftp: cannot prepare the user's folders", "error", err.Error())
		return
	}
	go ssh.DiscardRequests(reqs)
	for nc := range chans {
		if nc.ChannelType() != "session" {
			_ = nc.Reject(ssh.UnknownChannelType, "only session channels")
			continue
		}
		ch, creqs, err := nc.Accept()
		if err != nil {
			continue
		}
		go s.session(ch, creqs, user, home, log)
	}
}

// session serves the sftp subsystem on one channel (and nothing else: no
// shell, no exec, no forwarding).
func (s *Server) session(ch ssh.Channel, reqs <-chan *ssh.Request, user, home string, log *slog.Logger) {
	defer ch.Close()
	for req := range reqs {
		ok := req.Type == "subsystem" && len(req.Payload) > 4 && string(req.Payload[4:]) == "sftp"
		_ = req.Reply(ok, nil)
		if !ok {
			continue
		}
		fs := &userFS{s: s, user: user, home: home, log: log}
		rs := sftp.NewRequestServer(ch, sftp.Handlers{FileGet: fs, FilePut: fs, FileCmd: fs, FileList: fs})
		if err := rs.Serve(); err != nil && !errors.Is(err, io.EOF) {
			log.Info("sftp: session ended", "error", err.Error())
		}
		rs.Close()
		return
	}
}

// home creates (if needed) and returns the user's directory.
func (s *Server) home(user string) (string, error) {
	if !validUser(user) {
		return "", fmt.Errorf("sftpd: invalid user name %q", user)
	}
	rel := user
	if s.cfg.HomeOf != nil {
		var err error
		if rel, err = s.cfg.HomeOf(user); err != nil {
			return "", err
		}
		if rel == "" || filepath.IsAbs(rel) || filepath.Clean(rel) != rel || rel == ".." || strings.HasPrefix(rel, "../") {
			return "", fmt.Errorf("sftpd: user %q has no folder under the root (%q)", user, rel)
		}
	}
	home := filepath.Join(s.cfg.Root, rel)
	for _, d := range []string{inboundDir, outboundDir, stagingDir} {
		if err := os.MkdirAll(filepath.Join(home, d), 0o700); err != nil {
			return "", err
		}
	}
	return home, nil
}

// PutOutbound leaves a file for user in outbound/: written under a
// temporary name, synced, then renamed, so the partner never sees part of
// it. An existing file of that name is replaced.
func (s *Server) PutOutbound(user, name string, body io.Reader) error {
	if !validName(name) || isTemporary(name) {
		return fmt.Errorf("sftpd: %q is not a file name for outbound/", name)
	}
	home, err := s.home(user)
	if err != nil {
		return err
	}
	dir := filepath.Join(home, outboundDir)
	tmp, err := os.CreateTemp(filepath.Join(home, stagingDir), "out-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, body); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), filepath.Join(dir, name))
}

package connections

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"path"
	"strconv"
	"strings"
	"time"

	"github.com/pkg/sftp"
	"golang.org/x/crypto/ssh"

	"github.com/clearhouse/clearhouse/internal/logsafe"
)

// DefaultSFTPTimeout bounds one SFTP session (login, transfer, listing).
const DefaultSFTPTimeout = 2 * time.Minute

// MaxPolledFileBytes bounds a file read back from a partner's server.
const MaxPolledFileBytes = 64 << 20

// SFTPRemote is an SFTP connection to a partner's server: outbound files
// are uploaded, inbound files polled. Every session dials through the SSRF
// guard, checks the pinned host key and logs in with the sealed password
// or private key.
type SFTPRemote struct {
	def    Definition
	auth   []ssh.AuthMethod
	host   ssh.PublicKey // the pinned key, or nil when only its fingerprint is known
	hostFP string        // "SHA256:…"
	opts   Options
	memory Memory
}

// Memory remembers which polled files were processed (by name, size and
// modification time), so a file is processed once even when it cannot be
// removed or is moved back.
type Memory interface {
	Seen(ctx context.Context, connectionID, key string) (bool, error)
	Remember(ctx context.Context, connectionID, key string) error
}

// SFTPClient builds the SFTP connection of an SFTP definition. memory may
// be nil (an in-process memory).
func (s *Set) SFTPClient(d Definition, opts Options, memory Memory) (*SFTPRemote, error) {
	return NewSFTPRemote(d, s.secret(d.ID, FieldPassword), s.secret(d.ID, FieldPrivateKey), opts, memory)
}

// NewSFTPRemote builds an SFTP connection from a definition and its opened
// secrets. The host key is pinned either as an authorized_keys line
// ("ssh-ed25519 AAAA…") or as its fingerprint ("SHA256:…", as ssh-keygen
// -lf prints it); without one no session is ever opened.
func NewSFTPRemote(d Definition, password, privateKey string, opts Options, memory Memory) (*SFTPRemote, error) {
	if d.Type != SFTP {
		return nil, fmt.Errorf("connection %s is %s, not SFTP", d.ID, d.Type)
	}
	if opts.Guard == nil {
		return nil, errors.New("connections: no SSRF guard")
	}
	r := &SFTPRemote{def: d, opts: opts, memory: memory}
	switch {
	case strings.HasPrefix(d.HostKey, "SHA256:"):
		r.hostFP = strings.TrimSpace(d.HostKey)
	case strings.TrimSpace(d.HostKey) == "":
		return nil, fmt.Errorf("connection %s: no pinned host key: an unknown host key is never trusted", d.ID)
	default:
		host, _, _, _, err := ssh.ParseAuthorizedKey([]byte(d.HostKey))
		if err != nil {
			return nil, fmt.Errorf("connection %s: hostKey: %w (want a line like \"ssh-ed25519 AAAA…\", from ssh-keyscan, or its SHA256: fingerprint)", d.ID, err)
		}
		r.host, r.hostFP = host, ssh.FingerprintSHA256(host)
	}
	if privateKey != "" {
		signer, err := ssh.ParsePrivateKey([]byte(privateKey))
		if err != nil {
			return nil, fmt.Errorf("connection %s: privateKey: %w", d.ID, err)
		}
		r.auth = append(r.auth, ssh.PublicKeys(signer))
	}
	if password != "" {
		r.auth = append(r.auth, ssh.Password(password))
	}
	if r.memory == nil {
		r.memory = NewMemory()
	}
	return r, nil
}

// SFTPError says at which step an SFTP session failed.
type SFTPError struct {
	Step string // tcp, ssh (handshake and host key), auth, path, transfer
	Err  error
}

func (e *SFTPError) Error() string { return "sftp " + e.Step + ": " + e.Err.Error() }
func (e *SFTPError) Unwrap() error { return e.Err }

// ErrHostKey is wrapped by the refusal of a server whose host key is not
// the pinned one.
var ErrHostKey = errors.New("the server's host key is not the pinned one")

// LogSafe describes the failure for the log (logsafe.Describer): the step
// and the class of the error, never the server's words or file names.
func (e *SFTPError) LogSafe() string {
	switch {
	case e.Step == "auth":
		return "sftp auth: the server refused the username, password or key"
	case errors.Is(e.Err, ErrHostKey):
		return "sftp ssh: " + ErrHostKey.Error()
	}
	return "sftp " + e.Step + ": " + logsafe.Describe(e.Err)
}

func (r *SFTPRemote) addr() string {
	port := r.def.Port
	if port == 0 {
		port = 22
	}
	return net.JoinHostPort(r.def.Host, strconv.Itoa(port))
}

func (r *SFTPRemote) timeout() time.Duration {
	if r.def.Timeout > 0 {
		return time.Duration(r.def.Timeout)
	}
	return DefaultSFTPTimeout
}

// session opens one logged-in SFTP session; close closes it.
func (r *SFTPRemote) session(ctx context.Context) (c *sftp.Client, closeAll func(), err error) {
	conn, err := r.opts.Guard.DialContext(ctx, "tcp", r.addr())
	if err != nil {
		return nil, nil, &SFTPError{Step: "tcp", Err: err}
	}
	deadline := time.Now().Add(r.timeout())
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = conn.SetDeadline(deadline)
	var hostKeyErr error
	cfg := &ssh.ClientConfig{
		User: r.def.Username, Auth: r.auth, Timeout: r.timeout(),
		HostKeyCallback: func(_ string, _ net.Addr, key ssh.PublicKey) error {
			if r.host != nil && bytes.Equal(key.Marshal(), r.host.Marshal()) || r.host == nil && ssh.FingerprintSHA256(key) == r.hostFP {
				return nil
			}
			hostKeyErr = fmt.Errorf("%w: it is %s %s, the pinned one %s; never trusted", ErrHostKey, key.Type(), ssh.FingerprintSHA256(key), r.hostFP)
			return hostKeyErr
		},
	}
	sc, chans, reqs, err := ssh.NewClientConn(conn, r.addr(), cfg)
	if err != nil {
		conn.Close()
		switch {
		case hostKeyErr != nil:
			return nil, nil, &SFTPError{Step: "ssh", Err: hostKeyErr}
		case strings.Contains(err.Error(), "unable to authenticate"):
			return nil, nil, &SFTPError{Step: "auth", Err: errors.New("the server refused the username, password or key")}
		}
		return nil, nil, &SFTPError{Step: "ssh", Err: err}
	}
	client := ssh.NewClient(sc, chans, reqs)
	c, err = sftp.NewClient(client)
	if err != nil {
		client.Close()
		return nil, nil, &SFTPError{Step: "ssh", Err: fmt.Errorf("the server has no sftp subsystem: %w", err)}
	}
	return c, func() { c.Close(); client.Close() }, nil
}

// Deliver uploads body as name into the outbound directory: written under
// a temporary name (".name.part"), then renamed, so the partner never
// picks up half a file. It returns where the file went.
func (r *SFTPRemote) Deliver(ctx context.Context, name string, body []byte) (string, error) {
	if name == "" || strings.ContainsAny(name, "/\\") || strings.HasPrefix(name, ".") {
		return "", fmt.Errorf("sftp: %q is not a file name", name)
	}
	c, closeAll, err := r.session(ctx)
	if err != nil {
		return "", err
	}
	defer closeAll()
	dir := r.def.OutboundDir
	if dir == "" {
		dir = "."
	}
	final := path.Join(dir, name)
	tmp := path.Join(dir, "."+name+".part")
	f, err := c.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC)
	if err != nil {
		return "", &SFTPError{Step: "path", Err: fmt.Errorf("cannot write in %s: %w", dir, err)}
	}
	if _, err := f.Write(body); err != nil {
		f.Close()
		_ = c.Remove(tmp)
		return "", &SFTPError{Step: "transfer", Err: err}
	}
	if err := f.Close(); err != nil {
		_ = c.Remove(tmp)
		return "", &SFTPError{Step: "transfer", Err: err}
	}
	if err := c.PosixRename(tmp, final); err != nil {
		// Servers without the posix-rename extension: plain rename, which
		// refuses to overwrite; names are unique per execution.
		if err2 := c.Rename(tmp, final); err2 != nil {
			_ = c.Remove(tmp)
			return "", &SFTPError{Step: "transfer", Err: fmt.Errorf("rename to %s: %w", final, err2)}
		}
	}
	return r.def.Host + ":" + final, nil
}

// Handle receives one polled file: its name, the key it is remembered by
// (name, size and modification time: stable for the same file, so a
// receiver can make its own work idempotent with it) and its content.
type Handle func(ctx context.Context, name, key string, body io.Reader) error

// Poll lists the inbound directory and hands each new complete file to
// handle, once: a file is remembered by name, size and modification time
// once handled, then deleted, or moved (afterProcessing "move:<dir>").
// Temporary names (".x", "x.part", "x.tmp") are left alone. It returns the
// number of files handed over.
func (r *SFTPRemote) Poll(ctx context.Context, handle Handle) (int, error) {
	c, closeAll, err := r.session(ctx)
	if err != nil {
		return 0, err
	}
	defer closeAll()
	dir := r.def.InboundDir
	if dir == "" {
		dir = "."
	}
	entries, err := c.ReadDir(dir)
	if err != nil {
		return 0, &SFTPError{Step: "path", Err: fmt.Errorf("cannot list %s: %w", dir, err)}
	}
	n := 0
	for _, fi := range entries {
		name := fi.Name()
		if !fi.Mode().IsRegular() || temporaryName(name) {
			continue
		}
		key := fmt.Sprintf("%s|%d|%d", name, fi.Size(), fi.ModTime().Unix())
		seen, err := r.memory.Seen(ctx, r.def.ID, key)
		if err != nil {
			return n, err
		}
		p := path.Join(dir, name)
		if !seen {
			if fi.Size() > MaxPolledFileBytes {
				return n, &SFTPError{Step: "transfer", Err: fmt.Errorf("%s is %d bytes, over the limit of %d", p, fi.Size(), MaxPolledFileBytes)}
			}
			body, err := readAll(c, p)
			if err != nil {
				return n, &SFTPError{Step: "transfer", Err: err}
			}
			if err := handle(ctx, name, key, bytes.NewReader(body)); err != nil {
				return n, fmt.Errorf("sftp: %s: %w", p, err)
			}
			if err := r.memory.Remember(ctx, r.def.ID, key); err != nil {
				return n, err
			}
			n++
		}
		if err := r.afterProcessing(c, dir, name); err != nil {
			return n, &SFTPError{Step: "path", Err: err}
		}
	}
	return n, nil
}

func readAll(c *sftp.Client, p string) ([]byte, error) {
	f, err := c.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, MaxPolledFileBytes+1))
}

func (r *SFTPRemote) afterProcessing(c *sftp.Client, dir, name string) error {
	p := path.Join(dir, name)
	if to, ok := strings.CutPrefix(r.def.AfterProcessing, "move:"); ok {
		dst := path.Join(to, name)
		if err := c.PosixRename(p, dst); err != nil {
			return c.Rename(p, dst)
		}
		return nil
	}
	return c.Remove(p)
}

func temporaryName(name string) bool {
	lower := strings.ToLower(name)
	return strings.HasPrefix(name, ".") || strings.HasSuffix(lower, ".part") ||
		strings.HasSuffix(lower, ".tmp") || strings.HasSuffix(lower, ".filepart")
}

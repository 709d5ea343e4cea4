package connections

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/caqh"
	"github.com/clearhouse/clearhouse/internal/netguard"
)

// Step is one stage of a connection check.
type Step struct {
	// Name is dns, tcp, tls, ssh, auth or path.
	Name string
	OK   bool
	// Detail says what was found, or what failed and how to fix it.
	Detail string
}

// Report is the outcome of Test: the steps in order; the last failed one
// (if any) is where the connection broke.
type Report struct {
	ID    string
	Type  Type
	Steps []Step
}

// OK reports whether every step passed.
func (r *Report) OK() bool {
	for _, s := range r.Steps {
		if !s.OK {
			return false
		}
	}
	return len(r.Steps) > 0
}

// Failed returns the failed step, or nil.
func (r *Report) Failed() *Step {
	for i := range r.Steps {
		if !r.Steps[i].OK {
			return &r.Steps[i]
		}
	}
	return nil
}

func (r *Report) pass(name, format string, a ...any) {
	r.Steps = append(r.Steps, Step{Name: name, OK: true, Detail: fmt.Sprintf(format, a...)})
}

// fail records a failed step; Test stops at the first.
func (r *Report) fail(name, format string, a ...any) *Report {
	r.Steps = append(r.Steps, Step{Name: name, Detail: fmt.Sprintf(format, a...)})
	return r
}

// Test checks connection id step by step — DNS, TCP, TLS, then the
// protocol's authentication and path — and stops at the first failure,
// saying what failed. It never sends patient data: the CORE probe is an
// envelope without a payload, which a server answers with an envelope
// error once it has checked the credentials.
func (s *Set) Test(ctx context.Context, id string, opts Options) (*Report, error) {
	d, err := s.Get(id)
	if err != nil {
		return nil, err
	}
	r := &Report{ID: id, Type: d.Type}
	switch d.Type {
	case CAQHCore:
		return s.testCAQH(ctx, d, opts, r), nil
	case SFTP:
		return s.testSFTP(ctx, d, opts, r), nil
	case ClearinghouseAPI:
		return s.testUpstream(ctx, d, opts, r), nil
	case Directory:
		return testDirectory(d, r), nil
	case Mock:
		r.pass("local", "the test-mode mock payers answer in this process: nothing to reach, nothing to log in to")
		return r, nil
	case SFTPServer:
		r.pass("local", "the partner logs in to Clearhouse's own SFTP server as %q (serve --sftp-listen): nothing to reach from here; "+
			"'clearhouse sftp users' lists the account's users", d.Username)
		return r, nil
	case HTTPUpload:
		r.pass("local", "the partner POSTs its files to /2023-08-01/files/inbound with the account's key: nothing to reach")
		return r, nil
	}
	return nil, fmt.Errorf("connection %s is of type %q, which this server does not know", id, d.Type)
}

// testDirectory checks a DIRECTORY connection's folders: the --payers
// file's path, or a stored connection's inbound and outbound folders
// (relative to the account's folder under serve --directory-root, which
// only serve knows).
func testDirectory(d Definition, r *Report) *Report {
	if d.Path == "" {
		r.pass("local", "folders %q (inbound) and %q (outbound) under the account's folder of serve --directory-root; "+
			"serve refuses the connection at start when that root is not set", d.InboundDir, d.OutboundDir)
		return r
	}
	fi, err := os.Stat(d.Path)
	if err != nil || !fi.IsDir() {
		return r.fail("path", "%q is not a directory on this machine (%v) — create it or fix path", d.Path, err)
	}
	r.pass("path", "%q is a directory", d.Path)
	return r
}

// reach runs the dns and tcp steps and returns the open connection.
func (s *Set) reach(ctx context.Context, host, port string, opts Options, r *Report) net.Conn {
	dctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	addrs, err := net.DefaultResolver.LookupIPAddr(dctx, host)
	if err != nil {
		r.fail("dns", "cannot resolve %s: %v — check the host name", host, err)
		return nil
	}
	ips := make([]string, len(addrs))
	for i, a := range addrs {
		ips[i] = a.IP.String()
	}
	r.pass("dns", "%s → %s", host, strings.Join(ips, ", "))
	conn, err := opts.Guard.DialContext(dctx, "tcp", net.JoinHostPort(host, port))
	if err != nil {
		if errors.Is(err, netguard.ErrBlocked) {
			r.fail("tcp", "%v — the SSRF guard refuses private and reserved addresses (serve --allow-private-connections lifts it for development)", err)
			return nil
		}
		r.fail("tcp", "cannot connect to %s port %s: %v — is the server up, and does a firewall allow it?", host, port, err)
		return nil
	}
	r.pass("tcp", "connected to %s", conn.RemoteAddr())
	return conn
}

// reachURL runs the dns and tcp steps for an http(s) URL's host and port.
func (s *Set) reachURL(ctx context.Context, rawURL string, opts Options, r *Report) (*url.URL, net.Conn) {
	u, _ := url.Parse(rawURL) // Validate checked it
	port := u.Port()
	if port == "" {
		port = map[string]string{"https": "443", "http": "80"}[u.Scheme]
	}
	return u, s.reach(ctx, u.Hostname(), port, opts, r)
}

func (s *Set) testCAQH(ctx context.Context, d Definition, opts Options, r *Report) *Report {
	u, conn := s.reachURL(ctx, d.URL, opts, r)
	if conn == nil {
		return r
	}
	if u.Scheme == "https" {
		cfg, err := s.tlsConfig(d)
		if err != nil {
			conn.Close()
			return r.fail("tls", "%v", err)
		}
		cfg.ServerName = u.Hostname()
		tc := tls.Client(conn, cfg)
		hctx, cancel := context.WithTimeout(ctx, 10*time.Second)
		err = tc.HandshakeContext(hctx)
		cancel()
		if err != nil {
			conn.Close()
			return r.fail("tls", "handshake with %s failed: %v — check the server certificate (caCertificate for a private CA) and the client certificate", u.Host, err)
		}
		st := tc.ConnectionState()
		r.pass("tls", "%s, server certificate %q", tls.VersionName(st.Version), st.PeerCertificates[0].Subject.CommonName)
	} else {
		r.pass("tls", "not used (http://): use https:// with a real payer")
	}
	conn.Close()

	client, err := s.CAQHClient(d, opts)
	if err != nil {
		return r.fail("auth", "%v", err)
	}
	_, err = client.Exchange(ctx, nil)
	var ce *caqh.Error
	if !errors.As(err, &ce) {
		return r.fail("path", "the endpoint answered a probe without payload with a payload; it does not check envelopes")
	}
	switch {
	case ce.Code == caqh.CodeUnAuthorized || ce.HTTPStatus == 401 || ce.HTTPStatus == 403:
		return r.fail("auth", "the endpoint refused the credentials (%v) — check username, password and client certificate", ce)
	case ce.HTTPStatus == 404 || ce.HTTPStatus == 405:
		return r.fail("path", "%s answered HTTP %d — check the URL's path", u.Path, ce.HTTPStatus)
	case ce.Code == caqh.CodeTimeout:
		return r.fail("path", "no answer within %s", client.Timeout)
	case ce.Code == caqh.CodeHTTPStatus || ce.Code == caqh.CodeBadEnvelope || ce.Code == caqh.CodeUnreachable:
		return r.fail("path", "the endpoint does not answer in CAQH CORE %s (%v) — check the URL and the envelope setting", client.Kind, ce)
	}
	r.pass("auth", "credentials accepted")
	r.pass("path", "%s answers CAQH CORE %s envelopes (the empty probe got %s)", d.URL, kindName(client.Kind), ce.Code)
	return r
}

func kindName(k caqh.Kind) string {
	if k == "" {
		return string(caqh.SOAP)
	}
	return string(k)
}

// testSFTP checks the way to an SFTP server: dns, tcp, then the SSH
// handshake with the pinned host key, the login, and the two directories.
func (s *Set) testSFTP(ctx context.Context, d Definition, opts Options, r *Report) *Report {
	port := "22"
	if d.Port != 0 {
		port = fmt.Sprint(d.Port)
	}
	conn := s.reach(ctx, d.Host, port, opts, r)
	if conn == nil {
		return r
	}
	conn.Close()
	remote, err := s.SFTPClient(d, opts, nil)
	if err != nil {
		return r.fail("ssh", "%v", err)
	}
	c, closeAll, err := remote.session(ctx)
	var se *SFTPError
	if errors.As(err, &se) {
		switch se.Step {
		case "auth":
			r.pass("ssh", "host key matches the pinned %s", remote.hostFP)
			return r.fail("auth", "%v — check username, password and private key", se.Err)
		case "ssh":
			return r.fail("ssh", "%v", se.Err)
		}
		return r.fail(se.Step, "%v", se.Err)
	} else if err != nil {
		return r.fail("ssh", "%v", err)
	}
	defer closeAll()
	r.pass("ssh", "host key matches the pinned %s", remote.hostFP)
	r.pass("auth", "logged in as %s", d.Username)
	for _, dir := range []struct{ name, path string }{{"outboundDirectory", d.OutboundDir}, {"inboundDirectory", d.InboundDir}} {
		p := dir.path
		if p == "" {
			p = "."
		}
		fi, err := c.Stat(p)
		if err != nil || !fi.IsDir() {
			return r.fail("path", "%s %q is not a directory on the server (%v)", dir.name, p, err)
		}
	}
	r.pass("path", "%q and %q are directories", d.OutboundDir, d.InboundDir)
	return r
}

// testUpstream checks a CLEARINGHOUSE_API connection: dns and tcp to its
// url, then the key and the path with a probe that sends no patient data.
func (s *Set) testUpstream(ctx context.Context, d Definition, opts Options, r *Report) *Report {
	_, conn := s.reachURL(ctx, d.URL, opts, r)
	if conn == nil {
		return r
	}
	conn.Close()
	client, err := s.UpstreamClient(d, opts)
	if err != nil {
		return r.fail("auth", "%v", err)
	}
	step, detail := client.Probe(ctx)
	switch step {
	case "auth":
		return r.fail("auth", "%s", detail)
	case "path":
		return r.fail("path", "%s", detail)
	}
	r.pass("auth", "the upstream accepted the API key")
	r.pass("path", "%s", detail)
	return r
}

// Package netguard makes the HTTP clients and dialers that Clearhouse uses
// for every call it places to an address someone else configured: webhook
// receivers, payer endpoints, remote SFTP servers. The guard runs at dial
// time (net.Dialer.Control), after DNS resolution, so a name that resolves to
// a private address — or re-resolves to one later (DNS rebinding) — is refused
// as surely as a literal one.
//
// By default it refuses loopback, private (RFC 1918, ULA), link-local,
// CGNAT, multicast, documentation and cloud metadata addresses
// (code.dny.dev/ssrf keeps the IANA lists). AllowPrivate lifts it, for
// local development and tests; the caller says so in its log.
package netguard

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"syscall"
	"time"

	"code.dny.dev/ssrf"
)

// ErrBlocked is wrapped by every refusal, so callers can tell a guarded
// address from a network failure with errors.Is.
var ErrBlocked = errors.New("netguard: address not allowed")

// Options configure a Guard.
type Options struct {
	// AllowPrivate permits loopback, private and link-local addresses
	// (never the cloud metadata address 169.254.169.254 unless
	// AllowMetadata). For development and tests only.
	AllowPrivate bool
	// AllowMetadata also permits 169.254.169.254 and fd00:ec2::254. No
	// production use; tests only.
	AllowMetadata bool
	// DialTimeout bounds the TCP connect (default 10 s).
	DialTimeout time.Duration
}

// Guard checks addresses and builds guarded dialers and clients.
type Guard struct {
	opts     Options
	guardian *ssrf.Guardian
}

// New returns a guard. Any TCP port is allowed: payers and SFTP servers
// listen on many; the address is what is checked.
func New(opts Options) *Guard {
	if opts.DialTimeout <= 0 {
		opts.DialTimeout = 10 * time.Second
	}
	return &Guard{opts: opts, guardian: ssrf.New(ssrf.WithAnyPort(), ssrf.WithNetworks("tcp4", "tcp6"))}
}

// AllowsPrivate reports whether the guard lets private addresses through.
func (g *Guard) AllowsPrivate() bool { return g.opts.AllowPrivate }

var metadataAddrs = map[string]bool{"169.254.169.254": true, "fd00:ec2::254": true, "100.100.100.200": true}

// Check is the dial-time control: nil when address (a resolved "ip:port")
// may be dialled.
func (g *Guard) Check(network, address string, _ syscall.RawConn) error {
	host, _, err := net.SplitHostPort(address)
	if err != nil {
		return fmt.Errorf("%w: %s", ErrBlocked, address)
	}
	if metadataAddrs[host] && !g.opts.AllowMetadata {
		return fmt.Errorf("%w: %s is a cloud metadata address", ErrBlocked, host)
	}
	if g.opts.AllowPrivate {
		switch network {
		case "tcp", "tcp4", "tcp6":
			return nil
		}
		return fmt.Errorf("%w: network %s", ErrBlocked, network)
	}
	if err := g.guardian.Safe(network, address, nil); err != nil {
		return fmt.Errorf("%w: %s is not a public address", ErrBlocked, host)
	}
	return nil
}

// Dialer returns a net.Dialer whose connections pass Check.
func (g *Guard) Dialer() *net.Dialer {
	return &net.Dialer{Timeout: g.opts.DialTimeout, KeepAlive: 30 * time.Second, Control: g.Check}
}

// DialContext dials through the guard (for SSH/SFTP clients).
func (g *Guard) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	return g.Dialer().DialContext(ctx, network, address)
}

// Client returns an HTTP client that dials through the guard, uses no proxy
// (a proxy would dial on our behalf, past the guard), follows no redirects
// (the first answer is the answer: a redirect to an internal address must
// not be followed), and gives up after timeout.
func (g *Guard) Client(timeout time.Duration) *http.Client {
	tr := &http.Transport{
		Proxy:                 nil,
		DialContext:           g.Dialer().DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ResponseHeaderTimeout: timeout,
		ExpectContinueTimeout: time.Second,
	}
	return &http.Client{
		Transport:     tr,
		Timeout:       timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

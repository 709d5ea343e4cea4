package connections

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/caqh"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/upstream"
)

// Options are what every transport built from a Set shares.
type Options struct {
	// Guard checks every address a connection dials (SSRF). Required.
	Guard *netguard.Guard
}

// Eligibility builds the real-time connections (CAQH_CORE) by id, for
// payers.NewRouter: the connections a payer entry's "connection" names.
func (s *Set) Eligibility(opts Options) (map[string]payers.Connection, error) {
	out := map[string]payers.Connection{}
	for _, id := range s.IDs() {
		d := s.defs[id]
		switch {
		case d.Type == CAQHCore:
			c, err := s.CAQHClient(d, opts)
			if err != nil {
				return nil, fmt.Errorf("connection %s: %w", id, err)
			}
			out[id] = c
		case d.Type == ClearinghouseAPI && (d.Carries(TxEligibility) || d.Carries(TxClaimStatus)):
			c, err := s.UpstreamClient(d, opts)
			if err != nil {
				return nil, fmt.Errorf("connection %s: %w", id, err)
			}
			out[id] = c
		}
	}
	return out, nil
}

// Breakers are the breaker settings the definitions name, for
// payers.RouterOptions.
func (s *Set) Breakers() map[string]payers.BreakerSettings {
	out := map[string]payers.BreakerSettings{}
	for id, d := range s.defs {
		if d.BreakerFailures != 0 || d.BreakerOpenFor != 0 {
			out[id] = payers.BreakerSettings{Failures: d.BreakerFailures, OpenFor: time.Duration(d.BreakerOpenFor)}
		}
	}
	return out
}

// UpstreamClient builds the client of a CLEARINGHOUSE_API definition; it
// dials through the SSRF guard with the definition's time limit.
func (s *Set) UpstreamClient(d Definition, opts Options) (*upstream.Client, error) {
	if opts.Guard == nil {
		return nil, errors.New("connections: no SSRF guard")
	}
	timeout := time.Duration(d.Timeout)
	if timeout <= 0 {
		timeout = upstream.DefaultTimeout
	}
	return &upstream.Client{ID: d.ID, URL: d.URL, CoreURL: d.CoreURL, APIKey: s.secret(d.ID, FieldAPIKey),
		HTTP: opts.Guard.Client(timeout), Timeout: timeout}, nil
}

// CAQHClient builds the CORE client of a CAQH_CORE definition.
func (s *Set) CAQHClient(d Definition, opts Options) (*caqh.Client, error) {
	if opts.Guard == nil {
		return nil, errors.New("connections: no SSRF guard")
	}
	timeout := time.Duration(d.Timeout)
	if timeout <= 0 {
		timeout = caqh.DefaultTimeout
	}
	tlsConfig, err := s.tlsConfig(d)
	if err != nil {
		return nil, err
	}
	hc := opts.Guard.Client(timeout)
	if tr, ok := hc.Transport.(*http.Transport); ok {
		tr.TLSClientConfig = tlsConfig
	}
	return &caqh.Client{
		URL: d.URL, Kind: caqh.Kind(strings.ToUpper(d.Envelope)),
		Credentials: caqh.Credentials{Username: d.Username, Password: s.secret(d.ID, FieldPassword)},
		SenderID:    d.SenderID, ReceiverID: d.ReceiverID, HTTP: hc, Timeout: timeout,
	}, nil
}

// tlsConfig is TLS 1.2 or later (the rule says SSL 3.0; nothing accepts
// that any more), with the definition's client certificate and roots.
func (s *Set) tlsConfig(d Definition) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if d.ClientCertificate != "" {
		cert, err := tls.X509KeyPair([]byte(d.ClientCertificate), []byte(s.secret(d.ID, FieldClientKey)))
		if err != nil {
			return nil, fmt.Errorf("clientCertificate/clientKey: %w", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if d.CACertificate != "" {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM([]byte(d.CACertificate)) {
			return nil, errors.New("caCertificate: no PEM certificate in it")
		}
		cfg.RootCAs = pool
	}
	return cfg, nil
}

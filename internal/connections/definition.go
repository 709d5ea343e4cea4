// Package connections is how Clearhouse reaches trading partners: the
// connection definitions an operator declares (in the --payers file today;
// the partners configuration later), their secrets sealed at rest with
// package secrets, the transports built from them (CAQH CORE real-time
// for eligibility; SFTP for files), and the step-by-step check behind
// `clearhouse connections test`.
package connections

import (
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Type is a connection type (EDI-CORE.md, connections).
type Type string

// The connection types.
const (
	CAQHCore   Type = "CAQH_CORE"   // real-time 270/271 over CAQH CORE SOAP or MIME
	SFTP       Type = "SFTP"        // a partner's SFTP server: we upload and poll
	SFTPServer Type = "SFTP_SERVER" // our embedded SFTP server: the partner uploads and downloads
	Directory  Type = "DIRECTORY"   // a local directory pair (inbound/outbound)
	Mock       Type = "MOCK"        // the test-mode mock payers
	// ClearinghouseAPI is another clearinghouse's public API (the hosted
	// API's contract, or another Clearhouse): package upstream.
	ClearinghouseAPI Type = "CLEARINGHOUSE_API"
	// HTTPUpload is a stored connection only: the partner POSTs files to
	// the API (package partners).
	HTTPUpload Type = "HTTP_UPLOAD"
)

var knownTypes = []Type{CAQHCore, SFTP, SFTPServer, Directory, Mock, ClearinghouseAPI}

// The transactions a CLEARINGHOUSE_API connection may carry.
const (
	TxEligibility = "eligibility"
	TxClaims      = "claims"
	TxClaimStatus = "claimStatus"
)

var knownTransactions = []string{TxEligibility, TxClaims, TxClaimStatus}

// Definition is one declared connection. Which fields apply depends on
// Type; secret fields (Password, ClientKey, PrivateKey) hold sealed
// values ("v1:…", see `clearhouse connections seal`), never plaintext.
type Definition struct {
	ID   string `json:"id"`
	Type Type   `json:"type"`

	// CAQH_CORE
	URL        string `json:"url,omitempty"`
	Envelope   string `json:"envelope,omitempty"` // "SOAP" (default) or "MIME"
	SenderID   string `json:"senderId,omitempty"`
	ReceiverID string `json:"receiverId,omitempty"`
	// ClientCertificate (PEM) and the sealed ClientKey authenticate with a
	// TLS client certificate, instead of or beside Username/Password.
	ClientCertificate string `json:"clientCertificate,omitempty"`
	ClientKey         string `json:"clientKey,omitempty"`
	// CACertificate (PEM) replaces the system roots for this endpoint (a
	// payer's private CA; a test server).
	CACertificate string `json:"caCertificate,omitempty"`

	// CAQH_CORE and SFTP
	Username string   `json:"username,omitempty"`
	Password string   `json:"password,omitempty"`
	Timeout  Duration `json:"timeout,omitempty"`

	// SFTP
	Host            string   `json:"host,omitempty"`
	Port            int      `json:"port,omitempty"`
	PrivateKey      string   `json:"privateKey,omitempty"`
	HostKey         string   `json:"hostKey,omitempty"` // the server's public key, authorized_keys format
	OutboundDir     string   `json:"outboundDirectory,omitempty"`
	InboundDir      string   `json:"inboundDirectory,omitempty"`
	PollInterval    Duration `json:"pollInterval,omitempty"`
	AfterProcessing string   `json:"afterProcessing,omitempty"` // "delete" (default) or "move:<directory>"

	// DIRECTORY
	Path string `json:"path,omitempty"`

	// CLEARINGHOUSE_API (URL is the upstream's healthcare API base, such
	// as https://healthcare.example/2024-04-01; CoreURL its EDI core base,
	// such as https://core.example/2023-08-01; APIKey sealed).
	CoreURL      string   `json:"coreUrl,omitempty"`
	APIKey       string   `json:"apiKey,omitempty"`
	Transactions []string `json:"transactions,omitempty"`
	// BreakerFailures outages in a row open the route for BreakerOpenFor
	// (payers.Breaker; defaults 3 and 30s).
	BreakerFailures int      `json:"breakerFailures,omitempty"`
	BreakerOpenFor  Duration `json:"breakerOpenFor,omitempty"`
}

// Carries reports whether the connection carries a transaction type: a
// CLEARINGHOUSE_API connection the ones it lists (all when it lists none).
func (d *Definition) Carries(tx string) bool {
	return len(d.Transactions) == 0 || slices.Contains(d.Transactions, tx)
}

// Duration is a time.Duration written as Go text ("30s", "5m").
type Duration time.Duration

// UnmarshalText reads "30s".
func (d *Duration) UnmarshalText(b []byte) error {
	v, err := time.ParseDuration(string(b))
	if err != nil {
		return fmt.Errorf("%q is not a duration like 30s or 5m", b)
	}
	*d = Duration(v)
	return nil
}

// MarshalText writes "30s".
func (d Duration) MarshalText() ([]byte, error) { return []byte(time.Duration(d).String()), nil }

// Secret field names, as they appear in a definition (and in the
// associated data that binds a sealed value to its connection and field).
const (
	FieldPassword   = "password"
	FieldClientKey  = "clientKey"
	FieldPrivateKey = "privateKey"
	FieldAPIKey     = "apiKey"
)

// SecretFields lists the secret fields of d that are set, by name.
func (d *Definition) SecretFields() map[string]string {
	out := map[string]string{}
	for name, v := range map[string]string{FieldPassword: d.Password, FieldClientKey: d.ClientKey, FieldPrivateKey: d.PrivateKey, FieldAPIKey: d.APIKey} {
		if v != "" {
			out[name] = v
		}
	}
	return out
}

// SealContext is the associated data a secret of connection id is sealed
// with: a value sealed for one connection or field opens for no other.
func SealContext(id, field string) string { return "connection:" + id + ":" + field }

var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// Validate checks the fields the type needs, so a typo stops the start
// instead of failing the first exchange.
func (d *Definition) Validate() error {
	if !idPattern.MatchString(d.ID) {
		return fmt.Errorf("id %q: use 1–64 letters, digits, '.', '_' or '-'", d.ID)
	}
	if strings.EqualFold(d.ID, "mock") && d.Type != Mock {
		return errors.New(`id "mock" is reserved for the test-mode mock payers`)
	}
	switch d.Type {
	case CAQHCore:
		u, err := url.Parse(d.URL)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return fmt.Errorf("url %q: want the endpoint's https:// URL", d.URL)
		}
		if u.User != nil {
			return errors.New("url: put credentials in username and password, not in the URL")
		}
		switch strings.ToUpper(d.Envelope) {
		case "", "SOAP", "MIME":
		default:
			return fmt.Errorf("envelope %q: want SOAP or MIME", d.Envelope)
		}
		if d.SenderID == "" || d.ReceiverID == "" {
			return errors.New("senderId and receiverId are required (the CORE trading-partner ids agreed with the payer)")
		}
		if d.Username == "" && d.ClientCertificate == "" {
			return errors.New("set username and password, or clientCertificate and clientKey")
		}
		if d.Username != "" && d.Password == "" {
			return errors.New("username without password")
		}
		if (d.ClientCertificate == "") != (d.ClientKey == "") {
			return errors.New("clientCertificate and clientKey go together")
		}
	case SFTP:
		if d.Host == "" || d.Username == "" {
			return errors.New("host and username are required")
		}
		if d.Password == "" && d.PrivateKey == "" {
			return errors.New("set password or privateKey")
		}
		if d.HostKey == "" {
			return errors.New("hostKey is required: pin the server's public key (ssh-keyscan HOST) or its SHA256: fingerprint; an unknown host key is never trusted")
		}
		if d.Port < 0 || d.Port > 65535 {
			return fmt.Errorf("port %d is out of range", d.Port)
		}
		if a := d.AfterProcessing; a != "" && a != "delete" && !strings.HasPrefix(a, "move:") {
			return fmt.Errorf("afterProcessing %q: want delete or move:<directory>", a)
		}
	case ClearinghouseAPI:
		if err := d.validateUpstream(); err != nil {
			return err
		}
	case Directory:
		if d.Path == "" {
			return errors.New("path is required")
		}
	case SFTPServer, Mock:
	default:
		return fmt.Errorf("type %q: want one of %v", d.Type, knownTypes)
	}
	if d.Timeout < 0 || time.Duration(d.Timeout) > 5*time.Minute {
		return errors.New("timeout must be between 0 (default) and 5m")
	}
	return nil
}

// validateUpstream checks a CLEARINGHOUSE_API definition.
func (d *Definition) validateUpstream() error {
	for _, u := range []struct{ name, value string }{{"url", d.URL}, {"coreUrl", d.CoreURL}} {
		if u.value == "" && u.name == "coreUrl" {
			continue // only claims need it (answers come back from the core API)
		}
		p, err := url.Parse(u.value)
		if err != nil || (p.Scheme != "https" && p.Scheme != "http") || p.Host == "" {
			return fmt.Errorf("%s %q: want the upstream's https:// base URL", u.name, u.value)
		}
		if p.User != nil || p.RawQuery != "" {
			return fmt.Errorf("%s: no credentials or query in the URL; the key goes in apiKey", u.name)
		}
	}
	if d.APIKey == "" {
		return errors.New("apiKey is required (sealed: `clearhouse connections seal --id " + d.ID + " --field apiKey`)")
	}
	for _, tx := range d.Transactions {
		if !slices.Contains(knownTransactions, tx) {
			return fmt.Errorf("transactions: %q is not one of %v", tx, knownTransactions)
		}
	}
	if d.Carries(TxClaims) && d.CoreURL == "" {
		return errors.New("coreUrl is required for claims: the 999, 277CA and 835 come back through the upstream's core API")
	}
	if d.BreakerFailures < 0 || d.BreakerFailures > 100 {
		return errors.New("breakerFailures must be between 0 (default 3) and 100")
	}
	if d.BreakerOpenFor < 0 || time.Duration(d.BreakerOpenFor) > time.Hour {
		return errors.New("breakerOpenFor must be between 0 (default 30s) and 1h")
	}
	return nil
}

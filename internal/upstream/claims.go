package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/partners"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Claim submission paths under the healthcare API base, by the 837's
// implementation guide (GS08).
var claimPaths = []struct{ guide, path string }{
	{"005010X224", "/dental-claims/raw-x12-submission"},
	{"005010X222", "/change/medicalnetwork/professionalclaims/v3/raw-x12-submission"},
	{"005010X223", "/change/medicalnetwork/institutionalclaims/v1/raw-x12-submission"},
}

// ErrNotAClaim: the file is not an 837 this connection can submit.
var ErrNotAClaim = errors.New("the file is no 837 of a known guide (005010X222, X223 or X224)")

// SubmitClaim sends one 837 interchange of ours to the upstream's
// raw-x12-submission endpoint for its claim type, with idempotencyKey in
// the Idempotency-Key header: a retry after a lost answer is the same
// submission to the upstream, never a second claim. It returns what the
// upstream answered (its correlation id), for file.delivered.v2.
func (c *Client) SubmitClaim(ctx context.Context, x12 []byte, idempotencyKey string) (string, error) {
	path := ""
	for _, p := range claimPaths {
		if bytes.Contains(x12, []byte(p.guide)) {
			path = p.path
			break
		}
	}
	if path == "" {
		return "", &Error{Connection: c.ID, Op: "claim", Message: ErrNotAClaim.Error(), Err: ErrNotAClaim}
	}
	body, _ := json.Marshal(struct {
		X12 string `json:"x12"`
	}{string(x12)})
	status, answer, err := c.do(ctx, "claim", http.MethodPost, join(c.URL, path), body,
		http.Header{"Idempotency-Key": []string{idempotencyKey}})
	if err != nil {
		return "", err
	}
	if status < 200 || status > 299 {
		return "", c.statusError("claim", status, answer)
	}
	var out struct {
		Status         string `json:"status"`
		ClaimReference struct {
			CorrelationID string `json:"correlationId"`
		} `json:"claimReference"`
	}
	_ = json.Unmarshal(answer, &out)
	return fmt.Sprintf("File was accepted by upstream connection %s (%s, correlationId %q)", c.ID,
		strings.ToLower(out.Status), out.ClaimReference.CorrelationID), nil
}

// Delivery sends claim files through stored CLEARINGHOUSE_API connections
// (delivery.Transport): the connection's own settings and its account's
// sealed apiKey, dialled through the SSRF guard.
type Delivery struct {
	Box     *secrets.Box
	Guard   *netguard.Guard
	Timeout time.Duration // default DefaultTimeout; a connection's "timeout" wins
	// Store records each route's part in a file's submission
	// (upstream_submissions) and holds the account's other connections;
	// nil: the partnership's connection alone, nothing recorded.
	Store store.Store
	// ClaimRoutes are the payers' claims routes (the payer's
	// "connections": {"claims": [...]}); nil: none.
	ClaimRoutes ClaimRoutes
	// Observe is told each route's outcome (OutcomeAnswered, ...): metrics.
	Observe func(connection, outcome string)
	Logger  *slog.Logger
	Now     func() time.Time
}

// StoredSettings are a stored connection's settings, named as in the
// --payers file.
type StoredSettings struct {
	URL          string   `json:"url"`
	CoreURL      string   `json:"coreUrl"`
	Timeout      string   `json:"timeout"`
	Transactions []string `json:"transactions"`
}

// Deliver submits the file's 837 with the execution id as idempotency
// key, through the payer's claims routes (DeliverRouted).
func (d *Delivery) Deliver(ctx context.Context, f delivery.File) (string, error) {
	msg, _, err := d.DeliverRouted(ctx, f)
	return msg, err
}

// Client builds the upstream client of a stored connection.
func (d *Delivery) Client(f delivery.File) (*Client, error) {
	var s StoredSettings
	if err := json.Unmarshal(f.Connection.Settings, &s); err != nil {
		return nil, fmt.Errorf("connection %s: settings: %w", f.Connection.ID, err)
	}
	sec, err := partners.OpenSecrets(d.Box, f.Connection)
	if err != nil {
		return nil, fmt.Errorf("connection %s: %w", f.Connection.ID, err)
	}
	if sec["apiKey"] == "" {
		return nil, fmt.Errorf("connection %s has no apiKey", f.Connection.ID)
	}
	timeout := cmpDuration(s.Timeout, d.Timeout)
	if d.Guard == nil {
		return nil, errors.New("upstream: no SSRF guard")
	}
	return &Client{ID: f.Connection.ID, URL: s.URL, CoreURL: s.CoreURL, APIKey: sec["apiKey"],
		HTTP: d.Guard.Client(timeout), Timeout: timeout}, nil
}

// cmpDuration is the setting when it parses, else def, else DefaultTimeout.
func cmpDuration(setting string, def time.Duration) time.Duration {
	if v, err := time.ParseDuration(setting); err == nil && v > 0 && v <= 5*time.Minute {
		return v
	}
	if def > 0 {
		return def
	}
	return DefaultTimeout
}

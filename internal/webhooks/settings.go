package webhooks

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/store"
)

// EventTypes are the detail-types a webhook may ask for (spec §6).
var EventTypes = []string{"transaction.processed.v2", "fragment.processed.v2", "file.processed.v2",
	"file.delivered.v2", "file.failed.v2", "claim.status.changed.v2"}

// Authentication types of the outbound call (the hosted credential sets).
const (
	AuthNone   = "NONE"
	AuthAPIKey = "API_KEY"
	AuthBasic  = "BASIC"
)

// Input is a webhook's settings as a caller sends them: every field on
// create (URL required), only those to change on update.
type Input struct {
	URL            *string         `json:"url"`
	Description    *string         `json:"description"`
	EventTypes     *[]string       `json:"eventTypes"`
	Filters        *Filters        `json:"filters"`
	Status         *string         `json:"status"`
	Concurrency    *int            `json:"concurrency"`
	Authentication *Authentication `json:"authentication"`
}

// Filters is store.WebhookFilters as the API spells it.
type Filters = store.WebhookFilters

// Authentication is how the outbound call authenticates to the receiver
// (besides the signature): an API-key header, Basic, or none. Value and
// Password are write-only.
type Authentication struct {
	Type       string `json:"type"`
	HeaderName string `json:"headerName,omitempty"`
	Value      string `json:"value,omitempty"`
	Username   string `json:"username,omitempty"`
	Password   string `json:"password,omitempty"`
}

// FieldError names one invalid field by JSON Pointer.
type FieldError = problem.Field

// InvalidError lists what is wrong with an Input (problem.Invalid, which
// the API renders as 400 VALIDATION_ERROR).
type InvalidError = problem.Invalid

// invalid is the InvalidError of fields and more problems past them.
func invalid(fields []FieldError, more int) *InvalidError {
	return problem.NewInvalid("webhooks: invalid settings", fields, more)
}

// Limits of settings.
const (
	maxURLBytes         = 2048
	maxDescriptionBytes = 500
	maxCredentialBytes  = 4096
)

// Create adds a webhook for the caller and returns it with its signing
// secret, which only this answer and Secret reveal.
func (s *Service) Create(ctx context.Context, c Caller, in Input) (store.Webhook, string, error) {
	if !s.cfg.Secrets.Configured() {
		return store.Webhook{}, "", ErrNoSecretsKey
	}
	now := s.cfg.Clock.Now()
	w := store.Webhook{
		ID: store.NewID(), AccountID: c.AccountID, Mode: c.Mode, Status: store.WebhookEnabled,
		Concurrency: DefaultConcurrency, AuthType: AuthNone, EventTypes: []string{}, CreatedAt: now, UpdatedAt: now,
	}
	if in.URL == nil {
		return store.Webhook{}, "", invalid([]FieldError{{Path: "/url", Message: "is required: the https URL events are POSTed to"}}, 0)
	}
	if err := s.apply(&w, in); err != nil {
		return store.Webhook{}, "", err
	}
	secret := NewSecret()
	var err error
	if w.Secret, err = s.cfg.Secrets.SealString(secret, secretContext(w.ID)); err != nil {
		return store.Webhook{}, "", err
	}
	err = s.store.InTx(ctx, func(tx store.Queries) error {
		// Counted in the caller's mode: test keys are handed out freely,
		// and a test key's webhooks must not use up production's.
		existing, err := tx.ListWebhooks(ctx, c.AccountID, c.Mode)
		if err != nil {
			return err
		}
		if len(existing) >= MaxWebhooks {
			return invalid([]FieldError{{Path: "/", Message: fmt.Sprintf("an account has at most %d %s-mode webhooks; delete one first", MaxWebhooks, c.Mode)}}, 0)
		}
		return tx.CreateWebhook(ctx, w)
	})
	if err != nil {
		return store.Webhook{}, "", err
	}
	return w, secret, nil
}

// Get returns one of the caller's webhooks (store.ErrNotFound for one of
// another account or mode).
func (s *Service) Get(ctx context.Context, c Caller, id string) (store.Webhook, error) {
	return c.tenant(s.store).Webhook(ctx, id)
}

// List returns the caller's webhooks, oldest first.
func (s *Service) List(ctx context.Context, c Caller) ([]store.Webhook, error) {
	return c.tenant(s.store).Webhooks(ctx)
}

// Update changes the settings in, leaving the others. Enabling a webhook
// clears the reason it was disabled and its failure history.
func (s *Service) Update(ctx context.Context, c Caller, id string, in Input) (store.Webhook, error) {
	var w store.Webhook
	err := s.store.InTx(ctx, func(tx store.Queries) error {
		var err error
		if w, err = c.tenant(tx).WebhookForUpdate(ctx, id); err != nil {
			return err
		}
		wasEnabled := w.Status == store.WebhookEnabled
		if err := s.apply(&w, in); err != nil {
			return err
		}
		w.UpdatedAt = s.cfg.Clock.Now()
		if w.Status == store.WebhookEnabled && !wasEnabled {
			w.DisabledReason, w.FailingSince = "", time.Time{}
			if err := tx.SetWebhookFailingSince(ctx, w.ID, time.Time{}); err != nil {
				return err
			}
		}
		if w.Status == store.WebhookDisabled && wasEnabled {
			w.DisabledReason = "" // disabled by a user: no reason to report
		}
		return tx.UpdateWebhook(ctx, w)
	})
	return w, err
}

// Delete removes the webhook with its deliveries and attempt log.
func (s *Service) Delete(ctx context.Context, c Caller, id string) error {
	if _, err := s.Get(ctx, c, id); err != nil {
		return err
	}
	return s.store.DeleteWebhook(ctx, c.AccountID, id)
}

// Secret returns the webhook's current signing secret.
func (s *Service) Secret(ctx context.Context, c Caller, id string) (string, error) {
	w, err := s.Get(ctx, c, id)
	if err != nil {
		return "", err
	}
	return s.cfg.Secrets.OpenString(w.Secret, secretContext(w.ID))
}

// RotateSecret gives the webhook a new signing secret. The old one keeps
// signing beside it (a second v1 signature) until the returned time, so
// receivers can switch without losing a message.
func (s *Service) RotateSecret(ctx context.Context, c Caller, id string) (string, time.Time, error) {
	secret := NewSecret()
	var until time.Time
	err := s.store.InTx(ctx, func(tx store.Queries) error {
		w, err := c.tenant(tx).WebhookForUpdate(ctx, id)
		if err != nil {
			return err
		}
		old, err := s.cfg.Secrets.OpenString(w.Secret, secretContext(w.ID))
		if err != nil {
			return err
		}
		now := s.cfg.Clock.Now()
		until = now.Add(s.cfg.SecretGrace)
		if w.PreviousSecret, err = s.cfg.Secrets.SealString(old, previousSecretContext(w.ID)); err != nil {
			return err
		}
		if w.Secret, err = s.cfg.Secrets.SealString(secret, secretContext(w.ID)); err != nil {
			return err
		}
		w.PreviousSecretUntil, w.UpdatedAt = until, now
		return tx.UpdateWebhook(ctx, w)
	})
	return secret, until, err
}

// signingSecrets are the secrets that sign a message sent at now: the
// current one, and the previous one during its grace period.
func (s *Service) signingSecrets(w store.Webhook, now time.Time) ([]string, error) {
	cur, err := s.cfg.Secrets.OpenString(w.Secret, secretContext(w.ID))
	if err != nil {
		return nil, err
	}
	out := []string{cur}
	if w.PreviousSecret != "" && now.Before(w.PreviousSecretUntil) {
		prev, err := s.cfg.Secrets.OpenString(w.PreviousSecret, previousSecretContext(w.ID))
		if err != nil {
			return nil, err
		}
		out = append(out, prev)
	}
	return out, nil
}

// Sealed values are bound to their webhook and column.
func secretContext(id string) string         { return "webhook:" + id + ":secret" }
func previousSecretContext(id string) string { return "webhook:" + id + ":previous-secret" }
func authContext(id string) string           { return "webhook:" + id + ":auth" }

// AuthOf describes the webhook's outbound authentication without its
// secret parts (value, password).
func AuthOf(w store.Webhook, box interface {
	OpenString(string, string) (string, error)
}) Authentication {
	a := Authentication{Type: w.AuthType}
	if w.Auth == "" || box == nil {
		return a
	}
	var full Authentication
	if raw, err := box.OpenString(w.Auth, authContext(w.ID)); err == nil && json.Unmarshal([]byte(raw), &full) == nil {
		a.HeaderName, a.Username = full.HeaderName, full.Username
	}
	return a
}

// Authentication returns the webhook's outbound authentication without
// its secret parts.
func (s *Service) Authentication(w store.Webhook) Authentication {
	if !s.cfg.Secrets.Configured() {
		return Authentication{Type: w.AuthType}
	}
	return AuthOf(w, s.cfg.Secrets)
}

// apply validates in and copies it onto w.
func (s *Service) apply(w *store.Webhook, in Input) error {
	var fields findings.List[FieldError]
	bad := func(path, msg string) { fields.Add(FieldError{Path: path, Message: findings.Clip(msg)}) }
	if in.URL != nil {
		if msg := s.checkURL(*in.URL, w.Mode); msg != "" {
			bad("/url", msg)
		}
		w.URL = *in.URL
	}
	if in.Description != nil {
		if len(*in.Description) > maxDescriptionBytes || !utf8.ValidString(*in.Description) {
			bad("/description", fmt.Sprintf("must be text of at most %d bytes", maxDescriptionBytes))
		}
		w.Description = *in.Description
	}
	if in.EventTypes != nil {
		types := []string{}
		for i, t := range *in.EventTypes {
			if !slices.Contains(EventTypes, t) && fields.Full() {
				fields.More++ // counted, no message built
			} else if !slices.Contains(EventTypes, t) {
				bad(fmt.Sprintf("/eventTypes/%d", i), fmt.Sprintf("unknown event type %q; use one of %s (or an empty list for all)", t, strings.Join(EventTypes, ", ")))
			} else if !slices.Contains(types, t) {
				types = append(types, t)
			}
		}
		w.EventTypes = types
	}
	if in.Filters != nil {
		f := *in.Filters
		if f.Direction != "" && f.Direction != "INBOUND" && f.Direction != "OUTBOUND" {
			bad("/filters/direction", fmt.Sprintf("must be INBOUND or OUTBOUND (or empty for both), not %q", f.Direction))
		}
		if f.TransactionSetIdentifier != "" && !isDigits(f.TransactionSetIdentifier, 3) {
			bad("/filters/transactionSetIdentifier", fmt.Sprintf("must be a 3-digit X12 transaction set such as 835 or 277, not %q", f.TransactionSetIdentifier))
		}
		if len(f.PartnershipID) > 200 {
			bad("/filters/partnershipId", "must be at most 200 characters")
		}
		w.Filters = f
	}
	if in.Status != nil {
		switch *in.Status {
		case store.WebhookEnabled, store.WebhookDisabled:
			w.Status = *in.Status
		default:
			bad("/status", fmt.Sprintf("must be ENABLED or DISABLED, not %q", *in.Status))
		}
	}
	if in.Concurrency != nil {
		if *in.Concurrency < 1 || *in.Concurrency > MaxConcurrency {
			bad("/concurrency", fmt.Sprintf("must be from 1 to %d (attempts in flight at once to this URL)", MaxConcurrency))
		}
		w.Concurrency = *in.Concurrency
	}
	if in.Authentication != nil {
		if err := s.applyAuth(w, *in.Authentication, bad); err != nil {
			return err
		}
	}
	if fields.Len() > 0 {
		return invalid(fields.Items, fields.More)
	}
	return nil
}

func (s *Service) applyAuth(w *store.Webhook, a Authentication, bad func(path, msg string)) error {
	switch a.Type {
	case AuthNone, "":
		w.AuthType, w.Auth = AuthNone, ""
		return nil
	case AuthAPIKey:
		if !validHeaderName(a.HeaderName) {
			bad("/authentication/headerName", "must be an HTTP header name such as x-api-key")
		}
		if a.Value == "" || len(a.Value) > maxCredentialBytes || strings.ContainsAny(a.Value, "\r\n") {
			bad("/authentication/value", "is required: the API key sent in that header (one line)")
		}
		a.Username, a.Password = "", ""
	case AuthBasic:
		if a.Username == "" || strings.Contains(a.Username, ":") || len(a.Username) > 256 {
			bad("/authentication/username", "is required and must not contain ':'")
		}
		if a.Password == "" || len(a.Password) > maxCredentialBytes {
			bad("/authentication/password", "is required")
		}
		a.HeaderName, a.Value = "", ""
	default:
		bad("/authentication/type", fmt.Sprintf("must be NONE, API_KEY or BASIC, not %q", a.Type))
		return nil
	}
	if !s.cfg.Secrets.Configured() {
		return ErrNoSecretsKey
	}
	raw, _ := json.Marshal(a)
	sealed, err := s.cfg.Secrets.Seal(raw, authContext(w.ID))
	if err != nil {
		return err
	}
	w.AuthType, w.Auth = a.Type, sealed
	return nil
}

// checkURL says what is wrong with a webhook URL ("" when nothing is).
func (s *Service) checkURL(raw, mode string) string {
	if len(raw) > maxURLBytes {
		return fmt.Sprintf("must be at most %d bytes", maxURLBytes)
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" || u.Opaque != "" {
		return "must be an absolute URL such as https://example.com/webhooks"
	}
	switch {
	case u.Scheme != "https" && u.Scheme != "http":
		return "must start with https:// (or http:// for a test key)"
	case u.Scheme == "http" && mode == store.ModeProduction:
		return "must use https with a production key; events leave the building"
	case u.User != nil:
		return "must not carry a user name or password; use authentication instead"
	case u.Fragment != "":
		return "must not have a #fragment"
	}
	host := u.Hostname()
	if addr, err := netip.ParseAddr(host); err == nil && !s.cfg.Guard.AllowsPrivate() {
		if addr.IsLoopback() || addr.IsPrivate() || addr.IsLinkLocalUnicast() || addr.IsUnspecified() {
			return fmt.Sprintf("points to %s, a private address this server will not call (start it with --webhooks-allow-private for local development)", host)
		}
	}
	if strings.EqualFold(host, "localhost") && !s.cfg.Guard.AllowsPrivate() {
		return "points to localhost, which this server will not call (start it with --webhooks-allow-private for local development)"
	}
	if _, _, err := net.SplitHostPort(u.Host); err != nil && strings.Count(u.Host, ":") == 1 {
		return "has a malformed port"
	}
	return ""
}

func isDigits(s string, n int) bool {
	if len(s) != n {
		return false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return true
}

func validHeaderName(h string) bool {
	if h == "" || len(h) > 100 {
		return false
	}
	for _, r := range h {
		if !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return false
		}
	}
	switch strings.ToLower(h) {
	case "content-type", "content-length", "host", "webhook-id", "webhook-timestamp", "webhook-signature":
		return false
	}
	return true
}

package webhooks

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// SecretPrefix starts every signing secret (Standard Webhooks).
const SecretPrefix = "whsec_"

// secretBytes is the size of a new secret's key (the spec allows 24–64).
const secretBytes = 32

// NewSecret returns a fresh signing secret: whsec_ and base64 of 32 random
// bytes.
func NewSecret() string {
	b := make([]byte, secretBytes)
	if _, err := rand.Read(b); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return SecretPrefix + base64.StdEncoding.EncodeToString(b)
}

// secretKey decodes a whsec_ secret to its HMAC key.
func secretKey(secret string) ([]byte, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, SecretPrefix))
	if err != nil || len(key) == 0 {
		return nil, errors.New("webhooks: a signing secret is whsec_ followed by base64")
	}
	return key, nil
}

// Sign returns the webhook-signature value for one message: "v1,<base64
// HMAC-SHA256 of id.timestamp.body>" for each secret, space-separated (two
// while a rotated-out secret is still in its grace period).
func Sign(id string, ts time.Time, body []byte, secrets ...string) (string, error) {
	var b strings.Builder
	for _, secret := range secrets {
		key, err := secretKey(secret)
		if err != nil {
			return "", err
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("v1,")
		b.WriteString(base64.StdEncoding.EncodeToString(mac(key, id, ts, body)))
	}
	return b.String(), nil
}

func mac(key []byte, id string, ts time.Time, body []byte) []byte {
	h := hmac.New(sha256.New, key)
	h.Write([]byte(id))
	h.Write([]byte{'.'})
	h.Write(strconv.AppendInt(nil, ts.Unix(), 10))
	h.Write([]byte{'.'})
	h.Write(body)
	return h.Sum(nil)
}

// Tolerance is how far a message's timestamp may be from now for Verify.
const Tolerance = 5 * time.Minute

// Errors of Verify.
var (
	ErrMissingHeaders = errors.New("webhooks: webhook-id, webhook-timestamp and webhook-signature are required")
	ErrStale          = errors.New("webhooks: webhook-timestamp is more than 5 minutes away from now (replayed, or clocks apart)")
	ErrBadSignature   = errors.New("webhooks: no signature in webhook-signature matches the secret")
)

// Verify checks a received message's signature headers against secret, as
// a receiver does: the timestamp within Tolerance of now, and one of the
// v1 signatures matching.
func Verify(secret string, h http.Header, body []byte, now time.Time) error {
	key, err := secretKey(secret)
	if err != nil {
		return err
	}
	id, tsText, sigs := h.Get("webhook-id"), h.Get("webhook-timestamp"), h.Get("webhook-signature")
	if id == "" || tsText == "" || sigs == "" {
		return ErrMissingHeaders
	}
	unix, err := strconv.ParseInt(tsText, 10, 64)
	if err != nil {
		return fmt.Errorf("webhooks: webhook-timestamp %q is not unix seconds", tsText)
	}
	ts := time.Unix(unix, 0)
	if d := now.Sub(ts); d > Tolerance || d < -Tolerance {
		return ErrStale
	}
	want := mac(key, id, ts, body)
	for _, sig := range strings.Fields(sigs) {
		version, value, ok := strings.Cut(sig, ",")
		if !ok || version != "v1" {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(value)
		if err == nil && hmac.Equal(got, want) {
			return nil
		}
	}
	return ErrBadSignature
}

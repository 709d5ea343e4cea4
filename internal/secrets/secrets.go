// Package secrets encrypts the secrets Clearhouse must keep to act for its
// users — webhook signing secrets and outbound credentials, payer and SFTP
// passwords and private keys — so that a copy of the database alone reveals
// none of them.
//
// A Box seals with AES-256-GCM under one 32-byte key that lives outside the
// database (serve --secrets-key / CLEARHOUSE_SECRETS_KEY). Each sealed value
// is bound to the record it belongs to by associated data (for example
// "webhook:wh_123:secret"), so a ciphertext copied onto another row does not
// open. Sealed values are text: "v1:" followed by base64 of nonce‖ciphertext.
package secrets

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the length of a key in bytes.
const KeySize = 32

const prefix = "v1:"

var (
	// ErrNoKey: a secret must be sealed or opened but no key was configured.
	ErrNoKey = errors.New("secrets: no secrets key configured (set --secrets-key or CLEARHOUSE_SECRETS_KEY)")
	// ErrOpen: the value was not sealed by this key for this record.
	ErrOpen = errors.New("secrets: cannot decrypt (wrong secrets key, or the value was moved or altered)")
)

// Box seals and opens secrets. The zero Box (or nil) has no key: Seal and
// Open fail with ErrNoKey, so a server without a key refuses to store
// secrets instead of storing them in the clear.
type Box struct {
	aead cipher.AEAD
	id   string
}

// ParseKey reads a key written as 64 hex digits or as standard or URL-safe
// base64 of 32 bytes (`openssl rand -base64 32`).
func ParseKey(s string) ([]byte, error) {
	s = strings.TrimSpace(s)
	if len(s) == 2*KeySize {
		if k, err := hex.DecodeString(s); err == nil {
			return k, nil
		}
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding, base64.RawStdEncoding, base64.RawURLEncoding} {
		if k, err := enc.DecodeString(s); err == nil && len(k) == KeySize {
			return k, nil
		}
	}
	return nil, fmt.Errorf("secrets: a key is 32 random bytes as 64 hex digits or base64 (make one with: openssl rand -base64 32)")
}

// NewKey returns a fresh random key in base64.
func NewKey() string {
	k := make([]byte, KeySize)
	if _, err := rand.Read(k); err != nil {
		panic(err) // crypto/rand never fails on supported platforms
	}
	return base64.StdEncoding.EncodeToString(k)
}

// New returns a Box for key (32 bytes).
func New(key []byte) (*Box, error) {
	if len(key) != KeySize {
		return nil, fmt.Errorf("secrets: key is %d bytes, want %d", len(key), KeySize)
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(append([]byte("clearhouse secrets key id\x00"), key...))
	return &Box{aead: aead, id: hex.EncodeToString(sum[:4])}, nil
}

// Configured reports whether b can seal and open.
func (b *Box) Configured() bool { return b != nil && b.aead != nil }

// KeyID is a short fingerprint of the key (safe to log), so operators can
// tell which key a process runs with.
func (b *Box) KeyID() string {
	if !b.Configured() {
		return ""
	}
	return b.id
}

// Seal encrypts plaintext for the record named by context.
func (b *Box) Seal(plaintext []byte, context string) (string, error) {
	if !b.Configured() {
		return "", ErrNoKey
	}
	nonce := make([]byte, b.aead.NonceSize(), b.aead.NonceSize()+len(plaintext)+b.aead.Overhead())
	if _, err := rand.Read(nonce); err != nil {
		return "", err
	}
	out := b.aead.Seal(nonce, nonce, plaintext, []byte(context))
	return prefix + base64.StdEncoding.EncodeToString(out), nil
}

// SealString is Seal for text.
func (b *Box) SealString(plaintext, context string) (string, error) {
	return b.Seal([]byte(plaintext), context)
}

// Open decrypts a value sealed for the same context.
func (b *Box) Open(sealed, context string) ([]byte, error) {
	if !b.Configured() {
		return nil, ErrNoKey
	}
	if !strings.HasPrefix(sealed, prefix) {
		return nil, ErrOpen
	}
	raw, err := base64.StdEncoding.DecodeString(sealed[len(prefix):])
	if err != nil || len(raw) < b.aead.NonceSize()+b.aead.Overhead() {
		return nil, ErrOpen
	}
	n := b.aead.NonceSize()
	pt, err := b.aead.Open(nil, raw[:n], raw[n:], []byte(context))
	if err != nil {
		return nil, ErrOpen
	}
	return pt, nil
}

// OpenString is Open for text.
func (b *Box) OpenString(sealed, context string) (string, error) {
	pt, err := b.Open(sealed, context)
	return string(pt), err
}

// IsSealed reports whether s looks like a sealed value (for checks that a
// column never holds plaintext).
func IsSealed(s string) bool { return strings.HasPrefix(s, prefix) }

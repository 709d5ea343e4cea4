// Package auth issues API keys and turns an Authorization header into the
// Principal a request acts for.
//
// A key looks like test_<id>_<secret> or live_<id>_<secret>: the mode is
// visible in the prefix (Stedi's SDKs check that test keys start with
// "test_"), the id is public and names the key record, and the secret is 256
// random bits. Only the SHA-256 of the whole key is stored; a fast hash is
// enough because the key is random, and it keeps the lookup indexed.
package auth

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Modes, the same strings as the store's.
const (
	ModeTest       = store.ModeTest
	ModeProduction = store.ModeProduction
)

// Key prefixes by mode.
const (
	TestPrefix = "test_"
	LivePrefix = "live_"
)

const (
	idBytes     = 10 // 16 base32 characters
	secretBytes = 32 // 256 bits, 52 base32 characters
)

var b32 = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

var (
	idLen     = b32.EncodedLen(idBytes)
	secretLen = b32.EncodedLen(secretBytes)
)

// Authentication failures. Each becomes a 401 at the API.
var (
	ErrMissingKey   = errors.New("auth: missing API key")
	ErrMalformedKey = errors.New("auth: malformed API key")
	ErrUnknownKey   = errors.New("auth: unknown API key")
	ErrRevokedKey   = errors.New("auth: API key revoked")
)

// GeneratedKey is a new key: the plaintext to hand to the user once, and
// its public id and hash to store.
type GeneratedKey struct {
	Plaintext string
	ID        string
	Hash      string
}

// GenerateKey makes a new random key of the given mode.
func GenerateKey(mode string) (GeneratedKey, error) {
	prefix, err := prefixOf(mode)
	if err != nil {
		return GeneratedKey{}, err
	}
	buf := make([]byte, idBytes+secretBytes)
	if _, err := rand.Read(buf); err != nil {
		return GeneratedKey{}, fmt.Errorf("auth: no randomness: %w", err)
	}
	id := b32.EncodeToString(buf[:idBytes])
	plaintext := prefix + id + "_" + b32.EncodeToString(buf[idBytes:])
	return GeneratedKey{Plaintext: plaintext, ID: id, Hash: HashKey(plaintext)}, nil
}

func prefixOf(mode string) (string, error) {
	switch mode {
	case ModeTest:
		return TestPrefix, nil
	case ModeProduction:
		return LivePrefix, nil
	}
	return "", fmt.Errorf("auth: mode must be %q or %q, not %q", ModeTest, ModeProduction, mode)
}

// ParseKey checks a key's shape and returns its public id and mode.
func ParseKey(key string) (id, mode string, err error) {
	var rest string
	switch {
	case strings.HasPrefix(key, TestPrefix):
		mode, rest = ModeTest, key[len(TestPrefix):]
	case strings.HasPrefix(key, LivePrefix):
		mode, rest = ModeProduction, key[len(LivePrefix):]
	default:
		return "", "", ErrMalformedKey
	}
	id, secret, ok := strings.Cut(rest, "_")
	if !ok || len(id) != idLen || len(secret) != secretLen || !isBase32(id) || !isBase32(secret) {
		return "", "", ErrMalformedKey
	}
	return id, mode, nil
}

func isBase32(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 'a' || c > 'z') && (c < '2' || c > '7') {
			return false
		}
	}
	return true
}

// HashKey returns the hex SHA-256 of the whole key, as stored.
func HashKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// KeyFromHeader extracts the key from an Authorization header value, which
// is either "Key <key>" or the bare key.
func KeyFromHeader(h string) (string, error) {
	h = strings.TrimSpace(h)
	if h == "" || strings.EqualFold(h, "Key") {
		return "", ErrMissingKey
	}
	if scheme, rest, ok := strings.Cut(h, " "); ok {
		if !strings.EqualFold(scheme, "Key") {
			return "", ErrMalformedKey
		}
		h = strings.TrimSpace(rest)
	}
	if h == "" {
		return "", ErrMissingKey
	}
	return h, nil
}

package web

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
)

// A session lives in an HMAC-signed cookie: "v1.<keyID>.<nonce>.<expiry>"
// plus the signature. It names the API key by its public id, never the key
// itself, so the server re-reads the key record on every request and a
// revoked key ends its sessions at once. The nonce identifies the session:
// the CSRF token is derived from it, and signing out remembers it until
// the cookie would have expired anyway. A visitor who has not signed in
// gets a session with no key id, so that the sign-in form has a CSRF token
// too.

// sessionCookie is the cookie's name.
const sessionCookie = "clearhouse_session"

// anonymousTTL bounds the pre-sign-in session (the sign-in form's token).
const anonymousTTL = time.Hour

var (
	errNoSession      = errors.New("no session")
	errBadSession     = errors.New("session cookie is not valid")
	errExpiredSession = errors.New("session expired")
	errSignedOut      = errors.New("session was signed out")
)

// session is a verified cookie.
type session struct {
	KeyID   string // "" before sign-in
	Nonce   string
	Expires time.Time
}

// sessions signs and verifies session cookies and remembers sign-outs.
type sessions struct {
	key   []byte
	clock clock.Clock

	mu        sync.Mutex
	signedOut map[string]time.Time // nonce → cookie expiry
}

func newSessions(secret []byte, c clock.Clock) *sessions {
	return &sessions{key: deriveKey(secret, "session"), clock: c, signedOut: map[string]time.Time{}}
}

// deriveKey gives each use of the secret its own key.
func deriveKey(secret []byte, purpose string) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte("clearhouse console " + purpose))
	return m.Sum(nil)
}

// start makes a new session for keyID ("" for a visitor) lasting ttl.
func (s *sessions) start(keyID string, ttl time.Duration) session {
	nonce := make([]byte, 16)
	if _, err := rand.Read(nonce); err != nil {
		panic("web: no randomness: " + err.Error()) // crypto/rand never fails on Linux
	}
	return session{KeyID: keyID, Nonce: hex.EncodeToString(nonce), Expires: s.clock.Now().Add(ttl).Truncate(time.Second)}
}

// encode returns the cookie value of sess.
func (s *sessions) encode(sess session) string {
	payload := "v1." + sess.KeyID + "." + sess.Nonce + "." + strconv.FormatInt(sess.Expires.Unix(), 10)
	return payload + "." + s.sign(payload)
}

func (s *sessions) sign(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// decode verifies a cookie value: signature, expiry, not signed out.
func (s *sessions) decode(value string) (session, error) {
	i := strings.LastIndexByte(value, '.')
	if i < 0 {
		return session{}, errBadSession
	}
	payload, sig := value[:i], value[i+1:]
	if !hmac.Equal([]byte(sig), []byte(s.sign(payload))) {
		return session{}, errBadSession
	}
	parts := strings.Split(payload, ".")
	if len(parts) != 4 || parts[0] != "v1" || len(parts[2]) != 32 {
		return session{}, errBadSession
	}
	exp, err := strconv.ParseInt(parts[3], 10, 64)
	if err != nil {
		return session{}, errBadSession
	}
	sess := session{KeyID: parts[1], Nonce: parts[2], Expires: time.Unix(exp, 0).UTC()}
	if !s.clock.Now().Before(sess.Expires) {
		return session{}, errExpiredSession
	}
	s.mu.Lock()
	_, out := s.signedOut[sess.Nonce]
	s.mu.Unlock()
	if out {
		return session{}, errSignedOut
	}
	return sess, nil
}

// end remembers that sess was signed out, so a copy of its cookie no
// longer works. The memory is this process's: another replica honours the
// copy until it expires (SessionTTL), unless its key is revoked.
func (s *sessions) end(sess session) {
	now := s.clock.Now()
	s.mu.Lock()
	defer s.mu.Unlock()
	for nonce, exp := range s.signedOut {
		if !now.Before(exp) {
			delete(s.signedOut, nonce)
		}
	}
	s.signedOut[sess.Nonce] = sess.Expires
}

// csrfToken is the synchronizer token of sess: only the server can compute
// it, and it changes with every session.
func (s *sessions) csrfToken(sess session) string {
	return s.sign("csrf." + sess.Nonce)
}

// validCSRF reports whether token is sess's CSRF token.
func (s *sessions) validCSRF(sess session, token string) bool {
	return token != "" && hmac.Equal([]byte(token), []byte(s.csrfToken(sess)))
}

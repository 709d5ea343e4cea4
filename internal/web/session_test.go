package web

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
)

func TestSessionCookieTampering(t *testing.T) {
	secret := []byte(strings.Repeat("k", 32))
	fake := clock.NewFake(time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC))
	s := newSessions(secret, fake)
	sess := s.start("abcdefghijklmnop", time.Hour)
	good := s.encode(sess)
	if got, err := s.decode(good); err != nil || got != sess {
		t.Fatalf("decode(encode(sess)) = %+v, %v", got, err)
	}
	parts := strings.Split(good, ".")
	for _, tc := range []struct {
		name, value string
		want        error
	}{
		{"other key id", strings.Replace(good, "abcdefghijklmnop", "bbcdefghijklmnop", 1), errBadSession},
		{"later expiry", strings.Join(append(parts[:3:3], "9999999999", parts[4]), "."), errBadSession},
		{"no signature", strings.Join(parts[:4], "."), errBadSession},
		{"empty", "", errBadSession},
		{"signed by another secret", newSessions([]byte(strings.Repeat("x", 32)), fake).encode(sess), errBadSession},
	} {
		if _, err := s.decode(tc.value); err != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.want)
		}
	}
	fake.Advance(time.Hour)
	if _, err := s.decode(good); err != errExpiredSession {
		t.Errorf("at expiry: %v, want errExpiredSession", err)
	}
}

func TestCSRFTokenIsPerSession(t *testing.T) {
	s := newSessions([]byte(strings.Repeat("k", 32)), clock.System{})
	a, b := s.start("abcdefghijklmnop", time.Hour), s.start("abcdefghijklmnop", time.Hour)
	if s.csrfToken(a) == s.csrfToken(b) {
		t.Fatal("two sessions of the same key share a CSRF token")
	}
	if !s.validCSRF(a, s.csrfToken(a)) || s.validCSRF(a, s.csrfToken(b)) || s.validCSRF(a, "") {
		t.Error("validCSRF accepts the wrong token")
	}
}

func TestLoadOrCreateSecret(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data", SecretFile)
	first, err := LoadOrCreateSecret(path)
	if err != nil || len(first) != 32 {
		t.Fatalf("create: %d bytes, %v", len(first), err)
	}
	fi, _ := os.Stat(path)
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("secret file mode %v, want 0600", fi.Mode().Perm())
	}
	again, err := LoadOrCreateSecret(path)
	if err != nil || string(again) != string(first) {
		t.Errorf("second start reads a different secret (%v)", err)
	}
	os.WriteFile(path, []byte("short\n"), 0o600)
	if _, err := LoadOrCreateSecret(path); err == nil {
		t.Error("a short secret is accepted")
	}
}

// The vendored htmx is the file VENDOR.md names.
func TestVendoredHTMXMatchesVendorRecord(t *testing.T) {
	js, err := staticFiles.ReadFile("static/htmx.min.js")
	if err != nil {
		t.Fatal(err)
	}
	md, _ := staticFiles.ReadFile("static/VENDOR.md")
	m := regexp.MustCompile("\\| htmx\\.min\\.js \\|.*\\| (2\\.0\\.\\d+) \\|.*\\| `([0-9a-f]{64})` \\|").FindSubmatch(md)
	if m == nil {
		t.Fatal("VENDOR.md has no htmx.min.js row with a version and sha256")
	}
	sum := sha256.Sum256(js)
	if hex.EncodeToString(sum[:]) != string(m[2]) {
		t.Errorf("htmx.min.js sha256 %x, VENDOR.md says %s", sum, m[2])
	}
	if !strings.Contains(string(js), `version:"`+string(m[1])+`"`) {
		t.Errorf("htmx.min.js does not report version %s", m[1])
	}
}

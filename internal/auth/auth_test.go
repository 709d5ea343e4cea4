package auth_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

func TestGenerateKeyShape(t *testing.T) {
	for _, tc := range []struct{ mode, prefix string }{{auth.ModeTest, "test_"}, {auth.ModeProduction, "live_"}} {
		k, err := auth.GenerateKey(tc.mode)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(k.Plaintext, tc.prefix) {
			t.Errorf("%s key %q lacks prefix %q", tc.mode, k.Plaintext, tc.prefix)
		}
		id, mode, err := auth.ParseKey(k.Plaintext)
		if err != nil || id != k.ID || mode != tc.mode {
			t.Errorf("ParseKey(%q) = %q, %q, %v", k.Plaintext, id, mode, err)
		}
		if strings.Contains(k.Hash, k.Plaintext) || len(k.Hash) != 64 {
			t.Errorf("hash %q is not a hex SHA-256", k.Hash)
		}
		other, _ := auth.GenerateKey(tc.mode)
		if other.Plaintext == k.Plaintext || other.ID == k.ID {
			t.Error("two keys are equal")
		}
	}
	if _, err := auth.GenerateKey("staging"); err == nil {
		t.Error("GenerateKey accepted mode staging")
	}
}

func TestParseKeyRejects(t *testing.T) {
	good, _ := auth.GenerateKey(auth.ModeTest)
	for _, bad := range []string{
		"", "test_", "sk_test_abc", good.Plaintext[:len(good.Plaintext)-1], good.Plaintext + "a",
		strings.Replace(good.Plaintext, "_", "-", 2), strings.ToUpper(good.Plaintext),
		"live_" + strings.TrimPrefix(good.Plaintext, "test_") + "!",
	} {
		if _, _, err := auth.ParseKey(bad); !errors.Is(err, auth.ErrMalformedKey) {
			t.Errorf("ParseKey(%q) error = %v, want ErrMalformedKey", bad, err)
		}
	}
}

func TestKeyFromHeader(t *testing.T) {
	tests := []struct {
		header, want string
		err          error
	}{
		{"Key abc", "abc", nil},
		{"key  abc ", "abc", nil},
		{"abc", "abc", nil},
		{"", "", auth.ErrMissingKey},
		{"Key ", "", auth.ErrMissingKey},
		{"Bearer abc", "", auth.ErrMalformedKey},
	}
	for _, tc := range tests {
		got, err := auth.KeyFromHeader(tc.header)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("KeyFromHeader(%q) = %q, %v; want %q, %v", tc.header, got, err, tc.want, tc.err)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	ctx := context.Background()
	s := storetest.SQLite(t)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	testKey, testRec, err := auth.CreateKey(ctx, s, "Acme Dental", auth.ModeTest, "ci", now)
	if err != nil {
		t.Fatal(err)
	}
	liveKey, liveRec, err := auth.CreateKey(ctx, s, "Acme Dental", auth.ModeProduction, "", now)
	if err != nil {
		t.Fatal(err)
	}
	if liveRec.AccountID != testRec.AccountID {
		t.Error("second key for the same account name created a second account")
	}
	otherKey, otherRec, err := auth.CreateKey(ctx, s, "Beta Clinic", auth.ModeTest, "", now)
	if err != nil {
		t.Fatal(err)
	}
	if otherRec.AccountID == testRec.AccountID {
		t.Error("two account names share an account")
	}
	stored, _ := s.GetAPIKey(ctx, testRec.ID)
	if stored.Hash == testKey || strings.Contains(stored.Hash, testKey[5:]) {
		t.Error("the store holds the key itself")
	}
	a := auth.Authenticator{Keys: s}

	forged, _ := auth.GenerateKey(auth.ModeTest)
	sameIDWrongSecret := testKey[:len(testKey)-4] + "aaaa"
	if sameIDWrongSecret == testKey {
		sameIDWrongSecret = testKey[:len(testKey)-4] + "bbbb"
	}
	wrongMode := "live_" + strings.TrimPrefix(testKey, "test_")

	tests := []struct {
		header string
		want   auth.Principal
		err    error
	}{
		{"Key " + testKey, auth.Principal{AccountID: testRec.AccountID, KeyID: testRec.ID, Mode: auth.ModeTest}, nil},
		{testKey, auth.Principal{AccountID: testRec.AccountID, KeyID: testRec.ID, Mode: auth.ModeTest}, nil},
		{liveKey, auth.Principal{AccountID: liveRec.AccountID, KeyID: liveRec.ID, Mode: auth.ModeProduction}, nil},
		{otherKey, auth.Principal{AccountID: otherRec.AccountID, KeyID: otherRec.ID, Mode: auth.ModeTest}, nil},
		{"", auth.Principal{}, auth.ErrMissingKey},
		{"Key nonsense", auth.Principal{}, auth.ErrMalformedKey},
		{forged.Plaintext, auth.Principal{}, auth.ErrUnknownKey},
		{sameIDWrongSecret, auth.Principal{}, auth.ErrUnknownKey},
		{wrongMode, auth.Principal{}, auth.ErrUnknownKey},
	}
	for _, tc := range tests {
		got, err := a.Authenticate(ctx, tc.header)
		if got != tc.want || !errors.Is(err, tc.err) {
			t.Errorf("Authenticate(%.12q…) = %+v, %v; want %+v, %v", tc.header, got, err, tc.want, tc.err)
		}
	}

	if err := s.RevokeAPIKey(ctx, testRec.ID, now); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Authenticate(ctx, testKey); !errors.Is(err, auth.ErrRevokedKey) {
		t.Errorf("revoked key: %v, want ErrRevokedKey", err)
	}
	if _, err := a.Authenticate(ctx, liveKey); err != nil {
		t.Errorf("revoking one key broke another: %v", err)
	}
}

func TestCreateKeyRejects(t *testing.T) {
	s := storetest.SQLite(t)
	if _, _, err := auth.CreateKey(context.Background(), s, "", auth.ModeTest, "", time.Now()); err == nil {
		t.Error("empty account name accepted")
	}
	if _, _, err := auth.CreateKey(context.Background(), s, "x", "prod", "", time.Now()); err == nil {
		t.Error("bad mode accepted")
	}
	if accts, _ := s.ListAccounts(context.Background()); len(accts) != 0 {
		t.Errorf("failed creation left accounts %+v", accts)
	}
}

package secrets_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/secrets"
)

func box(t *testing.T) *secrets.Box {
	t.Helper()
	key, err := secrets.ParseKey(secrets.NewKey())
	if err != nil {
		t.Fatal(err)
	}
	b, err := secrets.New(key)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSealOpen(t *testing.T) {
	b := box(t)
	sealed, err := b.SealString("whsec_abc", "webhook:wh_1:secret")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(sealed, "whsec_abc") || !secrets.IsSealed(sealed) {
		t.Fatalf("sealed value %q", sealed)
	}
	again, _ := b.SealString("whsec_abc", "webhook:wh_1:secret")
	if again == sealed {
		t.Fatal("two seals of one value are equal: nonce reused")
	}
	got, err := b.OpenString(sealed, "webhook:wh_1:secret")
	if err != nil || got != "whsec_abc" {
		t.Fatalf("Open = %q, %v", got, err)
	}
	if _, err := b.OpenString(sealed, "webhook:wh_2:secret"); !errors.Is(err, secrets.ErrOpen) {
		t.Fatalf("opened under another record's context: %v", err)
	}
	if _, err := box(t).OpenString(sealed, "webhook:wh_1:secret"); !errors.Is(err, secrets.ErrOpen) {
		t.Fatalf("opened with another key: %v", err)
	}
	tampered := sealed[:len(sealed)-2] + "AA"
	if _, err := b.OpenString(tampered, "webhook:wh_1:secret"); !errors.Is(err, secrets.ErrOpen) {
		t.Fatalf("opened a tampered value: %v", err)
	}
}

func TestNoKey(t *testing.T) {
	var b *secrets.Box
	if _, err := b.SealString("x", "c"); !errors.Is(err, secrets.ErrNoKey) {
		t.Fatalf("nil box sealed: %v", err)
	}
	if b.Configured() || b.KeyID() != "" {
		t.Fatal("nil box claims a key")
	}
}

func TestParseKey(t *testing.T) {
	for _, s := range []string{
		"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f",
		"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8=",
		"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8",
	} {
		k, err := secrets.ParseKey(s)
		if err != nil || len(k) != 32 || k[31] != 31 {
			t.Errorf("ParseKey(%q) = %v, %v", s, k, err)
		}
	}
	for _, s := range []string{"", "short", "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwd"} {
		if _, err := secrets.ParseKey(s); err == nil {
			t.Errorf("ParseKey(%q) accepted", s)
		}
	}
}

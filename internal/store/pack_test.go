package store

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"testing"
)

// TestCheckDictionaryIsFrozen: the rows written with the dictionary are
// read with it, so the file must never change (a new dictionary needs a new
// format byte beside this one).
func TestCheckDictionaryIsFrozen(t *testing.T) {
	sum := sha256.Sum256(checkDictBytes)
	if got := hex.EncodeToString(sum[:]); got != "5a7e6726fed35691f71923f37f34b904c279b67e74161ad71e1247ab068977fc" {
		t.Fatalf("checkdict.s2dict changed (sha256 %s): rows already stored would no longer read", got)
	}
}

func TestPackRoundTrip(t *testing.T) {
	t.Parallel()
	big := []byte(strings.Repeat(`{"code":"1","name":"Active Coverage","serviceTypeCodes":["30"]},`, 500))
	for _, tc := range []struct {
		name           string
		req, x271, ans []byte
	}{
		{"all empty", nil, nil, nil},
		{"answer only", nil, nil, []byte(`{"status":"error"}`)},
		{"binary", []byte{0, 1, 2, 255}, []byte("\x00\xff"), []byte{}},
		{"large", big[:1000], big[:20000], big},
	} {
		c := EligibilityCheck{RequestJSON: tc.req, X12Response: tc.x271, ResponseJSON: tc.ans}
		payload, buf := packCheck(&c)
		payload = bytes.Clone(payload)
		putPacked(buf)
		var got EligibilityCheck
		if err := unpackCheck(payload, &got); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		for i, pair := range [][2][]byte{{tc.req, got.RequestJSON}, {tc.x271, got.X12Response}, {tc.ans, got.ResponseJSON}} {
			if !bytes.Equal(pair[0], pair[1]) || (len(pair[0]) == 0) != (pair[1] == nil) {
				t.Errorf("%s: part %d: got %q, want %q", tc.name, i, pair[1], pair[0])
			}
		}
	}
}

// TestUnpackRefusesDamage: a payload that is not one packCheck made is an
// error, never a panic or parts out of range.
func TestUnpackRefusesDamage(t *testing.T) {
	t.Parallel()
	c := EligibilityCheck{RequestJSON: []byte(`{"a":1}`), X12Response: []byte("ISA*~"), ResponseJSON: []byte(`{"b":2}`)}
	good, buf := packCheck(&c)
	good = bytes.Clone(good)
	putPacked(buf)
	for _, tc := range []struct {
		name    string
		payload []byte
	}{
		{"empty", []byte{}},
		{"unknown format", append([]byte{9}, good[1:]...)},
		{"truncated header", good[:2]},
		{"truncated block", good[:len(good)-3]},
		{"request longer than the whole", append([]byte{packS2Dict1, 0x7f, 0}, good[3:]...)},
		{"271 longer than the rest", append([]byte{packS2Dict1, 1, 0x7f}, good[3:]...)},
	} {
		var got EligibilityCheck
		if err := unpackCheck(tc.payload, &got); err == nil {
			t.Errorf("%s: unpacked %+v, want an error", tc.name, got)
		}
	}
}

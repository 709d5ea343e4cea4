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

// TestPackAheadIsUsed: after Pack, the insert's packCheck takes Pack's
// payload (no encoding, no pooled buffer) while the three fields are the
// slices packed, and packs again when one was replaced or resliced; both
// give the bytes packCheck makes of the fields as they are.
func TestPackAheadIsUsed(t *testing.T) {
	t.Parallel()
	req, x271, ans := []byte(`{"a":1}`), []byte("ISA*00*~EB*1**30~"), []byte(`{"benefitsInformation":[{"code":"1"}]}`)
	for _, tc := range []struct {
		name   string
		change func(c *EligibilityCheck)
		reuse  bool
	}{
		{"unchanged", func(*EligibilityCheck) {}, true},
		{"answer replaced, same length", func(c *EligibilityCheck) { c.ResponseJSON = bytes.Clone(ans) }, false},
		{"271 resliced", func(c *EligibilityCheck) { c.X12Response = c.X12Response[:5] }, false},
		{"request gone", func(c *EligibilityCheck) { c.RequestJSON = nil }, false},
		{"empty stays empty", func(c *EligibilityCheck) { c.RequestJSON = []byte{} }, false},
	} {
		c := EligibilityCheck{RequestJSON: req, X12Response: x271, ResponseJSON: ans}
		if tc.name == "empty stays empty" {
			c.RequestJSON, tc.reuse = nil, true // nil and empty are the same stored bytes
		}
		c.Pack()
		tc.change(&c)
		fresh := c
		fresh.Packed = nil
		want, wbuf := packCheck(&fresh)
		want = bytes.Clone(want)
		putPacked(wbuf)
		got, buf := packCheck(&c)
		if reused := buf == nil && len(got) > 0 && &got[0] == &c.Packed.payload[0]; reused != tc.reuse {
			t.Errorf("%s: Pack's payload used %v, want %v", tc.name, reused, tc.reuse)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: payload %x, want %x", tc.name, got, want)
		}
		putPacked(buf)
	}
}

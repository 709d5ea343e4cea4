package jsonstr

import (
	"bytes"
	"encoding/json"
	"testing"
)

// TestAppendMatchesEncodingJSON: Append writes what encoding/json writes
// for a string, with and without HTML escaping, for strings that need
// every kind of escape, each at every place of a 40-byte string (the
// eight-byte fast path's edges).
func TestAppendMatchesEncodingJSON(t *testing.T) {
	plain := "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmn"
	var cases []string
	for _, c := range []string{"", `"`, `\`, "\x00", "\x1f", "\b", "\f", "\n", "\r", "\t", " ", "~", "\x7f", "\x80", "\xff", "\xc3",
		"\xe2\x80", "é", "漢", "🙂", "\u2028", "\u2029", "<", ">", "&", "\ufffd"} {
		for i := 0; i <= len(plain); i++ {
			cases = append(cases, plain[:i]+c+plain[i:], c)
		}
	}
	for _, html := range []bool{false, true} {
		for _, s := range cases {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			got := Append([]byte("x"), s, html)
			if !bytes.Equal(got, append([]byte("x"), bytes.TrimSuffix(want.Bytes(), []byte("\n"))...)) {
				t.Errorf("html %v, %q: got %s, want %s", html, s, got[1:], want.Bytes())
			}
		}
	}
}

package jsonstr

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
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
			checkPlain(t, s, html, want.Bytes())
		}
	}
}

// checkPlain: when Plain(s), encoding/json wrote s as it is between
// quotes (encoded, newline-terminated); for ASCII s, only then.
func checkPlain(t *testing.T, s string, html bool, encoded []byte) {
	t.Helper()
	asIs := string(encoded) == `"`+s+"\"\n"
	ascii := !strings.ContainsFunc(s, func(r rune) bool { return r >= utf8.RuneSelf })
	if p := Plain(s, html); p && !asIs || !p && asIs && ascii {
		t.Errorf("html %v, Plain(%q) = %v, but encoding/json writes %s", html, s, p, encoded)
	}
}

// FuzzAppend holds Append to encoding/json on any string, in both HTML
// modes: the plain-prefix scan, the eight-byte words and the byte table
// must hand every byte that needs escaping to the escaping loop.
func FuzzAppend(f *testing.F) {
	for _, s := range []string{"", "plain ASCII text of some length", "ISA*00*~\nGS*HS*~", `a"b\c`, "<&>", "é漢\u2028\xff", "0123456\x01"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, html := range []bool{false, true} {
			var want bytes.Buffer
			enc := json.NewEncoder(&want)
			enc.SetEscapeHTML(html)
			if err := enc.Encode(s); err != nil {
				t.Fatal(err)
			}
			if got := Append(nil, s, html); !bytes.Equal(got, bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
				t.Errorf("html %v, %q: got %s, want %s", html, s, got, want.Bytes())
			}
			checkPlain(t, s, html, want.Bytes())
		}
	})
}

// BenchmarkAppend: the kinds of strings an eligibility answer holds (codes,
// names, descriptions, its X12 with a line break after each segment).
func BenchmarkAppend(b *testing.B) {
	strs := []string{"1", "30", "IND", "Y", "Health Benefit Plan Coverage", "UnitedHealthcare", "2024-08-01",
		"Co-Payment", "In Plan-Network", "JOHN", strings.Repeat("EB*C*IND*30***23*500*****Y~\n", 40)}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		buf = buf[:0]
		for _, s := range strs {
			buf = Append(buf, s, false)
		}
	}
}

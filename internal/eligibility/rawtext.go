package eligibility

import (
	"encoding/json"
	"errors"
	"reflect"
	"unicode/utf16"
	"unicode/utf8"
)

// RawX12 is the caller's X12 text, a JSON string. It is bytes, not a string,
// so that the API can decode it where it lies in the request body: a raw
// 270 of megabytes then costs the body and nothing more (see UnmarshalJSON).
type RawX12 []byte

// MarshalJSON writes the text as a JSON string.
func (x RawX12) MarshalJSON() ([]byte, error) { return json.Marshal(string(x)) }

// UnmarshalJSON decodes a JSON string in place: the escapes are resolved
// into data itself (the result is never longer) and x keeps a view of it.
// json.Unmarshal hands over a view of its input, so a caller that decodes a
// buffer of its own, as api.DecodeJSON does, pays no copy; any other caller
// of UnmarshalJSON must not reuse data afterwards. Bytes that are not UTF-8
// are kept as sent (encoding/json would write U+FFFD, which does not fit in
// place); the X12 character check refuses them either way.
func (x *RawX12) UnmarshalJSON(data []byte) error {
	if string(data) == "null" {
		*x = nil
		return nil
	}
	if len(data) < 2 || data[0] != '"' || data[len(data)-1] != '"' {
		// encoding/json adds the field's path to this error.
		value := map[byte]string{'{': "object", '[': "array", 't': "bool", 'f': "bool"}[data[0]]
		if value == "" {
			value = "number"
		}
		return &json.UnmarshalTypeError{Value: value, Type: reflect.TypeFor[string]()}
	}
	out, ok := unquoteInPlace(data[1 : len(data)-1])
	if !ok {
		return errors.New("holds an invalid JSON escape")
	}
	*x = out
	return nil
}

// unquoteInPlace resolves JSON string escapes into s itself and returns the
// decoded prefix. encoding/json has already checked the syntax, so only the
// meaning of \u escapes is left to get right.
func unquoteInPlace(s []byte) ([]byte, bool) {
	w := 0
	for r := 0; r < len(s); {
		c := s[r]
		if c != '\\' {
			s[w] = c
			w, r = w+1, r+1
			continue
		}
		if r+1 >= len(s) {
			return nil, false
		}
		switch s[r+1] {
		case '"', '\\', '/':
			s[w] = s[r+1]
		case 'b':
			s[w] = '\b'
		case 'f':
			s[w] = '\f'
		case 'n':
			s[w] = '\n'
		case 'r':
			s[w] = '\r'
		case 't':
			s[w] = '\t'
		case 'u':
			rn, n := unicodeEscape(s[r:])
			if n == 0 {
				return nil, false
			}
			w += utf8.EncodeRune(s[w:], rn)
			r += n
			continue
		default:
			return nil, false
		}
		w, r = w+1, r+2
	}
	return s[:w], true
}

// unicodeEscape reads \uXXXX (and its low surrogate, if it is a high one)
// at the start of s: the rune and the bytes it spans, 0 if malformed. The
// UTF-8 form is never longer than the escape (\uXXXX is 6 bytes, a rune at
// most 4), so writing it in place never overtakes the reading.
func unicodeEscape(s []byte) (rune, int) {
	hex := func(b []byte) rune {
		if len(b) < 6 || b[0] != '\\' || b[1] != 'u' {
			return -1
		}
		var v rune
		for _, c := range b[2:6] {
			switch {
			case '0' <= c && c <= '9':
				v = v<<4 | rune(c-'0')
			case 'a' <= c && c <= 'f':
				v = v<<4 | rune(c-'a'+10)
			case 'A' <= c && c <= 'F':
				v = v<<4 | rune(c-'A'+10)
			default:
				return -1
			}
		}
		return v
	}
	r := hex(s)
	if r < 0 {
		return 0, 0
	}
	if utf16.IsSurrogate(r) {
		if lo := hex(s[6:]); lo >= 0 {
			if d := utf16.DecodeRune(r, lo); d != utf8.RuneError {
				return d, 12
			}
		}
		return utf8.RuneError, 6 // as encoding/json does with a lone surrogate
	}
	return r, 6
}

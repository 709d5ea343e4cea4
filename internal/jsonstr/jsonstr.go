// Package jsonstr writes a Go string as a JSON string exactly as
// encoding/json does, for encoders that write JSON by hand (the
// eligibility answer) and must stay byte-identical to encoding/json.
package jsonstr

import "unicode/utf8"

// Append appends s quoted as encoding/json does: quotes and
// backslashes escaped, \b \f \n \r \t as such, other control characters as
// \u00XX (and <, >, & when html), invalid UTF-8 as \ufffd, U+2028 and
// U+2029 escaped.
func Append(b []byte, s string, html bool) []byte {
	// Most strings need no escape at all: find the first byte that needs
	// a look, and copy s whole when there is none.
	i := plainPrefix(s, html)
	b = append(b, '"')
	if i == len(s) {
		b = append(b, s...)
		return append(b, '"')
	}
	plain := &plainASCII
	if html {
		plain = &plainASCIIHTML
	}
	return appendEscaped(b, s, i, plain, html)
}

// Plain reports whether s is printable ASCII that Append writes as it is
// between quotes: no byte of it needs a look (non-ASCII text, written as
// it is too, is not Plain). Nor does any byte of a part of it, which lets
// a writer that knows a string is a part of a Plain one copy it without a
// look.
func Plain(s string, html bool) bool { return plainPrefix(s, html) == len(s) }

// plainPrefix is the length of s up to its first byte that needs a look
// (len(s) when none does).
func plainPrefix(s string, html bool) int {
	plain := &plainASCII
	if html {
		plain = &plainASCIIHTML
	}
	i := 0
	if !html {
		for len(s)-i >= 8 && plain8(load8(s[i:i+8])) {
			i += 8
		}
	}
	for i < len(s) && plain[s[i]] {
		i++
	}
	return i
}

// appendEscaped is Append's loop from s[i], the first byte that needs a
// look; b holds the opening quote.
func appendEscaped(b []byte, s string, i int, plain *[256]bool, html bool) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i < len(s) {
		// Eight bytes at a time while none needs a look: no control
		// character, quote, backslash or non-ASCII byte among them (the
		// answer's strings are mostly plain ASCII, its X12 alone ~5 KB).
		if !html {
			for len(s)-i >= 8 && plain8(load8(s[i:i+8])) {
				i += 8
			}
			if i >= len(s) {
				break
			}
		}
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\b':
				b = append(b, '\\', 'b')
			case '\f':
				b = append(b, '\\', 'f')
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// plainASCII marks the bytes Append copies as they are outside HTML mode:
// printable ASCII but the quote and the backslash; plainASCIIHTML also
// leaves out <, > and &. A byte's look-up is one load where the tests it
// stands for were six compares.
var plainASCII, plainASCIIHTML = plainTables()

func plainTables() (plain, html [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		plain[c] = c != '"' && c != '\\'
		html[c] = plain[c] && c != '<' && c != '>' && c != '&'
	}
	return plain, html
}

// load8 reads t's eight bytes as one little-endian word: t has a constant
// length here, so the compiler makes the eight loads one.
func load8(t string) uint64 {
	return uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
		uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
}

// plain8 reports whether none of the eight bytes of x needs escaping
// outside HTML mode: each is at least 0x20, below 0x80, and neither '"'
// nor '\\'. (x - 0x20 in every byte) &^ x has a byte's high bit set only if
// some byte is below 0x20 (the borrow can set later bytes' bits, but only
// after a first true one); the same with x XOR the quote or backslash finds
// a zero byte, that is an equal one.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	below := (x - ones*0x20) &^ x
	quote := x ^ (ones * '"')
	backslash := x ^ (ones * '\\')
	return (x|below|((quote-ones)&^quote)|((backslash-ones)&^backslash))&highs == 0
}

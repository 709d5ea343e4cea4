// Package x12text brings text from JSON into the X12 character set, the one
// rule every JSON → X12 path shares (eligibility 270s, claims).
//
// X12's basic and extended character sets are printable ASCII. Letters with
// diacritics are transliterated to their base letters, as clearinghouses do
// ("José" → "Jose", "Łódź" → "Lodz", "Straße" → "Strasse"), including a
// letter followed by combining accents (decomposed input). Anything else
// outside the set is refused: control characters (C0 and C1), no-break and
// zero-width spaces, emoji and other symbols, invalid UTF-8, and the
// caller's delimiters. Text already in the set is returned as is, without
// allocating.
//
// The other way, ElementString reads the elements of a real-time 270 or
// 271 in memory as slices of one string of the message.
package x12text

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// CharError names the first character Clean cannot carry.
type CharError struct {
	Rune      rune // utf8.RuneError for invalid UTF-8
	Offset    int  // byte offset in the input
	Delimiter bool // one of the delimiters passed to Clean
}

// Error says what the character is and how to fix it, without quoting the
// rest of the text (it may be PHI).
func (e *CharError) Error() string {
	switch {
	case e.Delimiter:
		return fmt.Sprintf("contains %q, which X12 uses as a delimiter; remove it", string(e.Rune))
	case e.Rune < 0x20 || e.Rune == 0x7f:
		return "contains a control character (such as a line break or tab); remove it"
	case e.Rune == utf8.RuneError:
		return "is not valid UTF-8 text"
	}
	return fmt.Sprintf("contains %s (U+%04X), which X12 cannot carry; remove it or use plain letters", describe(e.Rune), e.Rune)
}

func describe(r rune) string {
	switch {
	case r >= 0x80 && r <= 0x9f:
		return "a control character"
	case r == 0xa0 || r == 0x202f || r == 0x2007:
		return "a no-break space"
	case r >= 0x200b && r <= 0x200f, r == 0x2060, r == 0xfeff:
		return "an invisible zero-width character"
	case r >= 0x1f000 || (r >= 0x2600 && r <= 0x27bf) || (r >= 0xfe00 && r <= 0xfe0f):
		return "an emoji or symbol"
	}
	return "a character outside the X12 character set"
}

// Clean returns s in the X12 character set, or the first character it
// cannot carry. delimiters are the bytes the X12 being written uses as
// separators (for example "*:^~"); they are refused too.
func Clean(s, delimiters string) (string, error) {
	i := 0
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || isDelimiter(c, delimiters) {
			break
		}
	}
	if i == len(s) {
		return s, nil // the common case: nothing to do, nothing allocated
	}
	var b []byte
	// letter: the last character kept is a letter (combining marks follow one).
	letter := i > 0 && ('A' <= s[i-1] && s[i-1] <= 'Z' || 'a' <= s[i-1] && s[i-1] <= 'z')
	for i < len(s) {
		c := s[i]
		if c < 0x80 {
			if c < 0x20 || c == 0x7f || isDelimiter(c, delimiters) {
				return "", &CharError{Rune: rune(c), Offset: i, Delimiter: c >= 0x20 && c != 0x7f}
			}
			if b != nil {
				b = append(b, c)
			}
			letter = 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		base := ""
		switch {
		case r == utf8.RuneError && n <= 1:
		case r >= 0x300 && r <= 0x36f && letter:
			// A combining accent on the letter before: drop it.
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[:i]...)
			}
			i += n
			continue
		case r >= latinFirst && int(r-latinFirst) < len(latin):
			base = latin[r-latinFirst]
		}
		if base == "" {
			return "", &CharError{Rune: r, Offset: i}
		}
		if b == nil {
			b = append(make([]byte, 0, len(s)), s[:i]...)
		}
		b = append(b, base...)
		letter = true
		i += n
	}
	if b == nil {
		return s, nil
	}
	return string(b), nil
}

// isDelimiter: a loop the compiler inlines, cheaper than IndexByte's call
// for the four or so delimiters.
func isDelimiter(c byte, delimiters string) bool {
	for j := 0; j < len(delimiters); j++ {
		if c == delimiters[j] {
			return true
		}
	}
	return false
}

// latin holds the base letters of U+00C0–U+017F (Latin-1 Supplement
// letters and Latin Extended-A); "" for the two signs among them (× ÷).
const latinFirst = 0xc0

var latin = latinTable(`
A A A A A A AE C E E E E I I I I D N O O O O O - O U U U U Y TH ss
a a a a a a ae c e e e e i i i i d n o o o o o - o u u u u y th y
A a A a A a C c C c C c C c D d D d E e E e E e E e E e G g G g G g G g H h H h
I i I i I i I i I i IJ ij J j K k k L l L l L l L l L l N n N n N n n N n
O o O o O o OE oe R r R r R r S s S s S s S s T t T t T t U u U u U u U u U u U u
W w Y y Y Z z Z z Z z s`)

// latinTable splits the transliterations, "-" standing for a sign (""),
// and checks there is one per letter of the range.
func latinTable(fields string) []string {
	out := strings.Fields(fields)
	if len(out) != 0x180-latinFirst {
		panic(fmt.Sprintf("x12text: %d transliterations for %d letters", len(out), 0x180-latinFirst))
	}
	for i, s := range out {
		if s == "-" {
			out[i] = ""
		}
	}
	return out
}

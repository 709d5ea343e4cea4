package claims

import (
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/x12text"
)

// The X12 character-set rule. Claim text travels in an 837D whose
// delimiters are * : ^ ~, and payers read only the X12 basic and extended
// character sets (printable ASCII). So before validation every string of
// the request is brought into that set: common Latin letters with accents
// and typographic quotes and dashes are transliterated ("José" → "Jose",
// "O’Brien" → "O'Brien"); a delimiter, a control character or any other
// character is refused with the field's path.
//
// The hardening work is building a shared helper for this rule; until it
// lands, x12Text is the one function to switch over.

// transliterations maps the non-ASCII characters we rewrite.
var transliterations = func() map[rune]string {
	m := map[rune]string{
		'\u00a0': " ", '\u2018': "'", '\u2019': "'", '\u201a': "'", '\u201c': `"`, '\u201d': `"`,
		'\u2013': "-", '\u2014': "-", '\u2026': "...", 'ß': "ss", 'Æ': "AE", 'æ': "ae", 'Ø': "O", 'ø': "o",
		'Œ': "OE", 'œ': "oe", 'Ð': "D", 'ð': "d", 'Þ': "TH", 'þ': "th", 'Ł': "L", 'ł': "l",
	}
	groups := map[string]string{
		"A": "ÀÁÂÃÄÅĀĂĄ", "a": "àáâãäåāăą", "C": "ÇĆČ", "c": "çćč", "E": "ÈÉÊËĒĖĘĚ", "e": "èéêëēėęě",
		"I": "ÌÍÎÏĪĮİ", "i": "ìíîïīįı", "N": "ÑŃŇ", "n": "ñńň", "O": "ÒÓÔÕÖŌŐ", "o": "òóôõöōő",
		"U": "ÙÚÛÜŪŮŰŲ", "u": "ùúûüūůűų", "Y": "ÝŸ", "y": "ýÿ", "S": "ŚŠŞ", "s": "śšş", "Z": "ŹŻŽ", "z": "źżž",
		"R": "Ř", "r": "ř", "G": "Ğ", "g": "ğ", "T": "Ť", "t": "ť", "D": "Ď", "d": "ď",
	}
	for base, chars := range groups {
		for _, r := range chars {
			m[r] = base
		}
	}
	return m
}()

// x12Text returns s in the X12 character set, or the first character it
// cannot carry (ok false).
func x12Text(s string) (out string, bad rune, ok bool) {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e || isDelimiter(c) {
			clean = false
			break
		}
	}
	if clean {
		return s, 0, true
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		switch {
		case r == utf8.RuneError:
			return "", r, false
		case r < 0x80 && (r < 0x20 || r == 0x7f || isDelimiter(byte(r))):
			return "", r, false
		case r < 0x80:
			b.WriteRune(r)
		default:
			t, found := transliterations[r]
			if !found {
				return "", r, false
			}
			b.WriteString(t)
		}
	}
	return b.String(), 0, true
}

func isDelimiter(c byte) bool {
	return c == elementSeparator || c == componentSeparator || c == repetitionSeparator || c == segmentTerminator
}

// normalizeText rewrites every string of the request into the X12
// character set and reports the ones that cannot be.
func normalizeText(c *checker, r *Request) {
	x12text.EachString(reflect.ValueOf(r).Elem(), func(path []string, v reflect.Value) {
		out, bad, ok := x12Text(v.String())
		if ok {
			if out != v.String() {
				v.SetString(out)
			}
			return
		}
		p := "/" + strings.Join(path, "/")
		switch {
		case bad < 0x20 || bad == 0x7f:
			c.add(p, "contains a control character (such as a line break or tab); remove it")
		case bad < 0x80:
			c.add(p, "contains %q, which the X12 837D uses as a delimiter; remove it or use another character", string(bad))
		case bad == utf8.RuneError:
			c.add(p, "is not valid UTF-8 text")
		default:
			c.add(p, "contains %q (%U), which X12 cannot carry; use plain letters, digits and punctuation", string(bad), bad)
		}
	})
}

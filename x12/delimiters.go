package x12

import "fmt"

// Delimiters are the four separator characters of an interchange. The ISA
// header defines them: the element separator is the byte after "ISA", the
// repetition separator is ISA11 (5010 and later), the component separator is
// ISA16 and the segment terminator is the byte after ISA16.
//
// A zero Repetition means the interchange has no repetition separator (4010,
// or a 5010 ISA11 that cannot be one, see the package documentation).
type Delimiters struct {
	Element    byte
	Repetition byte
	Component  byte
	Segment    byte
}

// DefaultDelimiters are the delimiters most HIPAA trading partners use:
// "*", "^", ":" and "~".
var DefaultDelimiters = Delimiters{Element: '*', Repetition: '^', Component: ':', Segment: '~'}

// Validate reports whether the delimiters can separate X12 data: element,
// component and segment must be set and all set delimiters distinct. Letters
// and digits are refused because segment ids and most values use them.
func (d Delimiters) Validate() error {
	if d.Element == 0 || d.Component == 0 || d.Segment == 0 {
		return fmt.Errorf("x12: delimiters %s: element, component and segment separators are required", d)
	}
	all := [4]byte{d.Element, d.Repetition, d.Component, d.Segment}
	for i, a := range all {
		if a == 0 {
			continue
		}
		if isAlnum(a) {
			return fmt.Errorf("x12: delimiters %s: %q is a letter or digit", d, a)
		}
		for _, b := range all[i+1:] {
			if a == b {
				return fmt.Errorf("x12: delimiters %s: %q is used twice", d, a)
			}
		}
	}
	return nil
}

// String shows the delimiters as element, repetition, component, segment,
// with control characters escaped, e.g. `"*" "^" ":" "~"`.
func (d Delimiters) String() string {
	return fmt.Sprintf("%q %q %q %q", d.Element, d.Repetition, d.Component, d.Segment)
}

// ParseDelimiters reads delimiters written as four characters in the order
// element, repetition, component, segment (e.g. "*^:~"). An escaped form is
// accepted for control characters: "\n", "\r", "\t" and "\xNN". A repetition
// written as "0" or " " means none.
func ParseDelimiters(s string) (Delimiters, error) {
	var out [4]byte
	n := 0
	for i := 0; i < len(s); i++ {
		if n == 4 {
			return Delimiters{}, fmt.Errorf("x12: delimiters %q: want 4 characters", s)
		}
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			switch s[i+1] {
			case 'n':
				c, i = '\n', i+1
			case 'r':
				c, i = '\r', i+1
			case 't':
				c, i = '\t', i+1
			case '\\':
				c, i = '\\', i+1
			case 'x':
				if i+3 < len(s) {
					var v byte
					if _, err := fmt.Sscanf(s[i+2:i+4], "%02x", &v); err == nil {
						c, i = v, i+3
					}
				}
			}
		}
		out[n] = c
		n++
	}
	if n != 4 {
		return Delimiters{}, fmt.Errorf("x12: delimiters %q: want 4 characters (element, repetition, component, segment)", s)
	}
	d := Delimiters{Element: out[0], Repetition: out[1], Component: out[2], Segment: out[3]}
	if d.Repetition == '0' || d.Repetition == ' ' {
		d.Repetition = 0
	}
	return d, d.Validate()
}

func isAlnum(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z'
}

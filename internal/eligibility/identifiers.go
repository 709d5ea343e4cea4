package eligibility

import "time"

// ValidMBI reports whether s has the format of a Medicare Beneficiary
// Identifier: 11 characters C A AN N A AN N A A N N, where C is 1–9, N a
// digit and A an uppercase letter other than S, L, O, I, B, Z. MBIs have no
// check digit, so format is all that can be checked.
func ValidMBI(s string) bool {
	const pattern = "CAXNAXNAANN" // X = letter or digit
	if len(s) != len(pattern) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch pattern[i] {
		case 'C':
			if c < '1' || c > '9' {
				return false
			}
		case 'N':
			if !isDigit(c) {
				return false
			}
		case 'A':
			if !mbiLetter(c) {
				return false
			}
		case 'X':
			if !mbiLetter(c) && !isDigit(c) {
				return false
			}
		}
	}
	return true
}

func mbiLetter(c byte) bool {
	if c < 'A' || c > 'Z' {
		return false
	}
	switch c {
	case 'S', 'L', 'O', 'I', 'B', 'Z':
		return false
	}
	return true
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

// validDate reports whether s is a real calendar date written CCYYMMDD.
func validDate(s string) bool {
	if len(s) != 8 || !allDigits(s) {
		return false
	}
	_, err := time.Parse("20060102", s)
	return err == nil
}

// Package findings bounds the lists of problems an answer carries. A
// request can hold any number of mistakes (a 7 MB body of 600,000 unknown
// fields holds 600,000), and listing each one made a 100 MB error body and
// kept every message in memory while it was built. A List keeps the first
// Max and only counts the rest; the answer ends with one entry saying how
// many more there were (MoreMessage).
package findings

import (
	"fmt"
	"strconv"
)

// Max is how many findings an answer lists.
const Max = 100

// MaxMessageBytes bounds one finding's message (and path): messages echo
// what the caller sent, which may be megabytes long.
const MaxMessageBytes = 1024

// List collects up to Max items and counts the rest. The zero value is
// ready to use.
type List[T any] struct {
	Items []T
	// More counts the items added past Max (not kept).
	More int
}

// Add keeps v, or only counts it once Max are kept. It reports whether v
// was kept, so a caller can skip building the next one's message.
func (l *List[T]) Add(v T) bool {
	if len(l.Items) >= Max {
		l.More++
		return false
	}
	l.Items = append(l.Items, v)
	return true
}

// Full says that Max items are kept: what is added next is only counted.
func (l *List[T]) Full() bool { return len(l.Items) >= Max }

// Len is how many items were added, kept or not.
func (l *List[T]) Len() int { return len(l.Items) + l.More }

// MoreMessage is the final entry of a list that was cut: "and 599,900 more
// problems".
func MoreMessage(more int) string {
	if more == 1 {
		return "and 1 more problem (fix the ones listed and send the request again to see it)"
	}
	return fmt.Sprintf("and %s more problems (only the first %d are listed; fix them and send the request again to see the rest)",
		Thousands(more), Max)
}

// Summary is a validation answer's message for n problems in all:
// "The request is invalid: 600,000 problems; the first 100 are listed in
// fieldList."
func Summary(n int) string {
	switch {
	case n == 1:
		return "The request is invalid: 1 problem; see fieldList."
	case n > Max:
		return fmt.Sprintf("The request is invalid: %s problems; the first %d are listed in fieldList.", Thousands(n), Max)
	}
	return fmt.Sprintf("The request is invalid: %d problems; see fieldList.", n)
}

// Thousands writes n with commas: 599900 → "599,900".
func Thousands(n int) string {
	s := strconv.Itoa(n)
	neg := n < 0
	if neg {
		s = s[1:]
	}
	out := make([]byte, 0, len(s)+len(s)/3+1)
	for i := range len(s) {
		if i > 0 && (len(s)-i)%3 == 0 {
			out = append(out, ',')
		}
		out = append(out, s[i])
	}
	if neg {
		return "-" + string(out)
	}
	return string(out)
}

// Clip cuts s to at most MaxMessageBytes, at a character boundary, marking
// the cut with "…".
func Clip(s string) string {
	if len(s) <= MaxMessageBytes {
		return s
	}
	cut := MaxMessageBytes - len("…")
	for cut > 0 && s[cut]&0xC0 == 0x80 { // inside a UTF-8 sequence
		cut--
	}
	return s[:cut] + "…"
}

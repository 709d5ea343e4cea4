package eligibility

import (
	"strings"

	"github.com/clearhouse/clearhouse/internal/x12text"
)

// Delimiters of the 270s we write. Request text containing one of them (or a
// control character) cannot be carried in X12, so validation refuses it with
// the field's path instead of letting the writer fail later.
const (
	elementSeparator    = '*'
	componentSeparator  = ':'
	repetitionSeparator = '^'
	segmentTerminator   = '~'
)

// checkX12Safe brings every string of the request into the X12 character
// set (x12text: "José" becomes "JOSE" in the 270) and reports, with the
// field's path, those that cannot be: delimiters, control characters,
// no-break or zero-width spaces, emoji. The walk is generated from the
// request's types (x12safe_walk.go; TestX12SafeWalkIsCurrent fails when a
// field is added without it), in x12text.EachString's order and paths: by
// reflection it was ~15 K instructions of every check.
func checkX12Safe(c *checker, r *Request) {
	w := x12Walk{c: c}
	w.request(r)
}

// x12Walk is checkX12Safe's walk: path holds the JSON names down to the
// struct being walked (request types nest four deep), joined only when a
// string is refused.
type x12Walk struct {
	c     *checker
	path  [8]string
	depth int
}

func (w *x12Walk) push(name string) {
	w.path[w.depth] = name
	w.depth++
}

func (w *x12Walk) pop() { w.depth-- }

// str checks and cleans *s, named name in the struct being walked.
func (w *x12Walk) str(s *string, name string) {
	if *s == "" {
		return
	}
	out, err := x12text.Clean(*s, delimiters270)
	if err != nil {
		w.c.add("/"+strings.Join(append(w.path[:w.depth:w.depth], name), "/"), "%s", err.Error())
		return
	}
	if out != *s {
		*s = out
	}
}

// delimiters270 are the separators of the 270s we write.
var delimiters270 = string([]byte{elementSeparator, componentSeparator, repetitionSeparator, segmentTerminator})

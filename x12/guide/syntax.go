package guide

import (
	"fmt"
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// syntaxRule is an X12 relational condition on a segment's elements:
// P (paired: all or none), R (required: at least one), E (exclusion: at most
// one), C (conditional: if the first, then all the others) and L (list
// conditional: if the first, then at least one of the others).
type syntaxRule struct {
	kind byte
	pos  []int
	text string
	// mask has bit p set for every position p of the rule, first the bit
	// of the first one: a rule is checked against the segment's presence
	// mask (see checkTail) with a few integer operations.
	mask, first uint64
}

// maxSyntaxPos is the last position a syntax rule may name: presence masks
// fold every later element into bit 63.
const maxSyntaxPos = 62

func parseSyntax(s string) (syntaxRule, error) {
	if len(s) < 5 || (len(s)-1)%2 != 0 {
		return syntaxRule{}, fmt.Errorf("syntax rule %q", s)
	}
	r := syntaxRule{kind: s[0], text: s}
	switch r.kind {
	case 'P', 'R', 'E', 'C', 'L':
	default:
		return r, fmt.Errorf("syntax rule %q: unknown kind", s)
	}
	for i := 1; i < len(s); i += 2 {
		n, err := strconv.Atoi(s[i : i+2])
		if err != nil || n < 1 {
			return r, fmt.Errorf("syntax rule %q", s)
		}
		if n > maxSyntaxPos {
			return r, fmt.Errorf("syntax rule %q: position %d past %d", s, n, maxSyntaxPos)
		}
		r.pos = append(r.pos, n)
		r.mask |= 1 << n
	}
	r.first = 1 << r.pos[0]
	return r, nil
}

// broken reports whether the rule is violated by a segment whose non-empty
// elements are the bits of present.
func (r *syntaxRule) broken(present uint64) bool {
	have := present & r.mask
	switch r.kind {
	case 'P':
		return have != 0 && have != r.mask
	case 'R':
		return have == 0
	case 'E':
		return have&(have-1) != 0 // more than one bit
	case 'C':
		return have&r.first != 0 && have != r.mask
	case 'L':
		return have == r.first
	}
	return false
}

// checkSyntax reports a violated relational condition on the element that
// breaks it; present has bit p set when element p is not empty.
func (v *Validator) checkSyntax(seg *x12.Segment, def *Segment, r *syntaxRule, present uint64) {
	if !r.broken(present) {
		return
	}
	count, at, second := 0, 0, 0 // at: the first position missing
	for _, p := range r.pos {
		if present&(1<<p) != 0 {
			count++
			if count == 2 {
				second = p
			}
		} else if at == 0 {
			at = p
		}
	}
	switch r.kind {
	case 'R':
		at = r.pos[0]
	case 'E':
		at = second
	case 'L':
		at = r.pos[1]
	}
	de := ""
	if at <= len(def.Elements) {
		de = def.Elements[at-1].DE
	}
	if r.kind == 'E' {
		v.elementFinding(CodeExclusion, "10", at, 0, 0, de, seg.ElementBytes(at),
			fmt.Sprintf("%s breaks syntax rule %s: at most one of those elements may be present", def.ID, r.text))
		return
	}
	v.elementFinding(CodeConditional, "2", at, 0, 0, de, nil,
		fmt.Sprintf("%s breaks syntax rule %s: %s%02d is required by the elements present", def.ID, r.text, def.ID, at))
}

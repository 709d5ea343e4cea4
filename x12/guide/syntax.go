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
}

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
		r.pos = append(r.pos, n)
	}
	return r, nil
}

// checkSyntax reports a violated relational condition on the element that
// breaks it.
func (v *Validator) checkSyntax(seg *x12.Segment, def *Segment, r *syntaxRule) {
	present := func(p int) bool { return len(seg.ElementBytes(p)) > 0 }
	count, firstMissing, second := 0, 0, 0
	for _, p := range r.pos {
		if present(p) {
			count++
			if count == 2 {
				second = p
			}
		} else if firstMissing == 0 {
			firstMissing = p
		}
	}
	bad, at := false, firstMissing
	switch r.kind {
	case 'P':
		bad = count > 0 && count < len(r.pos)
	case 'R':
		bad, at = count == 0, r.pos[0]
	case 'E':
		bad, at = count > 1, second
	case 'C':
		bad = present(r.pos[0]) && count < len(r.pos)
	case 'L':
		bad, at = present(r.pos[0]) && count == 1, r.pos[1]
	}
	if !bad {
		return
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

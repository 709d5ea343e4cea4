package guide

import "testing"

// TestSyntaxRuleBroken checks the presence-mask form of the X12 relational
// conditions against their definitions, for every subset of the positions.
func TestSyntaxRuleBroken(t *testing.T) {
	t.Parallel()
	for _, text := range []string{"P0203", "R020304", "E0102", "C0304", "C030405", "L020304", "P0910", "R6162"} {
		r, err := parseSyntax(text)
		if err != nil {
			t.Fatal(err)
		}
		for subset := 0; subset < 1<<len(r.pos); subset++ {
			var present uint64 = 1 << 63 // elements 63 and later, in no rule
			count := 0
			for k, p := range r.pos {
				if subset&(1<<k) != 0 {
					present |= 1 << p
					count++
				}
			}
			firstThere := subset&1 != 0
			var want bool
			switch r.kind {
			case 'P': // all or none
				want = count > 0 && count < len(r.pos)
			case 'R': // at least one
				want = count == 0
			case 'E': // at most one
				want = count > 1
			case 'C': // if the first, then all
				want = firstThere && count < len(r.pos)
			case 'L': // if the first, then at least one other
				want = firstThere && count == 1
			}
			if got := r.broken(present); got != want {
				t.Errorf("%s with positions %b present: broken = %v, want %v", text, subset, got, want)
			}
		}
	}
	if _, err := parseSyntax("P0163"); err == nil {
		t.Error("a rule naming position 63 is accepted")
	}
}

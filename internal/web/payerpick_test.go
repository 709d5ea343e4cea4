package web

import (
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/payers"
)

// The payer box resolves names, ids and aliases from the directory
// search; a payer found only by tolerating a typo is suggested, never
// picked, so nothing goes to a payer the user did not name.
func TestResolvePayerSuggestsTypos(t *testing.T) {
	dir := payers.Default()
	for _, tc := range []struct {
		typed, wantID, wantMsg string
	}{
		{"uhc", "87726", ""},
		{"62308", "62308", ""},
		{"Cigan", "", "Did you mean Cigna (62308)?"},
		{"87762", "", "Did you mean UnitedHealthcare (87726)?"},
		{"Humanna Dental", "", "Did you mean Humana Dental (73288)"},
		{"Acme Insurance of Nowhere", "", "Check the spelling"},
	} {
		p, msg, _ := resolvePayer(dir, tc.typed)
		if p.ID != tc.wantID || (tc.wantMsg == "") != (msg == "") || !strings.Contains(msg, tc.wantMsg) {
			t.Errorf("resolvePayer(%q) = %q, %q; want %q, %q", tc.typed, p.ID, msg, tc.wantID, tc.wantMsg)
		}
	}
}

package partners_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/partners"
)

// TestProblemsAreCapped: a document of a thousand mistakes lists the first
// hundred and counts the rest, and names each mistake's entry even when
// the entry's id comes after it.
func TestProblemsAreCapped(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"profiles":[{`)
	for i := range 1000 {
		fmt.Fprintf(&b, `"typo%d":1,`, i)
	}
	b.WriteString(`"profileId":"clinic"}]}`)
	_, err := partners.DecodeDocument([]byte(b.String()))
	var ve *partners.ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("error %v", err)
	}
	if len(ve.Problems) != 100 || ve.More != 900 {
		t.Fatalf("%d problems listed, %d more; want 100 and 900", len(ve.Problems), ve.More)
	}
	first := ve.Problems[0]
	if first.Path != "/profiles/0/typo0" || !strings.Contains(first.Message, `unknown field "typo0" in the entry with profileId "clinic"`) {
		t.Errorf("first problem %+v", first)
	}
	if msg := err.Error(); !strings.HasPrefix(msg, "1,000 problems, nothing was changed:") || !strings.Contains(msg, "and 900 more problems") {
		t.Errorf("Error(): %.200s … %s", msg, msg[len(msg)-80:])
	}
}

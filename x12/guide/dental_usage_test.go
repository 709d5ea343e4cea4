package guide_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12/guide"
)

// Elements X224A2 uses that the guide data once marked wrongly: DN206 is
// required (JP), SV301-7 (a procedure's description) is situational, and
// the referring provider's PRV names the taxonomy with 5010's PXC.
func TestDentalElementsAsX224A2UsesThem(t *testing.T) {
	t.Parallel()
	clean, err := os.ReadFile("testdata/837d_dental_features.x12")
	if err != nil {
		t.Fatal(err)
	}
	withReferring := func(prv string) func(string) string {
		return func(s string) string {
			return strings.Replace(s, "NM1*82*", "NM1*DN*1*JONES*BO****XX*1999999984~\n"+prv+"~\nNM1*82*", 1)
		}
	}
	tests := []struct {
		name   string
		edit   func(string) string
		segs   int // segments added
		reject string
	}{
		{name: "as is", edit: func(s string) string { return s }},
		{name: "DN2 without DN206", edit: func(s string) string { return strings.Replace(s, "DN2*1*M****JP~", "DN2*1*M~", 1) }, reject: "DN206"},
		{name: "DN206 other than JP", edit: func(s string) string { return strings.Replace(s, "DN2*1*M****JP~", "DN2*1*M****XX~", 1) }, reject: "DN206"},
		{name: "SV301-7 description", edit: func(s string) string {
			return strings.Replace(s, "SV3*AD:D8080*", "SV3*AD:D8080:::::ORTHODONTIC TREATMENT*", 1)
		}},
		{name: "referring PRV with PXC", edit: withReferring("PRV*RF*PXC*1223G0001X"), segs: 2},
		{name: "referring PRV with 4010's ZZ", edit: withReferring("PRV*RF*ZZ*1223G0001X"), segs: 2, reject: "PRV02"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			in := tc.edit(string(clean))
			if tc.segs > 0 {
				in = strings.Replace(in, "SE*53*0001~", "SE*55*0001~", 1)
			}
			rep, err := guide.Validate(bytes.NewReader([]byte(in)), guide.Options{})
			if err != nil {
				t.Fatal(err)
			}
			var rejects []string
			for _, f := range rep.All() {
				if f.Rejects() {
					rejects = append(rejects, f.String())
				}
			}
			switch {
			case tc.reject == "" && len(rejects) > 0:
				t.Errorf("refused: %q", rejects)
			case tc.reject != "" && !strings.Contains(strings.Join(rejects, "\n"), tc.reject):
				t.Errorf("not refused for %s: %q", tc.reject, rejects)
			}
		})
	}
}

package guide_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// The 997 (005010X230) is checked against its guide: the public 997s pass,
// a 997 with neither AK1 nor AK9 is refused for both, and a code of the
// 999's I-lists is not a 997 code.
func TestThe997Guide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, file string
		body       string // instead of a corpus file
		want       []string
	}{
		{name: "simple", file: "997/5010_staedi_simple997.edi"},
		{name: "three interchanges", file: "997/5010_staedi_simple997_3-interchanges.edi"},
		{name: "no AK1 and AK9", file: "invalid/997_staedi_empty-no-AK1-AK9.edi", want: []string{"guide.segment-missing AK1", "guide.segment-missing AK9"}},
		{name: "999 code in AK304", body: "ST*997*0001*005010X230~AK1*HC*1~AK2*837*0001~AK3*NM1*8**I4~AK5*R*5~AK9*R*1*1*0~SE*7*0001~",
			want: []string{"guide.element-invalid-code AK304"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			body := []byte(tc.body)
			opts := []x12.ReaderOption{x12.WithDelimiters(x12.DefaultDelimiters)}
			if tc.file != "" {
				var err error
				if body, err = os.ReadFile(filepath.Join(testenv.CorpusDir(t), tc.file)); err != nil {
					t.Fatal(err)
				}
				opts = nil
			}
			rep, err := guide.Validate(bytes.NewReader(body), guide.Options{}, opts...)
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, f := range rep.All() {
				if f.Code == guide.CodeNoGuide {
					t.Errorf("the 997 was not checked against a guide: %s", f)
				}
				if strings.HasPrefix(string(f.Code), "guide.") && f.Severity >= x12.Error {
					got = append(got, string(f.Code)+" "+f.SegmentID+elementRef(f))
				}
			}
			for _, w := range tc.want {
				if !slices.Contains(got, w) {
					t.Errorf("missing %q among %q", w, got)
				}
			}
			if len(tc.want) == 0 && len(got) > 0 {
				t.Errorf("guide errors in a valid 997: %q", got)
			}
		})
	}
}

func elementRef(f x12.Finding) string {
	if f.Element == 0 {
		return ""
	}
	return fmt.Sprintf("%02d", f.Element)
}

package guide_test

import (
	"os"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12/guide"
)

func TestEmbeddedGuides(t *testing.T) {
	t.Parallel()
	want := map[string]string{
		"270": "270 005010X279A1", "271": "271 005010X279A1", "276": "276 005010X212", "277": "277 005010X212",
		"277CA": "277 005010X214", "835": "835 005010X221A1", "837D": "837 005010X224A2", "837I": "837 005010X223A2", "837P": "837 005010X222A1",
		"999": "999 005010X231A1", "997": "997 005010X230",
	}
	gs := guide.Guides()
	if len(gs) != len(want) {
		t.Errorf("%d guides, want %d", len(gs), len(want))
	}
	for _, g := range gs {
		if got := g.Transaction + " " + g.Version; want[g.ID] != got {
			t.Errorf("%s: %s, want %s", g.ID, got, want[g.ID])
		}
		if len(g.Provenance.Sources) == 0 {
			t.Errorf("%s: no provenance", g.ID)
		}
		for _, s := range g.Provenance.Sources {
			if s.License == "" || s.Commit == "" || strings.Contains(strings.ToLower(s.File), "oopfactory") {
				t.Errorf("%s: source %+v", g.ID, s)
			}
		}
	}
}

func TestChoosingTheGuide(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct{ gs08, st01, st03, want string }{
		{"005010X279A1", "270", "005010X279A1", "270"},
		{"005010X279A1", "271", "", "271"},
		{"005010X212", "276", "005010X212", "276"},
		{"005010X212", "277", "005010X212", "277"},
		{"005010X214", "277", "005010X214", "277CA"},
		{"005010X222", "837", "005010X224", "837D"}, // ST03 names the guide
		{"005010X222A1", "837", "", "837P"},
		{"005010X221A1", "835", "", "835"},          // ST03 absent: GS08
		{"005010X222", "837", "005010X223", "837I"}, // ST03 names the guide
		{"005010X223A2", "837", "", "837I"},
		{"005010X223A3", "837", "005010X223A3", "837I"}, // A3 is accepted
		{"004010X098A1", "837", "", ""},
	} {
		g, ok := guide.For(tc.gs08, tc.st01, tc.st03)
		got := ""
		if ok {
			got = g.ID
		}
		if got != tc.want {
			t.Errorf("For(%s, %s, %s) = %q, want %q", tc.gs08, tc.st01, tc.st03, got, tc.want)
		}
	}
}

// TestCompanionGuide: a payer's stricter copy of a guide is a data file too.
func TestCompanionGuide(t *testing.T) {
	t.Parallel()
	raw, err := os.ReadFile("data/270.005010X279A1.json")
	if err != nil {
		t.Fatal(err)
	}
	strict := strings.Replace(string(raw), `"name":"Subscriber Demographic Information","usage":"S"`, `"name":"Subscriber Demographic Information","usage":"R"`, 1)
	if strict == string(raw) {
		t.Fatal("DMG usage not found in the 270 data")
	}
	g, err := guide.Parse([]byte(strict), nil)
	if err != nil {
		t.Fatal(err)
	}
	segs := parseSegments(t, strings.Replace(example270, "DMG*D8*19800101~\n", "", 1))
	segs[len(segs)-1] = mustSegment("SE*11*0001")
	fs := validateSet(g, segs)
	if got := codeSet(fs); len(got) != 1 || got[0] != "guide.segment-missing DMG" {
		t.Errorf("companion guide findings %q", got)
	}
	if _, err := guide.Parse([]byte(`{"format":"other"}`), nil); err == nil {
		t.Error("Parse accepted a foreign format")
	}
}

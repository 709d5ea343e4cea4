package payers

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestDefaultDirectoryLookup(t *testing.T) {
	d := Default()
	tests := []struct {
		query, wantID, wantPlacement string
	}{
		{"60054", "60054", PlacementDependents},
		{"aetna", "60054", PlacementDependents},
		{" g84980 ", "G84980", PlacementSubscriber},
		{"84980", "G84980", PlacementSubscriber},
		{"040", "040", PlacementDependents},
		{"oscar", "OSCAR", PlacementDependents},
		{"cms", "CMS", PlacementSubscriber},
		{"MBILU", "MBILU", PlacementSubscriber},
		{"00590", "00590", PlacementDependents},
		{"65978", "10134", PlacementDependents},
	}
	for _, tt := range tests {
		p, ok := d.Lookup(tt.query)
		if !ok {
			t.Errorf("Lookup(%q) found nothing", tt.query)
			continue
		}
		if p.ID != tt.wantID || p.DependentPlacement != tt.wantPlacement {
			t.Errorf("Lookup(%q) = %s/%s, want %s/%s", tt.query, p.ID, p.DependentPlacement, tt.wantID, tt.wantPlacement)
		}
	}
	if id, ok := d.Resolve("uhc"); !ok || id != "87726" {
		t.Errorf("Resolve(uhc) = %q, %v", id, ok)
	}
	if _, ok := d.Resolve("FOO"); ok {
		t.Error("Resolve(FOO) found a payer")
	}
	for _, missing := range []string{"", "590", "FOO", "6005"} {
		if p, ok := d.Lookup(missing); ok {
			t.Errorf("Lookup(%q) = %s, want not found", missing, p.ID)
		}
	}
}

func TestDefaultDirectoryShipsTheMockSetAndNationalPayers(t *testing.T) {
	d := Default()
	mockSet := []string{"60054", "040", "G84980", "62308", "OSCAR", "87726", "68069", "61101", "KSRCN",
		"AMTAS00425", "84103", "10134", "52133", "CMS", "MBILU"}
	for _, id := range mockSet {
		p, ok := d.Lookup(id)
		if !ok {
			t.Errorf("mock payer %s missing", id)
			continue
		}
		if !p.Supports(Eligibility) {
			t.Errorf("mock payer %s does not list 270", id)
		}
	}
	cms, _ := d.Lookup("CMS")
	if cms.MemberIDFormat != MemberIDFormatMBI {
		t.Errorf("CMS memberIdFormat = %q, want mbi", cms.MemberIDFormat)
	}
	if d.Len() < 40 {
		t.Errorf("directory has %d payers, want the national set too (>= 40)", d.Len())
	}
	for _, p := range d.List() {
		if p.Configured() {
			t.Errorf("payer %s ships with connection %q; the default directory configures none", p.ID, p.Connection)
		}
	}
	list := d.List()
	if !slices.IsSortedFunc(list, func(a, b Payer) int {
		return strings.Compare(strings.ToLower(a.Name), strings.ToLower(b.Name))
	}) {
		t.Error("List is not sorted by name")
	}
}

func TestListReturnsCopies(t *testing.T) {
	d := Default()
	l := d.List()
	l[0].Aliases = append(l[0].Aliases[:0], "MUTATED")
	l[0].Transactions[0] = "MUTATED"
	if _, ok := d.Lookup("MUTATED"); ok {
		t.Fatal("mutating a listed payer changed the directory")
	}
	if d.List()[0].Transactions[0] == "MUTATED" {
		t.Fatal("mutating a listed payer's transactions changed the directory")
	}
}

func TestSearch(t *testing.T) {
	d := Default()
	tests := []struct {
		query     string
		wantFirst string
		wantAll   []string
	}{
		{"62308", "62308", nil},
		{"cigna", "62308", nil},
		{"delta dental", "77777", []string{"77777", "23166", "91062"}},
		{"DENTAL", "", []string{"10134", "52133", "84103", "77777"}},
		{"blue cross", "", []string{"G84980", "040", "00621"}},
		{"ksr", "KSRCN", nil},
	}
	for _, tt := range tests {
		got := d.Search(tt.query, 0)
		if len(got) == 0 {
			t.Errorf("Search(%q) found nothing", tt.query)
			continue
		}
		if tt.wantFirst != "" && got[0].ID != tt.wantFirst {
			t.Errorf("Search(%q)[0] = %s, want %s", tt.query, got[0].ID, tt.wantFirst)
		}
		ids := make([]string, len(got))
		for i, p := range got {
			ids[i] = p.ID
		}
		for _, w := range tt.wantAll {
			if !slices.Contains(ids, w) {
				t.Errorf("Search(%q) = %v, missing %s", tt.query, ids, w)
			}
		}
	}
	if got := d.Search("blue", 2); len(got) != 2 {
		t.Errorf("Search with limit 2 returned %d", len(got))
	}
	if got := d.Search("  ", 0); got != nil {
		t.Errorf("empty query returned %d payers", len(got))
	}
	if got := d.Search("no such payer anywhere", 0); len(got) != 0 {
		t.Errorf("nonsense query returned %d payers", len(got))
	}
}

func TestWithOverrides(t *testing.T) {
	base := Default()
	d, err := base.WithOverrides([]byte(`{"payers": [
		{"id": "uhc", "connection": "uhc-core"},
		{"id": "ZZ123", "name": "Regional Health Plan", "transactions": ["270"], "aliases": ["ZZ-ALT"], "connection": "regional"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	uhc, _ := d.Lookup("87726")
	if uhc.Connection != "uhc-core" || uhc.Name != "UnitedHealthcare" || !uhc.Supports(Eligibility) {
		t.Errorf("patched UHC = %+v", uhc)
	}
	added, ok := d.Lookup("zz-alt")
	if !ok || added.ID != "ZZ123" || added.DependentPlacement != PlacementDependents {
		t.Errorf("added payer = %+v, %v", added, ok)
	}
	if orig, _ := base.Lookup("87726"); orig.Connection != "" {
		t.Error("WithOverrides changed the base directory")
	}
	if d.Len() != base.Len()+1 {
		t.Errorf("Len = %d, want %d", d.Len(), base.Len()+1)
	}
}

func TestWithOverridesRejects(t *testing.T) {
	tests := map[string]string{
		"alias clash":         `{"payers": [{"id": "NEW1", "name": "X", "transactions": ["270"], "aliases": ["62308"]}]}`,
		"new without name":    `{"payers": [{"id": "NEW1", "transactions": ["270"]}]}`,
		"new without tx":      `{"payers": [{"id": "NEW1", "name": "X"}]}`,
		"unknown transaction": `{"payers": [{"id": "87726", "transactions": ["999"]}]}`,
		"bad placement":       `{"payers": [{"id": "87726", "dependentPlacement": "both"}]}`,
		"bad member format":   `{"payers": [{"id": "87726", "memberIdFormat": "ssn"}]}`,
		"unknown field":       `{"payers": [{"id": "87726", "conection": "typo"}]}`,
		"not json":            `payers: []`,
		"empty id":            `{"payers": [{"id": " ", "name": "X", "transactions": ["270"]}]}`,
	}
	for name, data := range tests {
		if _, err := Default().WithOverrides([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestLoadFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "payers.json")
	if err := os.WriteFile(path, []byte(`{"payers": [{"id": "CMS", "connection": "hets"}]}`), 0o600); err != nil {
		t.Fatal(err)
	}
	d, err := LoadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := d.Lookup("CMS"); p.Connection != "hets" {
		t.Errorf("CMS connection = %q", p.Connection)
	}
	if _, err := LoadFile(filepath.Join(t.TempDir(), "missing.json")); err == nil {
		t.Error("missing file accepted")
	}
}

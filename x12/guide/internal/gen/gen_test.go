package gen

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/testenv"
	"github.com/clearhouse/clearhouse/x12/guide/internal/spec"
)

// TestDataIsCurrent regenerates the guide files from the sources and
// compares them with the committed x12/guide/data: the data is exactly what
// the generator derives, nothing edited by hand.
func TestDataIsCurrent(t *testing.T) {
	src := filepath.Join(testenv.RepoRoot(t), "..", "shared", "reference", "guide-sources")
	if _, err := os.Stat(filepath.Join(src, "README.md")); err != nil {
		testenv.Missing(t, "guide sources not found at "+src)
	}
	out := t.TempDir()
	if err := Run(src, out); err != nil {
		t.Fatal(err)
	}
	committed := filepath.Join("..", "..", "data")
	files, err := os.ReadDir(out)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		got, _ := os.ReadFile(filepath.Join(out, f.Name()))
		want, err := os.ReadFile(filepath.Join(committed, f.Name()))
		if err != nil {
			t.Errorf("%s: generated but not committed", f.Name())
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the generator's output (run go generate in x12/guide)", f.Name())
		}
	}
	committedFiles, _ := os.ReadDir(committed)
	if len(committedFiles) != len(files) {
		t.Errorf("data has %d files, the generator writes %d", len(committedFiles), len(files))
	}
}

// TestRefusesOopFactory: the CDDL files are never an input.
func TestRefusesOopFactory(t *testing.T) {
	err := Run(filepath.Join(t.TempDir(), "oopfactory-x12parser"), t.TempDir())
	if err == nil || !strings.Contains(err.Error(), "OopFactory") {
		t.Errorf("err = %v", err)
	}
}

func TestSnakeKeys(t *testing.T) {
	// Keys are snake_case of the guide names (api-contract §5.4).
	for name, want := range map[string]string{
		"Billing Provider City, State, ZIP Code": "billing_provider_city_state_zip_code",
		"Pay-To Provider's Name":                 "pay_to_providers_name",
		"Date - Onset of Current Illness":        "date_onset_of_current_illness",
	} {
		if got := spec.SnakeName(name); got != want {
			t.Errorf("%q → %q, want %q", name, got, want)
		}
	}
}

// TestCurrentCodeLists: the lists we keep current hold the codes added
// since the 2014 snapshot, drop the withdrawn ones, and the place of service
// list is the same set as the eligibility package's.
func TestCurrentCodeLists(t *testing.T) {
	data, err := os.ReadFile(filepath.Join(testenv.RepoRoot(t), "internal", "eligibility", "codes", "places_of_service.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	var eligibilityPOS []string
	for _, line := range strings.Split(string(data), "\n") {
		if code, _, ok := strings.Cut(line, "\t"); ok && !strings.HasPrefix(line, "#") {
			eligibilityPOS = append(eligibilityPOS, code)
		}
	}
	if !slices.Equal(eligibilityPOS, placesOfService) {
		t.Errorf("place of service lists differ:\n eligibility %v\n guide       %v", eligibilityPOS, placesOfService)
	}
	raw, err := os.ReadFile(filepath.Join("..", "..", "data", "codelists.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lists spec.CodeLists
	if err := json.Unmarshal(raw, &lists); err != nil {
		t.Fatal(err)
	}
	byID := map[string]spec.CodeList{}
	for _, l := range lists.Lists {
		if l.AsOf == "" || l.Source == "" {
			t.Errorf("list %s has no as_of date or source", l.ID)
		}
		byID[l.ID] = l
	}
	tests := []struct {
		list       string
		has, lacks []string
	}{
		{"pos", []string{"02", "10", "17", "18", "19", "27", "58", "66", "11"}, []string{"95"}},
		{"states", []string{"QC", "NL", "NU", "PW", "AE", "TX"}, []string{"PQ", "NF"}},
		{"country", []string{"SS", "RS", "ME", "CW", "TL", "US"}, []string{"YU", "TP", "AN"}},
		{"currency", []string{"SSP", "VES", "STN", "MRU", "ZWG", "USD", "EUR"}, []string{"DEM", "HRK", "VEF"}},
	}
	for _, tt := range tests {
		l := byID[tt.list]
		if l.AsOf != listsCheckedOn {
			t.Errorf("%s: as of %q, want %s", tt.list, l.AsOf, listsCheckedOn)
		}
		for _, c := range tt.has {
			if !slices.Contains(l.Codes, c) {
				t.Errorf("%s lacks %s", tt.list, c)
			}
		}
		for _, c := range tt.lacks {
			if slices.Contains(l.Codes, c) {
				t.Errorf("%s still has %s", tt.list, c)
			}
		}
	}
}

package eligibility

import (
	"io/fs"
	"regexp"
	"testing"
)

func TestCodeTables(t *testing.T) {
	// Every embedded file parses (the package-level loaders would have
	// panicked otherwise) and is used by a loader.
	files, err := fs.Glob(codeFiles, "codes/*.tsv")
	if err != nil || len(files) == 0 {
		t.Fatalf("no code lists embedded: %v", err)
	}
	for _, f := range files {
		if len(loadCodeTable(f[len("codes/"):]).byCode) == 0 {
			t.Errorf("%s is empty", f)
		}
	}

	requestable := 0
	for code := range serviceTypeNames.byCode {
		if requestableServiceType(code) {
			requestable++
		}
	}
	counts := []struct {
		name      string
		got, want int
	}{
		{"service types (all)", len(serviceTypeNames.byCode), 243},
		{"service types a request may ask for", requestable, 187},
		{"EB01 eligibility codes", len(eligibilityCodeNames.byCode), 35},
		{"EB04 insurance types", len(insuranceTypeNames.byCode), 45},
		{"EB06 time periods", len(timePeriodNames.byCode), 19},
		{"EB09 quantity qualifiers", len(quantityQualifierNames.byCode), 18},
		{"AAA04 follow-up actions", len(followupActionNames.byCode), 8},
		{"HSD07 delivery frequencies", len(deliveryFrequencyNames.byCode), 39},
	}
	for _, c := range counts {
		if c.got != c.want {
			t.Errorf("%s: %d codes, want %d", c.name, c.got, c.want)
		}
	}

	// Spot checks against the contract's worked example.
	for _, tt := range []struct {
		table      *codeTable
		code, want string
	}{
		{serviceTypeNames, "30", "Health Benefit Plan Coverage"},
		{serviceTypeNames, "A6", "Psychotherapy"},
		{serviceTypeNames, "V28", "Crowns"},
		{eligibilityCodeNames, "C", "Deductible"},
		{coverageLevelNames, "FAM", "Family"},
		{timePeriodNames, "23", "Calendar Year"},
		{yesNoNames, "W", "Not Applicable"},
		{relationshipNames, "01", "Spouse"},
		{placeOfServiceNames, "11", "Office"},
		{codeListQualifierNames, "ZZ", "Mutually Defined"},
		{communicationModeNames, "UR", "Uniform Resource Locator (URL)"},
		{entityIdentifierNames, "PR", "Payer"},
		{followupActionNames, "C", "Please Correct and Resubmit"},
		{aaaReasons, "43", "Invalid/Missing Provider Identification"},
		{serviceTypeNames, "ZZZ", "ZZZ"}, // unknown codes pass through
	} {
		if got := tt.table.name(tt.code); got != tt.want {
			t.Errorf("name(%q) = %q, want %q", tt.code, got, tt.want)
		}
	}
	// The spec gives advice for these AAA codes; each must carry some.
	for _, code := range []string{"42", "43", "72", "73", "75", "79"} {
		if aaaReasons.column(code, 1) == "" {
			t.Errorf("AAA %s has no possible resolution", code)
		}
	}
	if referenceQualifierKeys.column("6P", refPlanDescriptionKey) != "groupDescription" ||
		dateQualifierKeys.column("342", dateBenefitKey) != "premiumPaidtoDateBegin" {
		t.Error("references.tsv / dates.tsv columns are not where the code expects them")
	}
}

// TestCodeTablesDated: every list records the date it was last brought up
// to date and its source ("# as of YYYY-MM-DD: source").
func TestCodeTablesDated(t *testing.T) {
	files, _ := fs.Glob(codeFiles, "codes/*.tsv")
	asOf := regexp.MustCompile(`(?m)^# as of \d{4}-\d{2}-\d{2}: \S`)
	for _, f := range files {
		data, _ := codeFiles.ReadFile(f)
		if !asOf.Match(data) {
			t.Errorf("%s has no \"# as of YYYY-MM-DD: source\" line", f)
		}
	}
	// The place of service list is the CMS code set, codes added since
	// 2014 included (the guide's pos list is tested against this file).
	for _, code := range []string{"02", "10", "17", "18", "19", "27", "58", "66"} {
		if !placeOfServiceNames.has(code) {
			t.Errorf("place of service %s is missing", code)
		}
	}
}

// TestCodeKey: codeKey gives every string of 1–3 characters of 0-9 A-Z a
// place of its own, and 0 to anything else.
func TestCodeKey(t *testing.T) {
	const chars = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
	seen := map[int]string{}
	var all []string
	for _, a := range chars {
		all = append(all, string(a))
		for _, b := range chars {
			all = append(all, string(a)+string(b))
			for _, c := range chars {
				all = append(all, string(a)+string(b)+string(c))
			}
		}
	}
	for _, c := range all {
		k := codeKey(c)
		if k <= 0 || k >= len(codeIDs) || seen[k] != "" || codeKey([]byte(c)) != k {
			t.Fatalf("codeKey(%q) = %d (seen for %q)", c, k, seen[k])
		}
		seen[k] = c
	}
	for _, c := range []string{"", "a", "1a", "ZZ ", "*", "A:B", "\x00", "ÄB", "1234", "é"} {
		if k := codeKey(c); k != 0 {
			t.Errorf("codeKey(%q) = %d, want 0", c, k)
		}
	}
}

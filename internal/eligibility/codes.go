package eligibility

import (
	"embed"
	"fmt"
	"strings"
)

// The code lists live in codes/*.tsv: one table per file, one code a line,
// tab-separated columns, "#" comments. Changing a name is editing data, not
// code; TestCodeTables checks that every file parses.
//
//go:embed codes/*.tsv
var codeFiles embed.FS

// codeTable maps a code to the rest of its line's columns.
type codeTable map[string][]string

// name returns the first column for code, or the code itself when the list
// does not know it: payers send non-standard codes and the contract passes
// them through rather than dropping them.
func (t codeTable) name(code string) string {
	if cols, ok := t[code]; ok && len(cols) > 0 {
		return cols[0]
	}
	return code
}

// has reports whether code is in the table.
func (t codeTable) has(code string) bool {
	_, ok := t[code]
	return ok
}

// column returns column i (0 = the name) for code, "" when absent or "-".
func (t codeTable) column(code string, i int) string {
	cols := t[code]
	if i >= len(cols) || cols[i] == "-" {
		return ""
	}
	return cols[i]
}

// loadCodeTable parses one embedded file. A malformed file is a build
// defect, so it panics; TestCodeTables runs every loader.
func loadCodeTable(file string) codeTable {
	data, err := codeFiles.ReadFile("codes/" + file)
	if err != nil {
		panic(fmt.Sprintf("eligibility: code list %s: %v", file, err))
	}
	t := codeTable{}
	for n, line := range strings.Split(string(data), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || cols[0] == "" || cols[1] == "" {
			panic(fmt.Sprintf("eligibility: code list %s line %d: want code<TAB>name", file, n+1))
		}
		if _, dup := t[cols[0]]; dup {
			panic(fmt.Sprintf("eligibility: code list %s line %d: duplicate code %q", file, n+1, cols[0]))
		}
		t[cols[0]] = cols[1:]
		knownCodes[cols[0]] = cols[0]
	}
	return t
}

// knownCodes holds every code of every table, each as its own string (see
// code).
var knownCodes = map[string]string{}

// The tables, loaded once at start-up (a few kilobytes).
var (
	serviceTypeNames       = loadCodeTable("service_types.tsv")
	eligibilityCodeNames   = loadCodeTable("eligibility_codes.tsv")
	coverageLevelNames     = loadCodeTable("coverage_levels.tsv")
	insuranceTypeNames     = loadCodeTable("insurance_types.tsv")
	timePeriodNames        = loadCodeTable("time_periods.tsv")
	quantityQualifierNames = loadCodeTable("quantity_qualifiers.tsv")
	yesNoNames             = loadCodeTable("yes_no.tsv")
	deliveryQuantityNames  = loadCodeTable("service_delivery_quantities.tsv")
	measurementUnitNames   = loadCodeTable("measurement_units.tsv")
	deliveryFrequencyNames = loadCodeTable("delivery_frequencies.tsv")
	deliveryTimeNames      = loadCodeTable("delivery_times.tsv")
	aaaReasons             = loadCodeTable("aaa_reasons.tsv")
	followupActionNames    = loadCodeTable("followup_actions.tsv")
	communicationModeNames = loadCodeTable("communication_modes.tsv")
	relationshipNames      = loadCodeTable("relationships.tsv")
	entityIdentifierNames  = loadCodeTable("entity_identifiers.tsv")
	entityTypeNames        = loadCodeTable("entity_types.tsv")
	codeListQualifierNames = loadCodeTable("code_list_qualifiers.tsv")
	productQualifierNames  = loadCodeTable("product_service_qualifiers.tsv")
	providerCodeNames      = loadCodeTable("provider_codes.tsv")
	placeOfServiceNames    = loadCodeTable("places_of_service.tsv")
	dateQualifierKeys      = loadCodeTable("dates.tsv")
	referenceQualifierKeys = loadCodeTable("references.tsv")
)

// Column indexes of references.tsv after the qualifier.
const (
	refPlanKey = iota
	refPlanDescriptionKey
	refBenefitKey
	refBenefitDescriptionKey
)

// Column indexes of dates.tsv after the qualifier.
const (
	datePlanKey = iota
	dateBenefitKey
)

// requestableServiceType reports whether a request may ask for code: the
// 005010 list without the dental extensions that only appear in responses.
func requestableServiceType(code string) bool {
	cols, ok := serviceTypeNames[code]
	return ok && (len(cols) < 2 || cols[1] != "response")
}

// ServiceTypeName returns the contract's name for a service type code (the
// code itself when unknown).
func ServiceTypeName(code string) string { return serviceTypeNames.name(code) }

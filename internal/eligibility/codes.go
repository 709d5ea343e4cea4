package eligibility

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"

	"github.com/clearhouse/clearhouse/internal/jsonstr"
)

// The code lists live in codes/*.tsv: one table per file, one code a line,
// tab-separated columns, "#" comments. Changing a name is editing data, not
// code; TestCodeTables checks that every file parses.
//
//go:embed codes/*.tsv
var codeFiles embed.FS

// codeTable maps a code to the rest of its line's columns. A 271's
// mapping looks up ~300 codes a check: by the code's place in codeIDs
// (arithmetic on its 1–3 bytes and two loads) rather than by hashing it
// into a map twice (once for the shared copy of the code, once for its
// name), which was a tenth of a check's instructions outside HTTP and the
// database.
type codeTable struct {
	byCode map[string][]string // every code's columns
	slots  []uint16            // by code id: 1 + the code's row, 0 when absent
	rows   [][]string
}

// cols returns the columns for code, nil when the table does not know it.
func (t *codeTable) cols(code string) []string { return t.colsByID(codeIDOf(code)) }

func (t *codeTable) colsByID(id uint16) []string {
	if int(id) < len(t.slots) {
		if r := t.slots[id]; r != 0 {
			return t.rows[r-1]
		}
	}
	return nil
}

// name returns the first column for code, or the code itself when the list
// does not know it: payers send non-standard codes and the contract passes
// them through rather than dropping them.
func (t *codeTable) name(code string) string {
	if cols := t.cols(code); len(cols) > 0 {
		return cols[0]
	}
	return code
}

// has reports whether code is in the table.
func (t *codeTable) has(code string) bool { return t.cols(code) != nil }

// column returns column i (0 = the name) for code, "" when absent or "-".
func (t *codeTable) column(code string, i int) string {
	cols := t.cols(code)
	if i >= len(cols) || cols[i] == "-" {
		return ""
	}
	return cols[i]
}

// loadCodeTable parses one embedded file. A malformed file is a build
// defect, so it panics; TestCodeTables runs every loader.
func loadCodeTable(file string) *codeTable {
	at, ok := codeFileAt[file]
	if !ok {
		panic(fmt.Sprintf("eligibility: no code list %s", file))
	}
	t := &codeTable{byCode: map[string][]string{}}
	for n, line := range strings.Split(codeText[at[0]:at[1]], "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		cols := strings.Split(line, "\t")
		if len(cols) < 2 || cols[0] == "" || cols[1] == "" {
			panic(fmt.Sprintf("eligibility: code list %s line %d: want code<TAB>name", file, n+1))
		}
		if _, dup := t.byCode[cols[0]]; dup {
			panic(fmt.Sprintf("eligibility: code list %s line %d: duplicate code %q", file, n+1, cols[0]))
		}
		key := codeKey(cols[0])
		if key == 0 {
			panic(fmt.Sprintf("eligibility: code list %s line %d: code %q is not 1–3 characters of 0-9 and A-Z", file, n+1, cols[0]))
		}
		id := codeIDs[key]
		if id == 0 {
			codeStrings = append(codeStrings, cols[0])
			id = uint16(len(codeStrings) - 1)
			codeIDs[key] = id
		}
		if int(id) >= len(t.slots) {
			t.slots = append(t.slots, make([]uint16, int(id)+1-len(t.slots))...)
		}
		for _, c := range cols {
			codeTextPlain = codeTextPlain && jsonstr.Plain(c, false)
		}
		t.byCode[cols[0]] = cols[1:]
		t.rows = append(t.rows, cols[1:])
		t.slots[id] = uint16(len(t.rows))
	}
	return t
}

// codeText is every code list's text in one string, so that the tables'
// codes and names are all slices of it: the answer's JSON copies any of
// them without a look for characters to escape when none of them has one
// (codeTextPlain, see jsonw.value). codeFileAt is where each file's text
// is in it.
var codeText, codeFileAt = readCodeFiles()

// codeTextPlain is set when no code or column of any table loaded needs
// escaping in JSON (outside HTML mode).
var codeTextPlain = true

func readCodeFiles() (string, map[string][2]int) {
	files, err := fs.Glob(codeFiles, "codes/*.tsv")
	if err != nil {
		panic(fmt.Sprintf("eligibility: code lists: %v", err))
	}
	var b strings.Builder
	at := map[string][2]int{}
	for _, f := range files {
		data, err := codeFiles.ReadFile(f)
		if err != nil {
			panic(fmt.Sprintf("eligibility: code list %s: %v", f, err))
		}
		at[path.Base(f)] = [2]int{b.Len(), b.Len() + len(data)}
		b.Write(data)
	}
	return b.String(), at
}

// Every code of every table is 1–3 characters of 0-9 and A-Z, so it has
// a place of its own among 37³ (each character a digit 1–36, an absent
// one 0): codeIDs holds, at that place, the code's id — its index in
// codeStrings, each code as its own string (so mapping a 271's codes
// allocates nothing for the usual ones). Id 0 is no code; so is place 0.
var (
	codeIDs     [37 * 37 * 37]uint16
	codeStrings = []string{""}
)

// codeDigit is a code character's digit in codeKey, 0 for a character no
// code has.
var codeDigit = func() (d [256]uint8) {
	for c := '0'; c <= '9'; c++ {
		d[c] = uint8(c-'0') + 1
	}
	for c := 'A'; c <= 'Z'; c++ {
		d[c] = uint8(c-'A') + 11
	}
	return d
}()

// codeKey is c's place in codeIDs, 0 when c cannot be a code. A
// character outside 0-9 A-Z has digit 0, which makes the product 0.
func codeKey[T string | []byte](c T) int {
	switch len(c) {
	case 1:
		return int(codeDigit[c[0]]) * (37 * 37)
	case 2:
		d0, d1 := int(codeDigit[c[0]]), int(codeDigit[c[1]])
		return (d0*37 + d1) * 37 * min(d0, d1, 1)
	case 3:
		d0, d1, d2 := int(codeDigit[c[0]]), int(codeDigit[c[1]]), int(codeDigit[c[2]])
		return ((d0*37+d1)*37 + d2) * min(d0, d1, d2, 1)
	}
	return 0
}

// codeIDOf is c's code id, 0 when no table has it.
func codeIDOf[T string | []byte](c T) uint16 { return codeIDs[codeKey(c)] }

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
	cols := serviceTypeNames.cols(code)
	return cols != nil && (len(cols) < 2 || cols[1] != "response")
}

// ServiceTypeName returns the contract's name for a service type code (the
// code itself when unknown).
func ServiceTypeName(code string) string { return serviceTypeNames.name(code) }

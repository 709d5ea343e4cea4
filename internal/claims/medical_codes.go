package claims

import "strings"

// Code shapes of medical claims (837P and 837I). The code sets themselves
// (ICD-10-CM, CPT, HCPCS, NUBC revenue codes) are licensed or too large to
// ship; the edits check each code's form, which catches the common
// mistakes: a dot in an ICD-10 code, a CDT code on a medical claim, a
// three-digit revenue code.

var (
	professionalAttachmentTypes = []string{"03", "04", "05", "06", "07", "08", "09", "10", "11", "13", "15", "21", "A3", "A4",
		"AM", "AS", "B2", "B3", "B4", "BR", "BS", "BT", "CB", "CK", "CT", "D2", "DA", "DB", "DG", "DJ", "DS", "EB", "HC", "HR",
		"I5", "IR", "LA", "M1", "MT", "NN", "OB", "OC", "OD", "OE", "OX", "OZ", "P4", "P5", "PE", "PN", "PO", "PQ", "PY", "PZ",
		"RB", "RR", "RT", "RX", "SG", "V5", "XP"}
	procedureIdentifiers = []string{"HC", "ER", "IV", "WK"}
	professionalUnits    = []string{"UN", "MJ"}
	institutionalUnits   = []string{"UN", "DA"}
	drugQualifiers       = []string{"EN", "EO", "HI", "N4", "ON", "UK", "UP"}
	drugUnits            = []string{"F2", "GR", "ME", "ML", "UN"}
	ambulanceReasonCodes = []string{"A", "B", "C", "D", "E"}
	ambulanceConditions  = []string{"01", "04", "05", "06", "07", "08", "09", "12"}
)

// validICD10 reports whether s has the form of an ICD-10-CM code sent the
// X12 way: a letter, a digit, then one to five letters or digits, no dot.
func validICD10(s string) bool {
	if len(s) < 3 || len(s) > 7 || !alphanumeric(s) {
		return false
	}
	return isUpper(s[0]) && s[1] >= '0' && s[1] <= '9'
}

// icd10Problem says what is wrong with a diagnosis code, or "".
func icd10Problem(s string) string {
	switch {
	case strings.Contains(s, "."):
		return "must be sent without the dot (F1111, not F11.11); got %q"
	case !validICD10(strings.ToUpper(s)):
		return "must be an ICD-10-CM code: a letter, a digit, then up to five letters or digits (for example F1111); got %q"
	case strings.ToUpper(s) != s:
		return "must be written in capital letters; got %q"
	}
	return ""
}

// validHCPCS reports whether s has the form of a HCPCS code (qualifier HC):
// a CPT code (five digits, or four digits and F, T or U for categories II
// and III and PLA codes) or a HCPCS Level II code (a letter A–V and four
// digits). CDT codes (D and four digits) are dental and refused.
func validHCPCS(s string) bool {
	if len(s) != 5 {
		return false
	}
	if allDigits(s) {
		return true
	}
	if allDigits(s[:4]) && (s[4] == 'F' || s[4] == 'T' || s[4] == 'U') {
		return true
	}
	return s[0] >= 'A' && s[0] <= 'V' && s[0] != 'D' && allDigits(s[1:])
}

// validRevenueCode reports whether s is a NUBC revenue code: four digits
// starting with 0 (0100–0999) or 1 (1000–1099 since 2021); 0001 is the
// total line and is not billed.
func validRevenueCode(s string) bool {
	return len(s) == 4 && allDigits(s) && (s[0] == '0' || (s[0] == '1' && s[1] == '0')) && s != "0000" && s != "0001"
}

// validNDC reports whether s is an 11-digit NDC in 5-4-2 form without
// dashes (qualifier N4).
func validNDC(s string) bool { return len(s) == 11 && allDigits(s) }

func isUpper(c byte) bool { return c >= 'A' && c <= 'Z' }

// positiveQuantity reports whether s is a number above zero with at most
// three decimals (X12 R elements: units, minutes, miles).
func positiveQuantity(s string, maxWhole int) bool {
	whole, frac, dot := strings.Cut(s, ".")
	if !allDigits(whole) || len(whole) > maxWhole || (dot && (len(frac) == 0 || len(frac) > 3 || !allDigits(frac))) {
		return false
	}
	return strings.Trim(whole+frac, "0") != ""
}

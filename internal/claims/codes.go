package claims

import "slices"

// Code lists of the coded dental fields (api-contract.md §4.1 and the
// 005010X224A2 guide). Lists that X12 takes from outside code sources
// (place of service, taxonomy) are checked for form, not membership, except
// place of service, whose CMS list is short and stable.

var (
	genderCodes             = []string{"M", "F", "U"}
	responsibilityCodes     = []string{"A", "B", "C", "D", "E", "F", "G", "H", "P", "S", "T", "U"}
	insuranceTypeCodes      = []string{"12", "13", "14", "15", "16", "41", "42", "43", "47"}
	relationshipCodes       = []string{"01", "19", "20", "21", "39", "40", "53", "G8"}
	otherRelationshipCodes  = []string{"01", "18", "19", "20", "21", "39", "40", "53", "G8"}
	frequencyCodes          = []string{"1", "7", "8"}
	signatureCodes          = []string{"Y", "N"}
	releaseCodes            = []string{"Y", "I"}
	assignmentCodes         = []string{"Y", "N", "W"}
	planParticipationCodes  = []string{"A", "B", "C"}
	claimIdentifierCodes    = []string{"CH", "RP", "31"}
	usageIndicatorCodes     = []string{"P", "T"}
	specialProgramCodes     = []string{"01", "02", "03", "05", "09"}
	relatedCausesCodes      = []string{"AA", "EM", "OA"}
	delayReasonCodes        = []string{"1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "11", "15"}
	toothStatusCodes        = []string{"E", "M"}
	prosthesisCodes         = []string{"I", "R"}
	surfaceCodes            = []string{"B", "D", "F", "I", "L", "M", "O"}
	exceptionCodes          = []string{"1", "2", "3", "4", "5", "6", "7"}
	adjustmentGroupCodes    = []string{"CO", "CR", "OA", "PI", "PR"}
	payerIDTypeCodes        = []string{"PI", "XV"}
	insuredIDTypeCodes      = []string{"MI", "II"}
	attachmentTypeCodes     = []string{"B4", "DA", "DG", "EB", "OZ", "P6", "RB", "RR"}
	attachmentTransmission  = []string{"AA", "BM", "EL", "EM", "FT", "FX"}
	contractTypeCodes       = []string{"01", "02", "03", "04", "05", "06", "09"}
	paySecondaryIDCodes     = []string{"2U", "FY", "NF"}
	payerSecondaryIDCodes   = []string{"2U", "EI", "FY", "NF"}
	facilitySecondaryIDCode = []string{"0B", "G2", "LU"}
)

// claimFilingCodes are SBR09 / claimFilingCode.
var claimFilingCodes = []string{"11", "12", "13", "14", "15", "16", "17", "AM", "BL", "CH", "CI", "DS", "FI",
	"HM", "LM", "MA", "MB", "MC", "OF", "TV", "VA", "WC", "ZZ"}

// oralCavityCodes are the areas of the oral cavity of SV304 (ADA, X12 code
// source 135): 00 entire oral cavity, 01 maxillary arch, 02 mandibular
// arch, 03–08 sextants, 09 other area, 10 upper right, 20 upper left, 30
// lower left and 40 lower right quadrant, L left, R right. One-digit forms
// 1–8 are accepted and written with their leading zero: the public example
// request of this endpoint sends ["1", "2"].
var oralCavityCodes = []string{"00", "01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "20", "30", "40", "L", "R",
	"1", "2", "3", "4", "5", "6", "7", "8"}

// oralCavityX12 writes an accepted oral cavity code as the guide lists it.
func oralCavityX12(code string) string {
	if len(code) == 1 && code[0] >= '1' && code[0] <= '8' {
		return "0" + code
	}
	return code
}

// placeOfServiceCodes is the CMS place of service list (two digits).
var placeOfServiceCodes = []string{"01", "02", "03", "04", "05", "06", "07", "08", "09", "10", "11", "12", "13", "14", "15", "16",
	"17", "18", "19", "20", "21", "22", "23", "24", "25", "26", "27", "31", "32", "33", "34", "41", "42", "49", "50", "51",
	"52", "53", "54", "55", "56", "57", "58", "60", "61", "62", "65", "66", "71", "72", "81", "99"}

func in(list []string, v string) bool { return slices.Contains(list, v) }

// validTooth reports whether s is a tooth designation of the ADA Universal
// National Tooth Designation System (code source 135, JP): permanent teeth
// 1–32, primary teeth A–T, and supernumerary teeth 51–82 (permanent, tooth
// number + 50) and AS–TS (primary, letter + S).
func validTooth(s string) bool {
	switch len(s) {
	case 1:
		if s[0] >= '1' && s[0] <= '9' {
			return true
		}
		return s[0] >= 'A' && s[0] <= 'T'
	case 2:
		if s[1] == 'S' {
			return s[0] >= 'A' && s[0] <= 'T'
		}
		if s[0] < '0' || s[0] > '9' || s[1] < '0' || s[1] > '9' {
			return false
		}
		n := int(s[0]-'0')*10 + int(s[1]-'0')
		return (n >= 1 && n <= 32 && s[0] != '0') || (n >= 51 && n <= 82)
	}
	return false
}

// providerRefCodes are the qualifiers of a provider loop's secondary REF
// (state license, UPIN, commercial number, location number); each loop's
// own subset is checked by the guide pass on the built claim.
var providerRefCodes = []string{"0B", "1G", "G2", "LU"}

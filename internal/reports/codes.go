package reports

import (
	"bufio"
	"embed"
	"strings"
	"sync"
)

// The code lists a report describes codes with. CARC and RARC texts are
// data files (codes/*.tsv, with their source and date); the short lists
// below are the X12 code values of single elements (CAS01, SVC01-1, LQ01,
// PLB03-1), whose meanings the 835 guide fixes.
//
//go:embed codes/*.tsv
var codeFiles embed.FS

var (
	codesOnce sync.Once
	carcText  map[string]string
	rarcText  map[string]string
)

func loadCodes() {
	carcText = readTSV("codes/carc.tsv")
	rarcText = readTSV("codes/rarc.tsv")
}

func readTSV(name string) map[string]string {
	f, err := codeFiles.Open(name)
	if err != nil {
		panic("reports: " + err.Error()) // embedded: cannot happen in a build that compiled
	}
	defer f.Close()
	out := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		code, text, ok := strings.Cut(line, "\t")
		if ok {
			out[code] = text
		}
	}
	return out
}

// CARC describes a Claim Adjustment Reason Code; "" when the code is not in
// the shipped list.
func CARC(code string) string {
	codesOnce.Do(loadCodes)
	return carcText[code]
}

// RARC describes a Remittance Advice Remark Code; "" when unknown.
func RARC(code string) string {
	codesOnce.Do(loadCodes)
	return rarcText[code]
}

// adjustmentGroups are CAS01's values (835 guide, 2100 and 2110 CAS).
var adjustmentGroups = map[string]string{
	"CO": "Contractual Obligations",
	"CR": "Corrections and Reversals",
	"OA": "Other adjustments",
	"PI": "Payor Initiated Reductions",
	"PR": "Patient Responsibility",
}

// serviceQualifiers are SVC01-1's values.
var serviceQualifiers = map[string]string{
	"AD": "American Dental Association Codes",
	"ER": "Jurisdiction Specific Procedure and Supply Codes",
	"HC": "Health Care Financing Administration Common Procedural Coding System (HCPCS) Codes",
	"HP": "Health Insurance Prospective Payment System (HIPPS) Skilled Nursing Facility Rate Code",
	"IV": "Home Infusion EDI Coalition (HIEC) Product/Service Code",
	"N4": "National Drug Code in 5-4-2 Format",
	"NU": "National Uniform Billing Committee (NUBC) UB92 Codes",
	"WK": "Advanced Billing Concepts (ABC) Codes",
}

// remarkLists are LQ01's values.
var remarkLists = map[string]string{
	"HE": "Claim Payment Remark Codes",
	"RX": "National Council for Prescription Drug Programs Reject/Payment Codes",
}

// providerAdjustmentReasons are PLB03-1's values (835 guide, PLB).
var providerAdjustmentReasons = map[string]string{
	"50": "Late Charge",
	"51": "Interest Penalty Charge",
	"72": "Authorized Return",
	"90": "Early Payment Allowance",
	"AH": "Origination Fee",
	"AM": "Applied to Borrower's Account",
	"AP": "Acceleration of Benefits",
	"B2": "Rebate",
	"B3": "Recovery Allowance",
	"BD": "Bad Debt Adjustment",
	"BN": "Bonus",
	"C5": "Temporary Allowance",
	"CR": "Capitation Interest",
	"CS": "Adjustment",
	"CT": "Capitation Payment",
	"CV": "Capital Passthru",
	"CW": "Certified Registered Nurse Anesthetist Passthru",
	"DM": "Direct Medical Education Passthru",
	"E3": "Withholding",
	"FB": "Forwarding Balance",
	"FC": "Fund Allocation",
	"GO": "Graduate Medical Education Passthru",
	"HM": "Hemophilia Clotting Factor Supplement",
	"IP": "Incentive Premium Payment",
	"IR": "Internal Revenue Service Withholding",
	"IS": "Interim Settlement",
	"J1": "Nonreimbursable",
	"L3": "Penalty",
	"L6": "Interest Owed",
	"LE": "Levy",
	"LS": "Lump Sum",
	"OA": "Organ Acquisition Passthru",
	"OB": "Offset for Affiliated Providers",
	"PI": "Periodic Interim Payment",
	"PL": "Payment Final",
	"RA": "Retro-activity Adjustment",
	"RE": "Return on Equity",
	"SL": "Student Loan Repayment",
	"TL": "Third Party Liability",
	"WO": "Overpayment Recovery",
	"WU": "Unspecified Recovery",
}

var (
	statusOnce     sync.Once
	categoryText   map[string]string
	statusCodeText map[string]string
)

func loadStatusCodes() {
	categoryText = readTSV("codes/claimstatus-category.tsv")
	statusCodeText = readTSV("codes/claimstatus.tsv")
}

// statusCategory describes a claim status category code (STC01-1); ""
// when the code is not in the shipped list.
func statusCategory(code string) string {
	statusOnce.Do(loadStatusCodes)
	return categoryText[code]
}

// statusCode describes a claim status code (STC01-2); "" when unknown.
func statusCode(code string) string {
	statusOnce.Do(loadStatusCodes)
	return statusCodeText[code]
}

// entityNames are entity identifier codes (element 98) as the 277 report
// names them.
var entityNames = map[string]string{
	"03": "Dependent", "36": "Employer", "40": "Receiver", "41": "Submitter", "71": "Attending Physician",
	"72": "Operating Physician", "73": "Other Physician", "77": "Service Location", "82": "Rendering Provider",
	"85": "Billing Provider", "87": "Pay-to Provider", "1P": "Provider", "1Z": "Home Health Care",
	"AY": "Clearinghouse", "DK": "Ordering Physician", "DN": "Referring Provider", "DQ": "Supervising Physician",
	"FA": "Facility", "GB": "Other Insured", "HK": "Subscriber", "IL": "Insured or Subscriber", "LI": "Independent Lab",
	"MSC": "Mammography Screening Center", "PR": "Payer", "PRP": "Primary Payer", "QB": "Purchase Service Provider",
	"QC": "Patient", "QD": "Responsible Party", "SEP": "Secondary Payer", "TL": "Testing Laboratory",
	"TTP": "Tertiary Payer", "TU": "Third Party Repricing Organization (TPO)",
}

func entityName(code string) string { return entityNames[code] }

// ServiceQualifier describes a product or service id qualifier (SVC01-1).
func ServiceQualifier(code string) string { return serviceQualifiers[code] }

// StatusCategory describes a claim status category code; "" when unknown.
func StatusCategory(code string) string { return statusCategory(code) }

// StatusCode describes a claim status code; "" when unknown.
func StatusCode(code string) string { return statusCode(code) }

// EntityName names an entity identifier code as the reports do.
func EntityName(code string) string { return entityName(code) }

package payers

import (
	"maps"
	"slices"
	"strings"
)

// The hosted Payers API names each transaction type twice: in a record's
// transactionSupport (eligibilityCheck, …) and in its enrollment
// processes (eligibilityInquiry, …); its CSV has a third set of column
// names. txTypes is the one table of all three, in the CSV's column order,
// with the X12 code Clearhouse exchanges for the type ("" for the two it
// does not exchange).
type txType struct {
	Key     string // transactionSupport key and search filter name
	Code    string // our transaction code; "" when Clearhouse does not exchange it
	Process string // transactionEnrollmentProcesses key
	// CSV column names: the support flag, its enrollment flag, and the
	// prefix of the enrollment process columns.
	CSVSupport, CSVEnrollment, CSVProcess string
}

var txTypes = []txType{
	{"eligibilityCheck", Eligibility, "eligibilityInquiry", "EligibilityInquiry", "EligibilityInquiryEnrollmentRequired", "EligibilityInquiryEnrollment"},
	{"claimStatus", ClaimStatus, "claimStatusInquiry", "ClaimStatusInquiry", "ClaimStatusInquiryEnrollmentRequired", "ClaimStatusInquiryEnrollment"},
	{"professionalClaimSubmission", ProfessionalClaim, "professionalClaim", "ProfessionalClaim", "ProfessionalClaimEnrollmentRequired", "ProfessionalClaimEnrollment"},
	{"institutionalClaimSubmission", InstitutionalClaim, "institutionalClaim", "InstitutionalClaim", "InstitutionalClaimEnrollmentRequired", "InstitutionalClaimEnrollment"},
	{"dentalClaimSubmission", DentalClaim, "dentalClaim", "DentalClaim", "DentalClaimEnrollmentRequired", "DentalClaimEnrollment"},
	{"claimPayment", Remittance, "claimPayment", "ClaimPaymentAdvice", "ClaimPaymentAdviceEnrollmentRequired", "ClaimPaymentEnrollment"},
	{"coordinationOfBenefits", "", "coordinationOfBenefits", "CoordinationOfBenefits", "CoordinationOfBenefitsEnrollmentRequired", "CoordinationOfBenefitsEnrollment"},
	{"unsolicitedClaimAttachment", "", "unsolicitedClaimAttachment", "ClaimAttachmentsSupport", "ClaimAttachmentsSupportEnrollmentRequired", "ClaimAttachmentEnrollment"},
}

// TransactionKeys lists the transactionSupport keys, which are also the
// search's filter parameters.
func TransactionKeys() []string {
	keys := make([]string, len(txTypes))
	for i, t := range txTypes {
		keys[i] = t.Key
	}
	return keys
}

// TransactionKey is the transactionSupport key of a transaction code
// (Eligibility → "eligibilityCheck"); "" for an unknown code.
func TransactionKey(code string) string {
	for _, t := range txTypes {
		if t.Code != "" && t.Code == code {
			return t.Key
		}
	}
	return ""
}

func txTypeByKey(key string) (txType, bool) {
	for _, t := range txTypes {
		if t.Key == key {
			return t, true
		}
	}
	return txType{}, false
}

// Support is the payer's SUPPORTED, ENROLLMENT_REQUIRED or NOT_SUPPORTED
// for a transaction code, as this server routes it.
func (p Payer) Support(code string) string {
	switch {
	case !p.Supports(code):
		return NotSupported
	case slices.Contains(p.EnrollmentRequired, code):
		return EnrollmentRequired
	}
	return Supported
}

// supportByKey is the payer's value for a transactionSupport key: the
// exchanged types as Support says, the others as the directory file had
// them (NOT_SUPPORTED when it had nothing).
func (p Payer) supportByKey(t txType) string {
	if t.Code != "" {
		return p.Support(t.Code)
	}
	if v := p.OtherSupport[t.Key]; v != "" {
		return v
	}
	return NotSupported
}

// apiSupport is the value a record shows for a transactionSupport key
// (Record): NOT_SUPPORTED for the types Clearhouse does not exchange.
func (p Payer) apiSupport(key string) string {
	t, ok := txTypeByKey(key)
	if !ok || t.Code == "" {
		return NotSupported
	}
	return p.Support(t.Code)
}

// NeedsEnrollment reports whether the payer takes the transaction code
// only from enrolled providers.
func (p Payer) NeedsEnrollment(code string) bool {
	return p.Supports(code) && slices.Contains(p.EnrollmentRequired, code)
}

// routeCodes are the transaction codes each route type carries: a payer
// with a route of the type is at least SUPPORTED for each of them.
var routeCodes = map[string][]string{
	RouteEligibility: {Eligibility},
	RouteClaimStatus: {ClaimStatus},
	RouteClaims:      {ProfessionalClaim, InstitutionalClaim, DentalClaim},
}

// joinRoutes adds to each payer's transactions those its "connections"
// route: whatever the directory data says, a transaction the operator
// routes to an upstream is one the payer takes through this server. The
// single "connection" form routes only what the payer lists, so it adds
// nothing.
func (d *Directory) joinRoutes() {
	for i := range d.payers {
		p := &d.payers[i]
		for _, typ := range slices.Sorted(maps.Keys(p.Connections)) {
			if len(p.Connections[typ]) == 0 {
				continue
			}
			for _, code := range routeCodes[typ] {
				if !slices.Contains(p.Transactions, code) {
					p.Transactions = append(p.Transactions, code)
				}
			}
		}
	}
}

// enrollmentKey keys Directory.enrolled.
func enrollmentKey(payerID, code, accountID string) string {
	return normalizeID(payerID) + "\x00" + code + "\x00" + accountID
}

// Enrolled reports whether the operator's directory file records the
// account as enrolled with the payer (its primary id) for the code.
func (d *Directory) Enrolled(payerID, code, accountID string) bool {
	return d.enrolled[enrollmentKey(payerID, code, accountID)]
}

// NotEnrolledError: the payer takes the transaction only from enrolled
// providers and the directory records no enrollment of the account.
type NotEnrolledError struct {
	Payer       Payer
	Transaction string
}

func (e *NotEnrolledError) Error() string {
	return "Payer " + e.Payer.ID + " (" + e.Payer.Name + ") requires transaction enrollment for " +
		TransactionKey(e.Transaction) + " (" + e.Transaction + ") and this account is not enrolled with it. " +
		"Nothing was sent. Enroll with the payer, then ask the operator of this server to record the enrollment " +
		"in the payer directory file (\"enrollments\", see docs/api/payers.md)."
}

// CheckEnrollment returns a *NotEnrolledError when the payer needs
// enrollment for the code and the account has none. Only production
// traffic is checked: test mode reaches the mock payers, which need none.
func (d *Directory) CheckEnrollment(p Payer, code string, production bool, accountID string) error {
	if !production || !p.NeedsEnrollment(code) || d.Enrolled(p.ID, code, accountID) {
		return nil
	}
	return &NotEnrolledError{Payer: p, Transaction: code}
}

// Suggest names up to n payers close to an id or name the directory does
// not know, as "87726 (UnitedHealthcare)", best first.
func (d *Directory) Suggest(typed string, n int) []string {
	if len(typed) > MaxQueryLength {
		typed = typed[:MaxQueryLength]
	}
	hits := d.Find(Query{Text: typed})
	var out []string
	for _, h := range hits {
		if len(out) == n {
			break
		}
		out = append(out, h.Payer.ID+" ("+h.Payer.Name+")")
	}
	return out
}

// DidYouMean is " Did you mean …?" for Suggest's answer, "" when empty.
func DidYouMean(suggestions []string) string {
	if len(suggestions) == 0 {
		return ""
	}
	return " Did you mean " + strings.Join(suggestions, ", ") + "?"
}

// Known reports whether an id or alias names a payer.
func (d *Directory) Known(id string) bool {
	_, ok := d.index[normalizeID(id)]
	return ok
}

package payers

import "strings"

// The directory in the hosted Payers API's shape (GET /2024-04-01/payers,
// /payer/{stediId}, /payers/search): a payer record with its ids, names,
// coverage types and, per transaction type, SUPPORTED or NOT_SUPPORTED.

// Transaction support values of the Payers API.
const (
	Supported          = "SUPPORTED"
	NotSupported       = "NOT_SUPPORTED"
	EnrollmentRequired = "ENROLLMENT_REQUIRED"
)

// Record is a payer as the Payers API shows it.
type Record struct {
	StediID            string             `json:"stediId"`
	PrimaryPayerID     string             `json:"primaryPayerId"`
	DisplayName        string             `json:"displayName"`
	Names              []string           `json:"names"`
	Aliases            []string           `json:"aliases"`
	CoverageTypes      []string           `json:"coverageTypes,omitempty"`
	TransactionSupport TransactionSupport `json:"transactionSupport"`
}

// TransactionSupport says, per transaction type, whether the payer takes
// it. claimSubmission is the hosted API's deprecated name of
// professionalClaimSubmission, kept as it keeps it.
type TransactionSupport struct {
	EligibilityCheck             string `json:"eligibilityCheck"`
	ClaimStatus                  string `json:"claimStatus"`
	ClaimSubmission              string `json:"claimSubmission"`
	ProfessionalClaimSubmission  string `json:"professionalClaimSubmission"`
	InstitutionalClaimSubmission string `json:"institutionalClaimSubmission"`
	DentalClaimSubmission        string `json:"dentalClaimSubmission"`
	ClaimPayment                 string `json:"claimPayment"`
	CoordinationOfBenefits       string `json:"coordinationOfBenefits"`
	UnsolicitedClaimAttachment   string `json:"unsolicitedClaimAttachment"`
}

// Record is the payer's directory entry as a Payers API record. Our ids
// are the payer ids callers send (stediId = primaryPayerId); transactions
// the directory does not list, and those Clearhouse does not exchange
// (coordination of benefits, unsolicited attachments), are NOT_SUPPORTED.
func (p Payer) Record() Record {
	support := func(t string) string {
		if p.Supports(t) {
			return Supported
		}
		return NotSupported
	}
	aliases := p.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	return Record{StediID: p.ID, PrimaryPayerID: p.ID, DisplayName: p.Name, Names: []string{strings.ToUpper(p.Name)},
		Aliases: aliases, CoverageTypes: p.Coverage,
		TransactionSupport: TransactionSupport{
			EligibilityCheck: support(Eligibility), ClaimStatus: support(ClaimStatus),
			ClaimSubmission: support(ProfessionalClaim), ProfessionalClaimSubmission: support(ProfessionalClaim),
			InstitutionalClaimSubmission: support(InstitutionalClaim), DentalClaimSubmission: support(DentalClaim),
			ClaimPayment: support(Remittance), CoordinationOfBenefits: NotSupported, UnsolicitedClaimAttachment: NotSupported,
		}}
}

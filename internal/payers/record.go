package payers

import (
	"maps"
	"slices"
	"strings"
)

// The directory in the hosted Payers API's shape (GET /2024-04-01/payers,
// /payer/{stediId}, /payers/search, /payers/csv): a payer record with its
// ids, names, coverage types, operating states and, per transaction type,
// SUPPORTED, ENROLLMENT_REQUIRED or NOT_SUPPORTED.

// Transaction support values of the Payers API.
const (
	Supported          = "SUPPORTED"
	NotSupported       = "NOT_SUPPORTED"
	EnrollmentRequired = "ENROLLMENT_REQUIRED"
)

// Record is a payer as the Payers API shows it (PayerRecord).
type Record struct {
	StediID                       string             `json:"stediId"`
	PrimaryPayerID                string             `json:"primaryPayerId"`
	DisplayName                   string             `json:"displayName"`
	Names                         []string           `json:"names"`
	Aliases                       []string           `json:"aliases"`
	CoverageTypes                 []string           `json:"coverageTypes,omitempty"`
	OperatingStates               []string           `json:"operatingStates,omitempty"`
	EmployerIdentificationNumbers []string           `json:"employerIdentificationNumbers,omitempty"`
	Enrollment                    *EnrollmentInfo    `json:"enrollment,omitempty"`
	ParentPayerGroupID            string             `json:"parentPayerGroupId,omitempty"`
	TransactionSupport            TransactionSupport `json:"transactionSupport"`
	URLs                          *PayerURLs         `json:"urls,omitempty"`
}

// PayerURLs is the record's urls object.
type PayerURLs struct {
	Website string `json:"website,omitempty"`
}

// EnrollmentInfo is the record's enrollment object: whether a PTAN is
// needed, and per transaction type (eligibilityInquiry, claimPayment, …)
// how enrollment goes.
type EnrollmentInfo struct {
	PtanRequired                   *bool                        `json:"ptanRequired,omitempty"`
	TransactionEnrollmentProcesses map[string]EnrollmentProcess `json:"transactionEnrollmentProcesses,omitempty"`
}

// EnrollmentProcess is one transaction type's enrollment process.
type EnrollmentProcess struct {
	RequestedEffectiveDate string `json:"requestedEffectiveDate,omitempty"`
	// SupportedAggregationPreferences: claimPayment only (NPI, TIN).
	SupportedAggregationPreferences []string `json:"supportedAggregationPreferences,omitempty"`
	Timeframe                       string   `json:"timeframe,omitempty"`
	Type                            string   `json:"type,omitempty"`
}

func (e *EnrollmentInfo) clone() *EnrollmentInfo {
	c := *e
	if e.PtanRequired != nil {
		v := *e.PtanRequired
		c.PtanRequired = &v
	}
	if e.TransactionEnrollmentProcesses != nil {
		c.TransactionEnrollmentProcesses = maps.Clone(e.TransactionEnrollmentProcesses)
		for k, p := range c.TransactionEnrollmentProcesses {
			p.SupportedAggregationPreferences = slices.Clone(p.SupportedAggregationPreferences)
			c.TransactionEnrollmentProcesses[k] = p
		}
	}
	return &c
}

// TransactionSupport says, per transaction type, whether the payer takes
// it. claimSubmission is the hosted API's deprecated name of
// professionalClaimSubmission, kept in the record as it keeps it; a search
// hit's record (SearchPayerTransactionSupport) has no claimSubmission.
type TransactionSupport struct {
	ClaimPayment                 string `json:"claimPayment"`
	ClaimStatus                  string `json:"claimStatus"`
	ClaimSubmission              string `json:"claimSubmission,omitempty"`
	CoordinationOfBenefits       string `json:"coordinationOfBenefits"`
	DentalClaimSubmission        string `json:"dentalClaimSubmission"`
	EligibilityCheck             string `json:"eligibilityCheck"`
	InstitutionalClaimSubmission string `json:"institutionalClaimSubmission"`
	ProfessionalClaimSubmission  string `json:"professionalClaimSubmission"`
	UnsolicitedClaimAttachment   string `json:"unsolicitedClaimAttachment"`
}

// field is the value of a transactionSupport key.
func (t *TransactionSupport) field(key string) *string {
	switch key {
	case "claimPayment":
		return &t.ClaimPayment
	case "claimStatus":
		return &t.ClaimStatus
	case "coordinationOfBenefits":
		return &t.CoordinationOfBenefits
	case "dentalClaimSubmission":
		return &t.DentalClaimSubmission
	case "eligibilityCheck":
		return &t.EligibilityCheck
	case "institutionalClaimSubmission":
		return &t.InstitutionalClaimSubmission
	case "professionalClaimSubmission":
		return &t.ProfessionalClaimSubmission
	case "unsolicitedClaimAttachment":
		return &t.UnsolicitedClaimAttachment
	}
	return nil
}

// Get is the value for a transactionSupport key ("" for an unknown key).
func (t TransactionSupport) Get(key string) string {
	if f := t.field(key); f != nil {
		return *f
	}
	return ""
}

// Record is the payer as the Payers API shows it: what this server
// exchanges with the payer, each type SUPPORTED, ENROLLMENT_REQUIRED or
// NOT_SUPPORTED (Payer.Support, the directory file joined with the
// routes). Coordination of benefits and unsolicited attachments, which
// Clearhouse does not exchange, are NOT_SUPPORTED whatever the directory
// file says. stediId is the payer's hosted id when the directory file
// gave one, else its primary id.
func (p Payer) Record() Record {
	r := p.data()
	r.TransactionSupport.CoordinationOfBenefits = NotSupported
	r.TransactionSupport.UnsolicitedClaimAttachment = NotSupported
	return r
}

// data is the payer as the directory file holds it: Record, with the
// directory file's own values for the types Clearhouse does not exchange
// (what an export writes and an import reads back).
func (p Payer) data() Record {
	aliases := p.Aliases
	if aliases == nil {
		aliases = []string{}
	}
	names := p.Names
	if names == nil {
		names = []string{strings.ToUpper(p.Name)}
	}
	r := Record{StediID: p.StediID, PrimaryPayerID: p.ID, DisplayName: p.Name, Names: names,
		Aliases: aliases, CoverageTypes: p.Coverage, OperatingStates: p.OperatingStates,
		EmployerIdentificationNumbers: p.EmployerIdentificationNumbers, Enrollment: p.Enrollment,
		ParentPayerGroupID: p.ParentPayerGroupID}
	if r.StediID == "" {
		r.StediID = p.ID
	}
	if p.Website != "" {
		r.URLs = &PayerURLs{Website: p.Website}
	}
	for _, t := range txTypes {
		*r.TransactionSupport.field(t.Key) = p.supportByKey(t)
	}
	r.TransactionSupport.ClaimSubmission = r.TransactionSupport.ProfessionalClaimSubmission
	return r
}

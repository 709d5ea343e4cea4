package eligibility

// Request is the body of an eligibility check (api-contract.md §1.1). Field
// names and JSON tags are the contract; unknown fields are ignored so that
// clients written for the original API keep working.
type Request struct {
	// ControlNumber is optional and deprecated upstream: the 270's control
	// numbers always come from our own sequence, because payers reject
	// duplicate interchange control numbers and every mock sample sends
	// 123456789. When present it must be 9 digits and is kept in history.
	ControlNumber                  string      `json:"controlNumber,omitempty"`
	TradingPartnerServiceID        string      `json:"tradingPartnerServiceId"`
	TradingPartnerName             string      `json:"tradingPartnerName,omitempty"`
	ExternalPatientID              string      `json:"externalPatientId,omitempty"`
	EligibilitySearchID            string      `json:"eligibilitySearchId,omitempty"`
	SubmitterTransactionIdentifier string      `json:"submitterTransactionIdentifier,omitempty"`
	PortalUsername                 string      `json:"portalUsername,omitempty"`
	PortalPassword                 string      `json:"portalPassword,omitempty"`
	Provider                       *Provider   `json:"provider,omitempty"`
	InformationReceiverName        *Provider   `json:"informationReceiverName,omitempty"` // deprecated duplicate of Provider
	Subscriber                     *Subscriber `json:"subscriber,omitempty"`
	Dependents                     []Dependent `json:"dependents,omitempty"`
	Encounter                      *Encounter  `json:"encounter,omitempty"`
}

// Provider is the information receiver (270 loop 2100B).
type Provider struct {
	OrganizationName string `json:"organizationName,omitempty"`
	FirstName        string `json:"firstName,omitempty"`
	LastName         string `json:"lastName,omitempty"`
	NPI              string `json:"npi,omitempty"`
	TaxID            string `json:"taxId,omitempty"`
	SSN              string `json:"ssn,omitempty"`

	ServiceProviderNumber   string `json:"serviceProviderNumber,omitempty"`
	PharmacyProcessorNumber string `json:"pharmacyProcessorNumber,omitempty"`
	ServicesPlanID          string `json:"servicesPlanID,omitempty"`
	PayorID                 string `json:"payorId,omitempty"`
	EmployersID             string `json:"employersId,omitempty"` // deprecated, ignored

	StateLicenceNumber                           string `json:"stateLicenceNumber,omitempty"`
	InformationReceiverAdditionalIdentifierState string `json:"informationReceiverAdditionalIdentifierState,omitempty"`
	MedicareProviderNumber                       string `json:"medicareProviderNumber,omitempty"`
	MedicaidProviderNumber                       string `json:"medicaidProviderNumber,omitempty"`
	FacilityIDNumber                             string `json:"facilityIdNumber,omitempty"`
	ContractNumber                               string `json:"contractNumber,omitempty"`
	ContactNumber                                string `json:"contactNumber,omitempty"` // deprecated spelling of ContractNumber
	DevicePinNumber                              string `json:"devicePinNumber,omitempty"`
	SubmitterIDNumber                            string `json:"submitterIdNumber,omitempty"`
	ProviderPlanNetworkIDNumber                  string `json:"providerPlanNetworkIdNumber,omitempty"`
	FacilityNetworkIDNumber                      string `json:"facilityNetworkIdNumber,omitempty"`
	PriorIdentifierNumber                        string `json:"priorIdentifierNumber,omitempty"`

	Address                 *Address `json:"address,omitempty"`
	ProviderCode            string   `json:"providerCode,omitempty"`
	ReferenceIdentification string   `json:"referenceIdentification,omitempty"` // taxonomy code, PRV03
	ProviderType            string   `json:"providerType,omitempty"`
}

// Address is an N3/N4 pair.
type Address struct {
	Address1               string `json:"address1,omitempty"`
	Address2               string `json:"address2,omitempty"`
	City                   string `json:"city,omitempty"`
	State                  string `json:"state,omitempty"`
	PostalCode             string `json:"postalCode,omitempty"`
	CountryCode            string `json:"countryCode,omitempty"`
	CountrySubDivisionCode string `json:"countrySubDivisionCode,omitempty"`
}

// Patient holds what subscribers and dependents share (270 loops 2100C and
// 2100D).
type Patient struct {
	FirstName   string `json:"firstName,omitempty"`
	LastName    string `json:"lastName,omitempty"`
	MiddleName  string `json:"middleName,omitempty"`
	Suffix      string `json:"suffix,omitempty"`
	DateOfBirth string `json:"dateOfBirth,omitempty"`
	Gender      string `json:"gender,omitempty"`
	SSN         string `json:"ssn,omitempty"`
	GroupNumber string `json:"groupNumber,omitempty"`
	IDCard      string `json:"idCard,omitempty"`

	MedicaidRecipientIdentificationNumber string                    `json:"medicaidRecipientIdentificationNumber,omitempty"`
	CaseNumber                            string                    `json:"caseNumber,omitempty"`
	AdditionalIdentification              *AdditionalIdentification `json:"additionalIdentification,omitempty"`
	Address                               *Address                  `json:"address,omitempty"`
	BirthSequenceNumber                   string                    `json:"birthSequenceNumber,omitempty"`
	HealthCareCodeInformation             []DiagnosisCode           `json:"healthCareCodeInformation,omitempty"`

	// A provider other than the requester (PRV), e.g. the referring one.
	ProviderCode                     string `json:"providerCode,omitempty"`
	ReferenceIdentificationQualifier string `json:"referenceIdentificationQualifier,omitempty"`
	ProviderIdentifier               string `json:"providerIdentifier,omitempty"`

	IDCardIssueDate        string `json:"idCardIssueDate,omitempty"`
	PlanIssueDate          string `json:"planIssueDate,omitempty"`
	BeginningCardIssueDate string `json:"beginningCardIssueDate,omitempty"`
	EndCardIssueDate       string `json:"endCardIssueDate,omitempty"`
	BeginningPlanIssueDate string `json:"beginningPlanIssueDate,omitempty"`
	EndPlanIssueDate       string `json:"endPlanIssueDate,omitempty"`
}

// Subscriber is the insured (loop 2100C), or a dependent who has a member ID
// of their own.
type Subscriber struct {
	MemberID string `json:"memberId,omitempty"`
	Patient
	SpendDownAmount            string `json:"spendDownAmount,omitempty"`
	SpendDownTotalBilledAmount string `json:"spendDownTotalBilledAmount,omitempty"`
	CoverageLevelCode          string `json:"coverageLevelCode,omitempty"` // unused upstream
}

// Dependent is a patient who can only be identified through the subscriber
// (loop 2100D). Only dependents[0] is used.
type Dependent struct {
	// MemberID is accepted for compatibility and ignored: 2100D has no NM109.
	MemberID string `json:"memberId,omitempty"`
	Patient
	IndividualRelationshipCode string `json:"individualRelationshipCode,omitempty"`
	EligibilityCategory        string `json:"eligibilityCategory,omitempty"`
	IssueNumber                string `json:"issueNumber,omitempty"`
}

// AdditionalIdentification carries the less common REF identifiers.
type AdditionalIdentification struct {
	PlanNumber                        string `json:"planNumber,omitempty"`
	PolicyNumber                      string `json:"policyNumber,omitempty"`
	InsurancePolicyNumber             string `json:"insurancePolicyNumber,omitempty"`
	PatientAccountNumber              string `json:"patientAccountNumber,omitempty"`
	MedicalRecordIdentificationNumber string `json:"medicalRecordIdentificationNumber,omitempty"`
	HealthInsuranceClaimNumber        string `json:"healthInsuranceClaimNumber,omitempty"`
	IdentificationCardSerialNumber    string `json:"identificationCardSerialNumber,omitempty"`
	ContractNumber                    string `json:"contractNumber,omitempty"`
	AgencyClaimNumber                 string `json:"agencyClaimNumber,omitempty"`
	PlanNetworkIdentificationNumber   string `json:"planNetworkIdentificationNumber,omitempty"`
	MemberIdentificationNumber        string `json:"memberIdentificationNumber,omitempty"`
}

// DiagnosisCode is one HI composite.
type DiagnosisCode struct {
	DiagnosisTypeCode string `json:"diagnosisTypeCode,omitempty"`
	DiagnosisCode     string `json:"diagnosisCode,omitempty"`
}

// Encounter says which benefits are asked for (loop 2110C/D).
type Encounter struct {
	ServiceTypeCodes            []string           `json:"serviceTypeCodes,omitempty"`
	ProcedureCode               string             `json:"procedureCode,omitempty"`
	ProductOrServiceIDQualifier string             `json:"productOrServiceIDQualifier,omitempty"`
	ProcedureModifiers          []string           `json:"procedureModifiers,omitempty"`
	DiagnosisCodePointer        []string           `json:"diagnosisCodePointer,omitempty"`
	MedicalProcedures           []MedicalProcedure `json:"medicalProcedures,omitempty"`

	DateOfService          string `json:"dateOfService,omitempty"`
	BeginningDateOfService string `json:"beginningDateOfService,omitempty"`
	EndDateOfService       string `json:"endDateOfService,omitempty"`

	IndustryCode                       string `json:"industryCode,omitempty"` // place of service
	PriorAuthorizationOrReferralNumber string `json:"priorAuthorizationOrReferralNumber,omitempty"`
	ReferenceIdentificationQualifier   string `json:"referenceIdentificationQualifier,omitempty"`
}

// MedicalProcedure asks about one procedure code; each becomes its own EQ.
type MedicalProcedure struct {
	ProcedureCode               string   `json:"procedureCode,omitempty"`
	ProductOrServiceIDQualifier string   `json:"productOrServiceIDQualifier,omitempty"`
	ProcedureModifiers          []string `json:"procedureModifiers,omitempty"`
	DiagnosisCodePointer        []string `json:"diagnosisCodePointer,omitempty"`
}

// DefaultServiceType is asked for when a request names neither a service
// type nor a procedure code.
const DefaultServiceType = "30"

// Payer ids whose checks follow special rules (api-contract.md §3).
const (
	PayerMedicare       = "CMS"
	PayerMBILookup      = "MBILU"
	PayerMBILookupNoSSN = "MBILUNOSSN"
)

// serviceTypes returns the service type codes the 270 asks about: the
// request's, or the default when it names neither a service type nor a
// procedure.
func (e *Encounter) serviceTypes() []string {
	if e == nil {
		return []string{DefaultServiceType}
	}
	if len(e.ServiceTypeCodes) > 0 {
		return e.ServiceTypeCodes
	}
	if e.ProcedureCode == "" && len(e.MedicalProcedures) == 0 {
		return []string{DefaultServiceType}
	}
	return nil
}

// provider returns the information receiver, falling back to the deprecated
// informationReceiverName object older clients send.
func (r *Request) provider() *Provider {
	if r.Provider != nil {
		return r.Provider
	}
	return r.InformationReceiverName
}

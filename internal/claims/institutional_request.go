package claims

// InstitutionalRequest is the hosted API's Institutional Claims v1 body
// (InstitutionalClaimsSubmissionRequestContent): the parties every claim
// type shares and the institutional claim (837I, 005010X223A3). Required:
// TradingPartnerServiceID, Submitter, Receiver, Subscriber,
// ClaimInformation, and a billing provider (Billing, or Providers[] with
// providerType BillingProvider).
type InstitutionalRequest struct {
	ControlNumber           string                         `json:"controlNumber,omitempty"` // ST02 as the caller numbers it; we number our own
	UsageIndicator          string                         `json:"usageIndicator,omitempty"`
	ClaimIdentifier         string                         `json:"claimIdentifier,omitempty"`
	TradingPartnerServiceID string                         `json:"tradingPartnerServiceId"`
	TradingPartnerName      string                         `json:"tradingPartnerName,omitempty"`
	Submitter               *Submitter                     `json:"submitter,omitempty"`
	Receiver                *Receiver                      `json:"receiver,omitempty"`
	Subscriber              *Subscriber                    `json:"subscriber,omitempty"`
	Dependent               *Dependent                     `json:"dependent,omitempty"`
	Billing                 *Provider                      `json:"billing,omitempty"`
	Attending               *Provider                      `json:"attending,omitempty"`
	Referring               *Provider                      `json:"referring,omitempty"`
	Rendering               *Provider                      `json:"rendering,omitempty"`
	OperatingPhysician      *Provider                      `json:"operatingPhysician,omitempty"`
	OtherOperatingPhysician *Provider                      `json:"otherOperatingPhysician,omitempty"`
	Providers               []Provider                     `json:"providers,omitempty"` // roles by providerType
	PayerAddress            *Address                       `json:"payerAddress,omitempty"`
	ClaimInformation        *InstitutionalClaimInformation `json:"claimInformation,omitempty"`
	// TradingPartnerSecondaryIdentifiers are 2010BB REFs (2U EI FY NF).
	TradingPartnerSecondaryIdentifiers PayerSecondaryIDs       `json:"tradingPartnerSecondaryIdentifiers,omitempty"`
	BillingPayToAddressName            *PayToAddressName       `json:"billingPayToAddressName,omitempty"` // 2010AB
	BillingPayToPlanName               *InstitutionalPayToPlan `json:"billingPayToPlanName,omitempty"`    // 2010AC
}

// InstitutionalClaimInformation is loop 2300 of the 837I.
type InstitutionalClaimInformation struct {
	ClaimFilingCode                          string                          `json:"claimFilingCode,omitempty"`
	PatientControlNumber                     string                          `json:"patientControlNumber,omitempty"`
	ClaimChargeAmount                        string                          `json:"claimChargeAmount,omitempty"`
	PlaceOfServiceCode                       string                          `json:"placeOfServiceCode,omitempty"` // the facility type code: the type of bill's first two digits
	ClaimFrequencyCode                       string                          `json:"claimFrequencyCode,omitempty"` // the type of bill's third digit
	PlanParticipationCode                    string                          `json:"planParticipationCode,omitempty"`
	BenefitsAssignmentCertificationIndicator string                          `json:"benefitsAssignmentCertificationIndicator,omitempty"`
	ReleaseInformationCode                   string                          `json:"releaseInformationCode,omitempty"`
	DelayReasonCode                          string                          `json:"delayReasonCode,omitempty"`
	PatientEstimatedAmountDue                string                          `json:"patientEstimatedAmountDue,omitempty"`
	BillingNote                              string                          `json:"billingNote,omitempty"`
	PropertyCasualtyClaimNumber              string                          `json:"propertyCasualtyClaimNumber,omitempty"`
	ClaimCodeInformation                     *InstitutionalClaimCodes        `json:"claimCodeInformation,omitempty"`
	ClaimDateInformation                     *InstitutionalClaimDates        `json:"claimDateInformation,omitempty"`
	PrincipalDiagnosis                       *PrincipalDiagnosis             `json:"principalDiagnosis,omitempty"`
	AdmittingDiagnosis                       *AdmittingDiagnosis             `json:"admittingDiagnosis,omitempty"`
	PatientReasonForVisits                   []ReasonForVisit                `json:"patientReasonForVisits,omitempty"`
	ExternalCauseOfInjuries                  []ExternalCause                 `json:"externalCauseOfInjuries,omitempty"`
	DiagnosisRelatedGroupInformation         *DRGInformation                 `json:"diagnosisRelatedGroupInformation,omitempty"`
	OtherDiagnosisInformationList            [][]OtherDiagnosis              `json:"otherDiagnosisInformationList,omitempty"`
	PrincipalProcedureInformation            *PrincipalProcedure             `json:"principalProcedureInformation,omitempty"`
	OtherProcedureInformationList            [][]OtherProcedure              `json:"otherProcedureInformationList,omitempty"`
	OccurrenceSpanInformations               [][]OccurrenceSpan              `json:"occurrenceSpanInformations,omitempty"`
	OccurrenceInformationList                [][]Occurrence                  `json:"occurrenceInformationList,omitempty"`
	ValueInformationList                     [][]ValueInformation            `json:"valueInformationList,omitempty"`
	ConditionCodesList                       [][]ConditionCode               `json:"conditionCodesList,omitempty"`
	ClaimSupplementalInformation             *InstitutionalClaimSupplemental `json:"claimSupplementalInformation,omitempty"`
	ClaimContractInformation                 *ContractInformation            `json:"claimContractInformation,omitempty"`
	ServiceLines                             []InstitutionalServiceLine      `json:"serviceLines,omitempty"`
	ClaimNotes                               *InstitutionalClaimNotes        `json:"claimNotes,omitempty"`              // NTE
	ClaimPricingInformation                  *Repricing                      `json:"claimPricingInformation,omitempty"` // HCP
	EpsdtReferral                            *EPSDTReferral                  `json:"epsdtReferral,omitempty"`           // CRC*ZZ
	ConditionCodes                           []string                        `json:"conditionCodes,omitempty"`          // CRC*ZZ codes, the older form of epsdtReferral.conditionCodes
	FileInformation                          []string                        `json:"fileInformation,omitempty"`         // K3
	TreatmentCodeInformationList             [][]string                      `json:"treatmentCodeInformationList,omitempty"`
	ServiceFacilityLocation                  *InstitutionalFacility          `json:"serviceFacilityLocation,omitempty"`    // 2310E
	OtherSubscriberInformation               *InstitutionalOtherSubscriber   `json:"otherSubscriberInformation,omitempty"` // 2320/2330
	// Deprecated fields with no place in the 837I (X223A3 has no patient
	// amount paid, no patient weight, and CLM06 is not used): refused
	// with why, never dropped.
	PatientAmountPaid  string `json:"patientAmountPaid,omitempty"`
	PatientWeight      string `json:"patientWeight,omitempty"`
	SignatureIndicator string `json:"signatureIndicator,omitempty"`
}

// InstitutionalClaimCodes is the CL1 segment.
type InstitutionalClaimCodes struct {
	AdmissionTypeCode   string `json:"admissionTypeCode,omitempty"`
	AdmissionSourceCode string `json:"admissionSourceCode,omitempty"`
	PatientStatusCode   string `json:"patientStatusCode,omitempty"`
}

// InstitutionalClaimDates are the 2300 DTP segments of the 837I.
type InstitutionalClaimDates struct {
	StatementBeginDate   string `json:"statementBeginDate,omitempty"`   // DTP*434 RD8, with the end
	StatementEndDate     string `json:"statementEndDate,omitempty"`     //
	AdmissionDateAndHour string `json:"admissionDateAndHour,omitempty"` // DTP*435: YYYYMMDDHHMM (DT) or YYYYMMDD (D8)
	DischargeHour        string `json:"dischargeHour,omitempty"`        // DTP*096 TM
	RepricerReceivedDate string `json:"repricerReceivedDate,omitempty"` // DTP*050
}

// PrincipalDiagnosis is HI*ABK.
type PrincipalDiagnosis struct {
	QualifierCode               string `json:"qualifierCode,omitempty"`
	PrincipalDiagnosisCode      string `json:"principalDiagnosisCode,omitempty"`
	PresentOnAdmissionIndicator string `json:"presentOnAdmissionIndicator,omitempty"`
}

// AdmittingDiagnosis is HI*ABJ.
type AdmittingDiagnosis struct {
	QualifierCode          string `json:"qualifierCode,omitempty"`
	AdmittingDiagnosisCode string `json:"admittingDiagnosisCode,omitempty"`
}

// ReasonForVisit is one HI*APR.
type ReasonForVisit struct {
	QualifierCode             string `json:"qualifierCode,omitempty"`
	PatientReasonForVisitCode string `json:"patientReasonForVisitCode,omitempty"`
}

// ExternalCause is one HI*ABN.
type ExternalCause struct {
	QualifierCode               string `json:"qualifierCode,omitempty"`
	ExternalCauseOfInjury       string `json:"externalCauseOfInjury,omitempty"`
	PresentOnAdmissionIndicator string `json:"presentOnAdmissionIndicator,omitempty"`
}

// DRGInformation is HI*DR.
type DRGInformation struct {
	DrugRelatedGroupCode string `json:"drugRelatedGroupCode,omitempty"`
}

// OtherDiagnosis is one HI*ABF.
type OtherDiagnosis struct {
	QualifierCode               string `json:"qualifierCode,omitempty"`
	OtherDiagnosisCode          string `json:"otherDiagnosisCode,omitempty"`
	PresentOnAdmissionIndicator string `json:"presentOnAdmissionIndicator,omitempty"`
}

// PrincipalProcedure is HI*BBR.
type PrincipalProcedure struct {
	QualifierCode          string `json:"qualifierCode,omitempty"`
	PrincipalProcedureCode string `json:"principalProcedureCode,omitempty"`
	PrincipalProcedureDate string `json:"principalProcedureDate,omitempty"`
}

// OtherProcedure is one HI*BBQ.
type OtherProcedure struct {
	QualifierCode      string `json:"qualifierCode,omitempty"`
	OtherProcedureCode string `json:"otherProcedureCode,omitempty"`
	OtherProcedureDate string `json:"otherProcedureDate,omitempty"`
}

// OccurrenceSpan is one HI*BI.
type OccurrenceSpan struct {
	OccurrenceSpanCode          string `json:"occurrenceSpanCode,omitempty"`
	OccurrenceSpanCodeStartDate string `json:"occurrenceSpanCodeStartDate,omitempty"`
	OccurrenceSpanCodeEndDate   string `json:"occurrenceSpanCodeEndDate,omitempty"`
}

// Occurrence is one HI*BH (the contract names its code occurrenceSpanCode).
type Occurrence struct {
	OccurrenceSpanCode     string `json:"occurrenceSpanCode,omitempty"`
	OccurrenceSpanCodeDate string `json:"occurrenceSpanCodeDate,omitempty"`
}

// ValueInformation is one HI*BE.
type ValueInformation struct {
	ValueCode       string `json:"valueCode,omitempty"`
	ValueCodeAmount string `json:"valueCodeAmount,omitempty"`
}

// ConditionCode is one HI*BG.
type ConditionCode struct {
	ConditionCode string `json:"conditionCode,omitempty"`
}

// InstitutionalClaimSupplemental holds the 2300 REF and PWK segments of the
// 837I.
type InstitutionalClaimSupplemental struct {
	PriorAuthorizationNumber             string              `json:"priorAuthorizationNumber,omitempty"`
	ReferralNumber                       string              `json:"referralNumber,omitempty"`
	ClaimControlNumber                   string              `json:"claimControlNumber,omitempty"`
	RepricedClaimNumber                  string              `json:"repricedClaimNumber,omitempty"`
	AdjustedRepricedClaimRefNumber       string              `json:"adjustedRepricedClaimRefNumber,omitempty"`
	InvestigationalDeviceExemptionNumber string              `json:"investigationalDeviceExemptionNumber,omitempty"`
	MedicalRecordNumber                  string              `json:"medicalRecordNumber,omitempty"`
	DemoProjectIdentifier                string              `json:"demoProjectIdentifier,omitempty"`
	PeerReviewAuthorizationNumber        string              `json:"peerReviewAuthorizationNumber,omitempty"`
	AutoAccidentState                    string              `json:"autoAccidentState,omitempty"`
	ServiceAuthorizationExceptionCode    string              `json:"serviceAuthorizationExceptionCode,omitempty"`
	ReportInformation                    *ReportInformation  `json:"reportInformation,omitempty"`
	ReportInformations                   []ReportInformation `json:"reportInformations,omitempty"`
	ClaimNumber                          string              `json:"claimNumber,omitempty"` // deprecated; REF*D9 is ours
}

// InstitutionalServiceLine is loop 2400 of the 837I.
type InstitutionalServiceLine struct {
	ServiceDate             string                `json:"serviceDate,omitempty"`
	ServiceDateEnd          string                `json:"serviceDateEnd,omitempty"`
	LineItemControlNumber   string                `json:"lineItemControlNumber,omitempty"` // REF*6R
	AssignedNumber          string                `json:"assignedNumber,omitempty"`        // deprecated; LX counts the lines
	Description             string                `json:"description,omitempty"`
	InstitutionalService    *InstitutionalService `json:"institutionalService,omitempty"`
	DrugIdentification      *DrugIdentification   `json:"drugIdentification,omitempty"`
	FacilityTaxAmount       string                `json:"facilityTaxAmount,omitempty"`
	LineNoteText            string                `json:"lineNoteText,omitempty"`
	OperatingPhysician      *Provider             `json:"operatingPhysician,omitempty"`
	OtherOperatingPhysician *Provider             `json:"otherOperatingPhysician,omitempty"`
	RenderingProvider       *Provider             `json:"renderingProvider,omitempty"`
	ReferringProvider       *Provider             `json:"referringProvider,omitempty"`
	InstitutionalLineParts
}

// InstitutionalService is the SV2 segment.
type InstitutionalService struct {
	ServiceLineRevenueCode string   `json:"serviceLineRevenueCode,omitempty"`
	ProcedureIdentifier    string   `json:"procedureIdentifier,omitempty"`
	ProcedureCode          string   `json:"procedureCode,omitempty"`
	ProcedureModifiers     []string `json:"procedureModifiers,omitempty"`
	Description            string   `json:"description,omitempty"`
	LineItemChargeAmount   string   `json:"lineItemChargeAmount,omitempty"`
	MeasurementUnit        string   `json:"measurementUnit,omitempty"` // UN units, DA days
	ServiceUnitCount       string   `json:"serviceUnitCount,omitempty"`
	NonCoveredChargeAmount string   `json:"nonCoveredChargeAmount,omitempty"`
}

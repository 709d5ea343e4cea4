package claims

// ProfessionalRequest is the hosted API's Professional Claims v3 body
// (ClaimsSubmissionRequestContent, api-contract.md §4.3): the parties every
// claim type shares and the professional claim (837P, 005010X222A1).
// Required: TradingPartnerServiceID, Submitter, Receiver, Subscriber,
// ClaimInformation, and a billing provider (Billing, or Providers[] with
// providerType BillingProvider).
type ProfessionalRequest struct {
	ControlNumber                      string                        `json:"controlNumber,omitempty"` // ST02 as the caller numbers it; we number our own
	UsageIndicator                     string                        `json:"usageIndicator,omitempty"`
	ClaimIdentifier                    string                        `json:"claimIdentifier,omitempty"`
	TradingPartnerServiceID            string                        `json:"tradingPartnerServiceId"`
	TradingPartnerName                 string                        `json:"tradingPartnerName,omitempty"`
	TradingPartnerSecondaryIdentifiers PayerSecondaryIDs             `json:"tradingPartnerSecondaryIdentifiers,omitempty"`
	Submitter                          *Submitter                    `json:"submitter,omitempty"`
	Receiver                           *Receiver                     `json:"receiver,omitempty"`
	Subscriber                         *Subscriber                   `json:"subscriber,omitempty"`
	Dependent                          *Dependent                    `json:"dependent,omitempty"`
	Billing                            *Provider                     `json:"billing,omitempty"`
	Rendering                          *Provider                     `json:"rendering,omitempty"`
	Referring                          *Provider                     `json:"referring,omitempty"`
	Ordering                           *Provider                     `json:"ordering,omitempty"` // deprecated in the contract; 837P has no claim-level ordering loop, so it is each line's 2420E unless the line names its own
	Supervising                        *Provider                     `json:"supervising,omitempty"`
	Providers                          []Provider                    `json:"providers,omitempty"` // deprecated: roles by providerType
	PayToAddress                       *Address                      `json:"payToAddress,omitempty"`
	PayToPlan                          *PayToPlan                    `json:"payToPlan,omitempty"`
	PayerAddress                       *Address                      `json:"payerAddress,omitempty"`
	ClaimInformation                   *ProfessionalClaimInformation `json:"claimInformation,omitempty"`
}

// ProfessionalClaimInformation is loop 2300 of the 837P.
type ProfessionalClaimInformation struct {
	ClaimFilingCode                          string                         `json:"claimFilingCode,omitempty"`
	PatientControlNumber                     string                         `json:"patientControlNumber,omitempty"`
	ClaimChargeAmount                        string                         `json:"claimChargeAmount,omitempty"`
	PlaceOfServiceCode                       string                         `json:"placeOfServiceCode,omitempty"`
	ClaimFrequencyCode                       string                         `json:"claimFrequencyCode,omitempty"`
	SignatureIndicator                       string                         `json:"signatureIndicator,omitempty"`
	PlanParticipationCode                    string                         `json:"planParticipationCode,omitempty"`
	BenefitsAssignmentCertificationIndicator string                         `json:"benefitsAssignmentCertificationIndicator,omitempty"`
	ReleaseInformationCode                   string                         `json:"releaseInformationCode,omitempty"`
	PatientSignatureSourceCode               bool                           `json:"patientSignatureSourceCode,omitempty"` // CLM10 P
	RelatedCausesCode                        []string                       `json:"relatedCausesCode,omitempty"`
	AutoAccidentStateCode                    string                         `json:"autoAccidentStateCode,omitempty"`
	AutoAccidentCountryCode                  string                         `json:"autoAccidentCountryCode,omitempty"`
	SpecialProgramCode                       string                         `json:"specialProgramCode,omitempty"`
	DelayReasonCode                          string                         `json:"delayReasonCode,omitempty"`
	PatientAmountPaid                        string                         `json:"patientAmountPaid,omitempty"`
	PropertyCasualtyClaimNumber              string                         `json:"propertyCasualtyClaimNumber,omitempty"`
	DeathDate                                string                         `json:"deathDate,omitempty"`
	PatientWeight                            string                         `json:"patientWeight,omitempty"`
	PregnancyIndicator                       string                         `json:"pregnancyIndicator,omitempty"`
	HomeboundIndicator                       bool                           `json:"homeboundIndicator,omitempty"`
	HealthCareCodeInformation                []Diagnosis                    `json:"healthCareCodeInformation,omitempty"`
	ClaimDateInformation                     *ProfessionalClaimDates        `json:"claimDateInformation,omitempty"`
	ClaimSupplementalInformation             *ProfessionalClaimSupplemental `json:"claimSupplementalInformation,omitempty"`
	ClaimNote                                *ProfessionalClaimNote         `json:"claimNote,omitempty"`
	ClaimContractInformation                 *ContractInformation           `json:"claimContractInformation,omitempty"`
	FileInformationList                      []string                       `json:"fileInformationList,omitempty"`
	ServiceFacilityLocation                  *ServiceFacility               `json:"serviceFacilityLocation,omitempty"`
	AmbulanceTransportInformation            *AmbulanceTransport            `json:"ambulanceTransportInformation,omitempty"`
	AmbulanceCertification                   []AmbulanceCertification       `json:"ambulanceCertification,omitempty"`
	AmbulancePickUpLocation                  *Address                       `json:"ambulancePickUpLocation,omitempty"`
	AmbulanceDropOffLocation                 *Address                       `json:"ambulanceDropOffLocation,omitempty"`
	OtherSubscriberInformation               []ProfessionalOtherSubscriber  `json:"otherSubscriberInformation,omitempty"`
	ServiceLines                             []ProfessionalServiceLine      `json:"serviceLines,omitempty"`
	ClaimPricingRepricingInformation         *Repricing                     `json:"claimPricingRepricingInformation,omitempty"`     // HCP
	SpinalManipulationServiceInformation     *SpinalManipulation            `json:"spinalManipulationServiceInformation,omitempty"` // CR2
	PatientConditionInformationVision        []VisionCondition              `json:"patientConditionInformationVision,omitempty"`    // CRC*E1–E3
	EpsdtReferral                            *EPSDTReferral                 `json:"epsdtReferral,omitempty"`                        // CRC*ZZ
	ConditionInformation                     []ConditionInformation         `json:"conditionInformation,omitempty"`                 // HI*BG
	AnesthesiaRelatedSurgicalProcedure       []string                       `json:"anesthesiaRelatedSurgicalProcedure,omitempty"`   // HI*BP, BO
	FileInformation                          string                         `json:"fileInformation,omitempty"`                      // deprecated: K3, before fileInformationList
}

// ProfessionalClaimDates are the 2300 DTP segments of the 837P.
type ProfessionalClaimDates struct {
	SymptomDate                         string `json:"symptomDate,omitempty"`                         // 431 onset of current illness
	InitialTreatmentDate                string `json:"initialTreatmentDate,omitempty"`                // 454
	LastSeenDate                        string `json:"lastSeenDate,omitempty"`                        // 304
	AcuteManifestationDate              string `json:"acuteManifestationDate,omitempty"`              // 453
	AccidentDate                        string `json:"accidentDate,omitempty"`                        // 439
	LastMenstrualPeriodDate             string `json:"lastMenstrualPeriodDate,omitempty"`             // 484
	LastXRayDate                        string `json:"lastXRayDate,omitempty"`                        // 455
	HearingAndVisionPrescriptionDate    string `json:"hearingAndVisionPrescriptionDate,omitempty"`    // 471
	DisabilityBeginDate                 string `json:"disabilityBeginDate,omitempty"`                 // 360
	DisabilityEndDate                   string `json:"disabilityEndDate,omitempty"`                   // 361
	LastWorkedDate                      string `json:"lastWorkedDate,omitempty"`                      // 297
	AuthorizedReturnToWorkDate          string `json:"authorizedReturnToWorkDate,omitempty"`          // 296
	AdmissionDate                       string `json:"admissionDate,omitempty"`                       // 435
	DischargeDate                       string `json:"dischargeDate,omitempty"`                       // 096
	AssumedAndRelinquishedCareBeginDate string `json:"assumedAndRelinquishedCareBeginDate,omitempty"` // 090
	AssumedAndRelinquishedCareEndDate   string `json:"assumedAndRelinquishedCareEndDate,omitempty"`   // 091
	FirstContactDate                    string `json:"firstContactDate,omitempty"`                    // 444
	RepricerReceivedDate                string `json:"repricerReceivedDate,omitempty"`                // 050
}

// ProfessionalClaimSupplemental holds the 2300 REF and PWK segments of the
// 837P.
type ProfessionalClaimSupplemental struct {
	PriorAuthorizationNumber             string              `json:"priorAuthorizationNumber,omitempty"`
	ReferralNumber                       string              `json:"referralNumber,omitempty"`
	ClaimControlNumber                   string              `json:"claimControlNumber,omitempty"`
	ClaimNumber                          string              `json:"claimNumber,omitempty"` // deprecated; REF*D9 is ours
	CliaNumber                           string              `json:"cliaNumber,omitempty"`
	RepricedClaimNumber                  string              `json:"repricedClaimNumber,omitempty"`
	AdjustedRepricedClaimNumber          string              `json:"adjustedRepricedClaimNumber,omitempty"`
	InvestigationalDeviceExemptionNumber string              `json:"investigationalDeviceExemptionNumber,omitempty"`
	MedicalRecordNumber                  string              `json:"medicalRecordNumber,omitempty"`
	DemoProjectIdentifier                string              `json:"demoProjectIdentifier,omitempty"`
	CarePlanOversightNumber              string              `json:"carePlanOversightNumber,omitempty"`
	MedicareCrossoverReferenceID         string              `json:"medicareCrossoverReferenceId,omitempty"`
	MammographyCertificationNumber       string              `json:"mammographyCertificationNumber,omitempty"`
	ServiceAuthorizationExceptionCode    string              `json:"serviceAuthorizationExceptionCode,omitempty"`
	ReportInformation                    *ReportInformation  `json:"reportInformation,omitempty"`
	ReportInformations                   []ReportInformation `json:"reportInformations,omitempty"`
}

// ProfessionalClaimNote is the 2300 NTE: one note, under the first field
// given.
type ProfessionalClaimNote struct {
	AdditionalInformation     string `json:"additionalInformation,omitempty"`     // ADD
	CertificationNarrative    string `json:"certificationNarrative,omitempty"`    // CER
	GoalRehabOrDischargePlans string `json:"goalRehabOrDischargePlans,omitempty"` // DCP
	DiagnosisDescription      string `json:"diagnosisDescription,omitempty"`      // DGN
	ThirdPartOrgNotes         string `json:"thirdPartOrgNotes,omitempty"`         // TPO
}

// AmbulanceTransport is the CR1 segment.
type AmbulanceTransport struct {
	PatientWeightInPounds        string `json:"patientWeightInPounds,omitempty"`
	AmbulanceTransportReasonCode string `json:"ambulanceTransportReasonCode,omitempty"`
	TransportDistanceInMiles     string `json:"transportDistanceInMiles,omitempty"`
	RoundTripPurposeDescription  string `json:"roundTripPurposeDescription,omitempty"`
	StretcherPurposeDescription  string `json:"stretcherPurposeDescription,omitempty"`
}

// AmbulanceCertification is a CRC*07 segment.
type AmbulanceCertification struct {
	CertificationConditionIndicator string   `json:"certificationConditionIndicator,omitempty"`
	ConditionCodes                  []string `json:"conditionCodes,omitempty"`
}

// ProfessionalServiceLine is loop 2400 of the 837P.
type ProfessionalServiceLine struct {
	ServiceDate                     string                         `json:"serviceDate,omitempty"`
	ServiceDateEnd                  string                         `json:"serviceDateEnd,omitempty"`
	ProviderControlNumber           string                         `json:"providerControlNumber,omitempty"`
	ProfessionalService             *ProfessionalService           `json:"professionalService,omitempty"`
	DrugIdentification              *DrugIdentification            `json:"drugIdentification,omitempty"`
	ServiceLineReferenceInformation *ProfessionalLineReference     `json:"serviceLineReferenceInformation,omitempty"`
	SalesTaxAmount                  string                         `json:"salesTaxAmount,omitempty"`
	PostageTaxAmount                string                         `json:"postageTaxAmount,omitempty"`
	AdditionalNotes                 string                         `json:"additionalNotes,omitempty"`
	GoalRehabOrDischargePlans       string                         `json:"goalRehabOrDischargePlans,omitempty"`
	ThirdPartyOrganizationNotes     string                         `json:"thirdPartyOrganizationNotes,omitempty"`
	RenderingProvider               *Provider                      `json:"renderingProvider,omitempty"`
	PurchasedServiceProvider        *Provider                      `json:"purchasedServiceProvider,omitempty"`
	ServiceFacilityLocation         *ServiceFacility               `json:"serviceFacilityLocation,omitempty"`
	SupervisingProvider             *Provider                      `json:"supervisingProvider,omitempty"`
	OrderingProvider                *Provider                      `json:"orderingProvider,omitempty"`
	ReferringProvider               *Provider                      `json:"referringProvider,omitempty"`
	LineAdjudicationInformation     []ProfessionalLineAdjudication `json:"lineAdjudicationInformation,omitempty"`
	ProfessionalLineParts
}

// ProfessionalService is the SV1 segment.
type ProfessionalService struct {
	ProcedureIdentifier            string             `json:"procedureIdentifier,omitempty"` // HC (HCPCS/CPT), ER, IV, WK
	ProcedureCode                  string             `json:"procedureCode,omitempty"`
	ProcedureModifiers             []string           `json:"procedureModifiers,omitempty"`
	Description                    string             `json:"description,omitempty"`
	LineItemChargeAmount           string             `json:"lineItemChargeAmount,omitempty"`
	MeasurementUnit                string             `json:"measurementUnit,omitempty"` // UN units, MJ minutes
	ServiceUnitCount               string             `json:"serviceUnitCount,omitempty"`
	PlaceOfServiceCode             string             `json:"placeOfServiceCode,omitempty"`
	CompositeDiagnosisCodePointers *DiagnosisPointers `json:"compositeDiagnosisCodePointers,omitempty"`
	EmergencyIndicator             string             `json:"emergencyIndicator,omitempty"`
	EpsdtIndicator                 string             `json:"epsdtIndicator,omitempty"`
	FamilyPlanningIndicator        string             `json:"familyPlanningIndicator,omitempty"`
	CopayStatusCode                string             `json:"copayStatusCode,omitempty"`
}

// DrugIdentification is loop 2410: LIN, CTP and REF.
type DrugIdentification struct {
	ServiceIDQualifier         string `json:"serviceIdQualifier,omitempty"` // N4 for an NDC in 5-4-2 form
	NationalDrugCode           string `json:"nationalDrugCode,omitempty"`
	NationalDrugUnitCount      string `json:"nationalDrugUnitCount,omitempty"`
	MeasurementUnitCode        string `json:"measurementUnitCode,omitempty"`
	LinkSequenceNumber         string `json:"linkSequenceNumber,omitempty"`
	PharmacyPrescriptionNumber string `json:"pharmacyPrescriptionNumber,omitempty"`
}

// ProfessionalLineReference holds the 2400 REF segments of the 837P.
type ProfessionalLineReference struct {
	RepricedLineItemReferenceNumber              string                   `json:"repricedLineItemReferenceNumber,omitempty"`
	AdjustedRepricedLineItemReferenceNumber      string                   `json:"adjustedRepricedLineItemReferenceNumber,omitempty"`
	PriorAuthorization                           []LinePriorAuthorization `json:"priorAuthorization,omitempty"`
	MammographyCertificationNumber               string                   `json:"mammographyCertificationNumber,omitempty"`
	ClinicalLaboratoryImprovementAmendmentNumber string                   `json:"clinicalLaboratoryImprovementAmendmentNumber,omitempty"`
	ReferringCliaNumber                          string                   `json:"referringCliaNumber,omitempty"`
	ImmunizationBatchNumber                      string                   `json:"immunizationBatchNumber,omitempty"`
	ReferralNumber                               []string                 `json:"referralNumber,omitempty"`
}

// LinePriorAuthorization is a line's REF*G1.
type LinePriorAuthorization struct {
	PriorAuthorizationOrReferralNumber string `json:"priorAuthorizationOrReferralNumber,omitempty"`
	OtherPayerPrimaryIdentifier        string `json:"otherPayerPrimaryIdentifier,omitempty"`
}

// ProfessionalLineAdjudication is loop 2430 of the 837P (COB).
type ProfessionalLineAdjudication struct {
	OtherPayerPrimaryIdentifier  string            `json:"otherPayerPrimaryIdentifier,omitempty"`
	ServiceLinePaidAmount        string            `json:"serviceLinePaidAmount,omitempty"`
	ServiceIDQualifier           string            `json:"serviceIdQualifier,omitempty"`
	ProcedureCode                string            `json:"procedureCode,omitempty"`
	ProcedureModifier            []string          `json:"procedureModifier,omitempty"`
	ProcedureCodeDescription     string            `json:"procedureCodeDescription,omitempty"`
	PaidServiceUnitCount         string            `json:"paidServiceUnitCount,omitempty"`
	BundledOrUnbundledLineNumber string            `json:"bundledOrUnbundledLineNumber,omitempty"`
	AdjudicationOrPaymentDate    string            `json:"adjudicationOrPaymentDate,omitempty"`
	RemainingPatientLiability    string            `json:"remainingPatientLiability,omitempty"`
	ClaimAdjustmentInformation   []ClaimAdjustment `json:"claimAdjustmentInformation,omitempty"`
}

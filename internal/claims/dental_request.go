package claims

import (
	"encoding/json"
	"fmt"
)

// Request is DentalClaimsSubmissionRequestContent (api-contract.md §4.1).
// Required: TradingPartnerServiceID, Submitter, Receiver, Subscriber,
// Billing, ClaimInformation.
type Request struct {
	UsageIndicator                     string            `json:"usageIndicator,omitempty"`  // ISA15: P (default) or T
	ClaimIdentifier                    string            `json:"claimIdentifier,omitempty"` // BHT06: CH (default), RP, 31
	TradingPartnerServiceID            string            `json:"tradingPartnerServiceId"`
	TradingPartnerName                 string            `json:"tradingPartnerName,omitempty"`
	TradingPartnerSecondaryIdentifiers PayerSecondaryIDs `json:"tradingPartnerSecondaryIdentifiers,omitempty"`
	Submitter                          *Submitter        `json:"submitter,omitempty"`
	Receiver                           *Receiver         `json:"receiver,omitempty"`
	Subscriber                         *Subscriber       `json:"subscriber,omitempty"`
	Dependent                          *Dependent        `json:"dependent,omitempty"`
	Billing                            *Provider         `json:"billing,omitempty"`
	PayToAddress                       *Address          `json:"payToAddress,omitempty"`
	PayToPlan                          *PayToPlan        `json:"payToPlan,omitempty"`
	PayerAddress                       *Address          `json:"payerAddress,omitempty"`
	Rendering                          *Provider         `json:"rendering,omitempty"`
	Referring                          *Provider         `json:"referring,omitempty"`
	Supervising                        *Provider         `json:"supervising,omitempty"`
	AssistantSurgeon                   *Provider         `json:"assistantSurgeon,omitempty"`
	ClaimInformation                   *ClaimInformation `json:"claimInformation,omitempty"`
}

// ClaimInformation is loop 2300.
type ClaimInformation struct {
	PatientControlNumber                     string                        `json:"patientControlNumber,omitempty"`
	ClaimChargeAmount                        string                        `json:"claimChargeAmount,omitempty"`
	PlaceOfServiceCode                       string                        `json:"placeOfServiceCode,omitempty"`
	ClaimFrequencyCode                       string                        `json:"claimFrequencyCode,omitempty"`
	SignatureIndicator                       string                        `json:"signatureIndicator,omitempty"`
	PlanParticipationCode                    string                        `json:"planParticipationCode,omitempty"`
	BenefitsAssignmentCertificationIndicator string                        `json:"benefitsAssignmentCertificationIndicator,omitempty"`
	ReleaseInformationCode                   string                        `json:"releaseInformationCode,omitempty"`
	ClaimFilingCode                          string                        `json:"claimFilingCode,omitempty"`
	DelayReasonCode                          string                        `json:"delayReasonCode,omitempty"`
	SpecialProgramCode                       string                        `json:"specialProgramCode,omitempty"`
	RelatedCausesCode                        []string                      `json:"relatedCausesCode,omitempty"`
	AutoAccidentStateCode                    string                        `json:"autoAccidentStateCode,omitempty"`
	AutoAccidentCountryCode                  string                        `json:"autoAccidentCountryCode,omitempty"`
	PatientAmountPaid                        string                        `json:"patientAmountPaid,omitempty"`
	PredeterminationOfBenefits               bool                          `json:"predeterminationOfBenefits,omitempty"`
	PropertyCasualtyClaimNumber              string                        `json:"propertyCasualtyClaimNumber,omitempty"`
	HealthCareCodeInformation                []Diagnosis                   `json:"healthCareCodeInformation,omitempty"`
	ClaimDateInformation                     *ClaimDateInformation         `json:"claimDateInformation,omitempty"`
	ToothStatus                              []ToothStatus                 `json:"toothStatus,omitempty"`
	OrthodonticTotalMonthsOfTreatment        *Orthodontics                 `json:"orthodonticTotalMonthsOfTreatment,omitempty"`
	ClaimSupplementalInformation             *ClaimSupplementalInformation `json:"claimSupplementalInformation,omitempty"`
	ClaimNotes                               []string                      `json:"claimNotes,omitempty"`
	FileInformationList                      []string                      `json:"fileInformationList,omitempty"`
	ClaimContractInformation                 *ContractInformation          `json:"claimContractInformation,omitempty"`
	ServiceFacilityLocation                  *ServiceFacility              `json:"serviceFacilityLocation,omitempty"`
	OtherSubscriberInformation               []OtherSubscriberInformation  `json:"otherSubscriberInformation,omitempty"`
	ServiceLines                             []ServiceLine                 `json:"serviceLines,omitempty"`
}

// ClaimDateInformation holds the 2300 DTP segments.
type ClaimDateInformation struct {
	ServiceDate            string `json:"serviceDate,omitempty"` // YYYYMMDD or YYYYMMDD-YYYYMMDD
	AccidentDate           string `json:"accidentDate,omitempty"`
	AppliancePlacementDate string `json:"appliancePlacementDate,omitempty"`
	RepricerReceivedDate   string `json:"repricerReceivedDate,omitempty"`
}

// ToothStatus is a DN2: a missing tooth (M) or one to be extracted (E).
type ToothStatus struct {
	ToothNumber     string `json:"toothNumber,omitempty"`
	ToothStatusCode string `json:"toothStatusCode,omitempty"`
}

// Orthodontics is the DN1 segment.
type Orthodontics struct {
	MonthsCount        Count  `json:"monthsCount,omitempty"`
	MonthsRemaining    Count  `json:"monthsRemaining,omitempty"`
	TreatmentIndicator string `json:"treatmentIndicator,omitempty"` // Y
}

// ClaimSupplementalInformation holds the 2300 REF and PWK segments.
type ClaimSupplementalInformation struct {
	PriorAuthorizationNumber             string              `json:"priorAuthorizationNumber,omitempty"`
	ReferralNumber                       string              `json:"referralNumber,omitempty"`
	ClaimControlNumber                   string              `json:"claimControlNumber,omitempty"`
	ClaimNumber                          string              `json:"claimNumber,omitempty"` // replaced by our own (REF*D9)
	PredeterminationOfBenefitsIdentifier string              `json:"predeterminationOfBenefitsIdentifier,omitempty"`
	RepricedClaimNumber                  string              `json:"repricedClaimNumber,omitempty"`
	AdjustedRepricedClaimNumber          string              `json:"adjustedRepricedClaimNumber,omitempty"`
	ServiceAuthorizationExceptionCode    string              `json:"serviceAuthorizationExceptionCode,omitempty"`
	ReportInformation                    *ReportInformation  `json:"reportInformation,omitempty"`
	ReportInformations                   []ReportInformation `json:"reportInformations,omitempty"`
}

// ServiceLine is loop 2400.
type ServiceLine struct {
	ServiceDate                     string                           `json:"serviceDate,omitempty"`
	ProviderControlNumber           string                           `json:"providerControlNumber,omitempty"`
	DentalService                   *DentalService                   `json:"dentalService,omitempty"`
	TeethInformation                []ToothInformation               `json:"teethInformation,omitempty"`
	ServiceLineDateInformation      *ServiceLineDateInformation      `json:"serviceLineDateInformation,omitempty"`
	ServiceLineReferenceInformation *ServiceLineReferenceInformation `json:"serviceLineReferenceInformation,omitempty"`
	SalesTaxAmount                  string                           `json:"salesTaxAmount,omitempty"`
	PostageTaxAmount                string                           `json:"postageTaxAmount,omitempty"`
	RenderingProvider               *Provider                        `json:"renderingProvider,omitempty"`
	SupervisingProvider             *Provider                        `json:"supervisingProvider,omitempty"`
	AssistantSurgeon                *Provider                        `json:"assistantSurgeon,omitempty"`
	ServiceFacilityLocation         *ServiceFacility                 `json:"serviceFacilityLocation,omitempty"`
	LineAdjudicationInformation     []LineAdjudication               `json:"lineAdjudicationInformation,omitempty"`
	FileInformation                 []string                         `json:"fileInformation,omitempty"`
}

// DentalService is the SV3 segment. Decoding also accepts the field name
// oralCavityDesignationCode, seen in the public examples.
type DentalService struct {
	ProcedureCode                  string             `json:"procedureCode,omitempty"`
	ProcedureModifiers             []string           `json:"procedureModifiers,omitempty"`
	Description                    string             `json:"description,omitempty"`
	LineItemChargeAmount           string             `json:"lineItemChargeAmount,omitempty"`
	PlaceOfServiceCode             string             `json:"placeOfServiceCode,omitempty"`
	OralCavityDesignation          []string           `json:"oralCavityDesignation,omitempty"`
	ProsthesisCrownOrInlayCode     string             `json:"prosthesisCrownOrInlayCode,omitempty"`
	ProcedureCount                 Count              `json:"procedureCount,omitempty"`
	CompositeDiagnosisCodePointers *DiagnosisPointers `json:"compositeDiagnosisCodePointers,omitempty"`
}

// UnmarshalJSON accepts oralCavityDesignationCode for oralCavityDesignation.
func (d *DentalService) UnmarshalJSON(b []byte) error {
	type plain DentalService
	var v struct {
		plain
		OralCavityDesignationCode []string `json:"oralCavityDesignationCode"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*d = DentalService(v.plain)
	if len(d.OralCavityDesignation) == 0 {
		d.OralCavityDesignation = v.OralCavityDesignationCode
	}
	return nil
}

// ToothInformation is a TOO segment. Decoding also accepts toothSurface for
// toothSurfaceCodes.
type ToothInformation struct {
	ToothCode         string   `json:"toothCode,omitempty"`
	ToothSurfaceCodes []string `json:"toothSurfaceCodes,omitempty"`
}

// UnmarshalJSON accepts toothSurface (an array or one string) for
// toothSurfaceCodes.
func (t *ToothInformation) UnmarshalJSON(b []byte) error {
	type plain ToothInformation
	var v struct {
		plain
		ToothSurface json.RawMessage `json:"toothSurface"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*t = ToothInformation(v.plain)
	if len(t.ToothSurfaceCodes) == 0 && len(v.ToothSurface) > 0 {
		var list []string
		if err := json.Unmarshal(v.ToothSurface, &list); err != nil {
			var one string
			if err := json.Unmarshal(v.ToothSurface, &one); err != nil {
				return fmt.Errorf("toothSurface: want an array of surface codes")
			}
			list = []string{one}
		}
		t.ToothSurfaceCodes = list
	}
	return nil
}

// ServiceLineDateInformation holds the 2400 DTP segments besides 472.
type ServiceLineDateInformation struct {
	PriorPlacementDate      string `json:"priorPlacementDate,omitempty"`
	AppliancePlacementDate  string `json:"appliancePlacementDate,omitempty"`
	ReplacementDate         string `json:"replacementDate,omitempty"`
	TreatmentStartDate      string `json:"treatmentStartDate,omitempty"`
	TreatmentCompletionDate string `json:"treatmentCompletionDate,omitempty"`
}

// UnmarshalJSON accepts applianceDate for appliancePlacementDate.
func (d *ServiceLineDateInformation) UnmarshalJSON(b []byte) error {
	type plain ServiceLineDateInformation
	var v struct {
		plain
		ApplianceDate string `json:"applianceDate"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*d = ServiceLineDateInformation(v.plain)
	if d.AppliancePlacementDate == "" {
		d.AppliancePlacementDate = v.ApplianceDate
	}
	return nil
}

// ServiceLineReferenceInformation holds the 2400 REF segments.
type ServiceLineReferenceInformation struct {
	PriorAuthorization                      []string `json:"priorAuthorization,omitempty"`
	ReferralNumber                          []string `json:"referralNumber,omitempty"`
	PredeterminationOfBenefits              string   `json:"predeterminationOfBenefits,omitempty"`
	RepricedLineItemReferenceNumber         string   `json:"repricedLineItemReferenceNumber,omitempty"`
	AdjustedRepricedLineItemReferenceNumber string   `json:"adjustedRepricedLineItemReferenceNumber,omitempty"`
}

// UnmarshalJSON accepts one string or an array for priorAuthorization and
// referralNumber.
func (r *ServiceLineReferenceInformation) UnmarshalJSON(b []byte) error {
	type plain ServiceLineReferenceInformation
	var v struct {
		plain
		PriorAuthorization json.RawMessage `json:"priorAuthorization"`
		ReferralNumber     json.RawMessage `json:"referralNumber"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*r = ServiceLineReferenceInformation(v.plain)
	var err error
	if r.PriorAuthorization, err = stringOrList(v.PriorAuthorization, "priorAuthorization"); err != nil {
		return err
	}
	r.ReferralNumber, err = stringOrList(v.ReferralNumber, "referralNumber")
	return err
}

// LineAdjudication is loop 2430 (a prior payer's line payment, COB).
type LineAdjudication struct {
	OtherPayerPrimaryIdentifier  string            `json:"otherPayerPrimaryIdentifier,omitempty"`
	ServiceLinePaidAmount        string            `json:"serviceLinePaidAmount,omitempty"`
	ProcedureCode                string            `json:"procedureCode,omitempty"`
	ProcedureModifiers           []string          `json:"procedureModifiers,omitempty"`
	PaidServiceUnitCount         Count             `json:"paidServiceUnitCount,omitempty"`
	BundledOrUnbundledLineNumber string            `json:"bundledOrUnbundledLineNumber,omitempty"`
	AdjudicationOrPaymentDate    string            `json:"adjudicationOrPaymentDate,omitempty"`
	RemainingPatientLiability    string            `json:"remainingPatientLiability,omitempty"`
	ClaimAdjustmentInformation   []ClaimAdjustment `json:"claimAdjustmentInformation,omitempty"`
}

package claims

import "strings"

// The 837I's pay-to, facility, notes, coordination of benefits and the
// less common line data of the Institutional Claims v1 shape. Where the
// contract's institutional names differ from the professional ones
// (claimAdjustmentDetails, otherInsuredSuffix, groupNumber, one object
// per other payer's provider), the types here read them and convert to
// the shared writer's.

// PayToAddressName is billingPayToAddressName: 2010AB.
type PayToAddressName struct {
	EntityTypeQualifier string   `json:"entityTypeQualifier,omitempty"` // 2
	Address             *Address `json:"address,omitempty"`
}

// InstitutionalPayToPlan is billingPayToPlanName: 2010AC.
type InstitutionalPayToPlan struct {
	OrganizationName            string   `json:"organizationName,omitempty"`
	IdentificationCodeQualifier string   `json:"identificationCodeQualifier,omitempty"` // PI XV
	IdentificationCode          string   `json:"identificationCode,omitempty"`
	Address                     *Address `json:"address,omitempty"`
	PayerIdentificationNumber   string   `json:"payerIdentificationNumber,omitempty"` // REF*2U
	ClaimOfficeNumber           string   `json:"claimOfficeNumber,omitempty"`         // REF*FY
	NAIC                        string   `json:"naic,omitempty"`                      // REF*NF
	TaxID                       string   `json:"taxId,omitempty"`                     // REF*EI
}

// payToPlan is the shared writer's form; the loop takes one secondary REF,
// so the first given of 2U, FY, NF is it (the edits refuse more).
func (p *InstitutionalPayToPlan) payToPlan() *PayToPlan {
	if p == nil {
		return nil
	}
	out := &PayToPlan{OrganizationName: p.OrganizationName, PrimaryIdentifierTypeCode: p.IdentificationCodeQualifier,
		PrimaryIdentifier: p.IdentificationCode, TaxIdentificationNumber: p.TaxID, Address: p.Address}
	for _, q := range [][2]string{{"2U", p.PayerIdentificationNumber}, {"FY", p.ClaimOfficeNumber}, {"NF", p.NAIC}} {
		if q[1] != "" {
			out.SecondaryIdentifierTypeCode, out.SecondaryIdentifier = q[0], q[1]
			break
		}
	}
	return out
}

// InstitutionalFacility is the 837I's serviceFacilityLocation: 2310E.
type InstitutionalFacility struct {
	OrganizationName                     string   `json:"organizationName,omitempty"`
	IdentificationCode                   string   `json:"identificationCode,omitempty"` // the facility's NPI
	Address                              *Address `json:"address,omitempty"`
	SecondaryIdentificationQualifierCode string   `json:"secondaryIdentificationQualifierCode,omitempty"`
	SecondaryIdentifier                  string   `json:"secondaryIdentifier,omitempty"`
}

// facility is the shared writer's form.
func (f *InstitutionalFacility) facility() *ServiceFacility {
	if f == nil {
		return nil
	}
	out := &ServiceFacility{OrganizationName: f.OrganizationName, NPI: f.IdentificationCode, Address: f.Address}
	if f.SecondaryIdentifier != "" {
		out.SecondaryIdentifier = []SecondaryIdentifier{{Qualifier: f.SecondaryIdentificationQualifierCode, Identifier: f.SecondaryIdentifier}}
	}
	return out
}

// InstitutionalClaimNotes are the 2300 NTEs of the 837I, one list per
// note code (X223A3 NTE01).
type InstitutionalClaimNotes struct {
	AdditionalInformation             []string `json:"additionalInformation,omitempty"` // ADD (the billing note)
	Allergies                         []string `json:"allergies,omitempty"`             // ALG
	GoalRehabOrDischargePlans         []string `json:"goalRehabOrDischargePlans,omitempty"`
	DiagnosisDescription              []string `json:"diagnosisDescription,omitempty"`
	DME                               []string `json:"dme,omitempty"`
	Medications                       []string `json:"medications,omitempty"`
	NutritionalRequirments            []string `json:"nutritionalRequirments,omitempty"` // sic, the contract's name
	OrdersForDiscipLinesAndTreatments []string `json:"ordersForDiscipLinesAndTreatments,omitempty"`
	FunctionalLimitsOrReasonHomebound []string `json:"functionalLimitsOrReasonHomebound,omitempty"`
	ReasonsPatientLeavesHome          []string `json:"reasonsPatientLeavesHome,omitempty"`
	TimesAndReasonsPatientNotAtHome   []string `json:"timesAndReasonsPatientNotAtHome,omitempty"`
	UnusualHomeOrSocialEnv            []string `json:"unusualHomeOrSocialEnv,omitempty"`
	SafetyMeasures                    []string `json:"safetyMeasures,omitempty"`
	SupplementalPlanOfTreatment       []string `json:"supplementalPlanOfTreatment,omitempty"`
	UpdatedInformation                []string `json:"updatedInformation,omitempty"`
}

// coded lists the notes by NTE01 code, ADD apart (it is its own segment).
func (n *InstitutionalClaimNotes) coded() []struct {
	Code, Name string
	Texts      []string
} {
	if n == nil {
		return nil
	}
	type note = struct {
		Code, Name string
		Texts      []string
	}
	return []note{{"ALG", "allergies", n.Allergies}, {"DCP", "goalRehabOrDischargePlans", n.GoalRehabOrDischargePlans},
		{"DGN", "diagnosisDescription", n.DiagnosisDescription}, {"DME", "dme", n.DME}, {"MED", "medications", n.Medications},
		{"NTR", "nutritionalRequirments", n.NutritionalRequirments}, {"ODT", "ordersForDiscipLinesAndTreatments", n.OrdersForDiscipLinesAndTreatments},
		{"RHB", "functionalLimitsOrReasonHomebound", n.FunctionalLimitsOrReasonHomebound}, {"RLH", "reasonsPatientLeavesHome", n.ReasonsPatientLeavesHome},
		{"RNH", "timesAndReasonsPatientNotAtHome", n.TimesAndReasonsPatientNotAtHome}, {"SET", "unusualHomeOrSocialEnv", n.UnusualHomeOrSocialEnv},
		{"SFM", "safetyMeasures", n.SafetyMeasures}, {"SPT", "supplementalPlanOfTreatment", n.SupplementalPlanOfTreatment},
		{"UPI", "updatedInformation", n.UpdatedInformation}}
}

// InstitutionalOtherSubscriber is the 837I's otherSubscriberInformation
// (one object): 2320 with 2330A–I.
type InstitutionalOtherSubscriber struct {
	PaymentResponsibilityLevelCode           string                            `json:"paymentResponsibilityLevelCode,omitempty"`
	IndividualRelationshipCode               string                            `json:"individualRelationshipCode,omitempty"`
	GroupNumber                              string                            `json:"groupNumber,omitempty"`
	PolicyNumber                             string                            `json:"policyNumber,omitempty"`
	OtherInsuredGroupName                    string                            `json:"otherInsuredGroupName,omitempty"`
	ClaimFilingIndicatorCode                 string                            `json:"claimFilingIndicatorCode,omitempty"`
	ClaimLevelAdjustments                    []InstitutionalAdjustment         `json:"claimLevelAdjustments,omitempty"`
	PayerPaidAmount                          string                            `json:"payerPaidAmount,omitempty"`
	NonCoveredChargeAmount                   string                            `json:"nonCoveredChargeAmount,omitempty"`
	RemainingPatientLiability                string                            `json:"remainingPatientLiability,omitempty"`
	BenefitsAssignmentCertificationIndicator string                            `json:"benefitsAssignmentCertificationIndicator,omitempty"`
	ReleaseOfInformationCode                 string                            `json:"releaseOfInformationCode,omitempty"`
	MedicareInpatientAdjudication            *InpatientAdjudication            `json:"medicareInpatientAdjudication,omitempty"`  // MIA
	MedicareOutpatientAdjudication           *OutpatientAdjudication           `json:"medicareOutpatientAdjudication,omitempty"` // MOA
	OtherSubscriberName                      *InstitutionalOtherSubscriberName `json:"otherSubscriberName,omitempty"`
	OtherPayerName                           *InstitutionalOtherPayerName      `json:"otherPayerName,omitempty"`
	OtherPayerAttendingProvider              *OtherPayerProvider               `json:"otherPayerAttendingProvider,omitempty"`       // 2330C
	OtherPayerOperatingPhysician             *OtherPayerProvider               `json:"otherPayerOperatingPhysician,omitempty"`      // 2330D
	OtherPayerOtherOperatingPhysician        *OtherPayerProvider               `json:"otherPayerOtherOperatingPhysician,omitempty"` // 2330E
	OtherPayerServiceFacilityLocation        *OtherPayerProvider               `json:"otherPayerServiceFacilityLocation,omitempty"` // 2330F
	OtherPayerRenderingProvider              *OtherPayerProvider               `json:"otherPayerRenderingProvider,omitempty"`       // 2330G
	OtherPayerReferringProvider              *OtherPayerProvider               `json:"otherPayerReferringProvider,omitempty"`       // 2330H
	OtherPayerBillingProvider                *OtherPayerProvider               `json:"otherPayerBillingProvider,omitempty"`         // 2330I
}

// InstitutionalAdjustment is a CAS with the institutional names.
type InstitutionalAdjustment struct {
	AdjustmentGroupCode    string             `json:"adjustmentGroupCode,omitempty"`
	ClaimAdjustmentDetails []AdjustmentDetail `json:"claimAdjustmentDetails,omitempty"`
}

func institutionalCAS(list []InstitutionalAdjustment) []ClaimAdjustment {
	out := make([]ClaimAdjustment, len(list))
	for i, a := range list {
		out[i] = ClaimAdjustment{AdjustmentGroupCode: a.AdjustmentGroupCode, AdjustmentDetails: a.ClaimAdjustmentDetails}
	}
	return out
}

// InstitutionalOtherSubscriberName is 2330A with the institutional names.
type InstitutionalOtherSubscriberName struct {
	OtherInsuredQualifier            string   `json:"otherInsuredQualifier,omitempty"`
	OtherInsuredLastName             string   `json:"otherInsuredLastName,omitempty"`
	OtherInsuredFirstName            string   `json:"otherInsuredFirstName,omitempty"`
	FirstName                        string   `json:"firstName,omitempty"` // deprecated name of otherInsuredFirstName
	OtherInsuredMiddleName           string   `json:"otherInsuredMiddleName,omitempty"`
	OtherInsuredSuffix               string   `json:"otherInsuredSuffix,omitempty"`
	OtherInsuredIdentifierTypeCode   string   `json:"otherInsuredIdentifierTypeCode,omitempty"`
	OtherInsuredIdentifier           string   `json:"otherInsuredIdentifier,omitempty"`
	OtherInsuredAdditionalIdentifier []string `json:"otherInsuredAdditionalIdentifier,omitempty"` // REF*SY
	Address                          *Address `json:"address,omitempty"`
}

// InstitutionalOtherPayerName is 2330B; its otherInsuredAdditionalIdentifier
// is deprecated (the SSN belongs to 2330A).
type InstitutionalOtherPayerName struct {
	OtherPayerName
	OtherInsuredAdditionalIdentifier string `json:"otherInsuredAdditionalIdentifier,omitempty"`
}

// shared is the form the shared writer and edits take.
func (o *InstitutionalOtherSubscriber) shared() *OtherSubscriberInformation {
	s := &OtherSubscriberInformation{PaymentResponsibilityLevelCode: o.PaymentResponsibilityLevelCode,
		IndividualRelationshipCode: o.IndividualRelationshipCode, InsuranceGroupOrPolicyNumber: cmpOr(o.GroupNumber, o.PolicyNumber),
		ClaimFilingIndicatorCode: o.ClaimFilingIndicatorCode, BenefitsAssignmentCertificationIndicator: o.BenefitsAssignmentCertificationIndicator,
		ReleaseOfInformationCode: o.ReleaseOfInformationCode, PayerPaidAmount: o.PayerPaidAmount, NonCoveredChargeAmount: o.NonCoveredChargeAmount,
		RemainingPatientLiability: o.RemainingPatientLiability, ClaimLevelAdjustments: institutionalCAS(o.ClaimLevelAdjustments)}
	if s.InsuranceGroupOrPolicyNumber == "" {
		s.OtherInsuredGroupName = o.OtherInsuredGroupName // SBR04 only without SBR03, as the contract says
	}
	if n := o.OtherSubscriberName; n != nil {
		s.OtherSubscriberName = &OtherSubscriberName{OtherInsuredQualifier: n.OtherInsuredQualifier, OtherInsuredLastName: n.OtherInsuredLastName,
			OtherInsuredFirstName: cmpOr(n.OtherInsuredFirstName, n.FirstName), OtherInsuredMiddleName: n.OtherInsuredMiddleName,
			OtherInsuredNameSuffix: n.OtherInsuredSuffix, OtherInsuredIdentifierTypeCode: n.OtherInsuredIdentifierTypeCode,
			OtherInsuredIdentifier: n.OtherInsuredIdentifier, OtherInsuredAdditionalIdentifiers: n.OtherInsuredAdditionalIdentifier,
			OtherInsuredAddress: n.Address}
	}
	if p := o.OtherPayerName; p != nil {
		name := p.OtherPayerName
		s.OtherPayerName = &name
	}
	return s
}

// InpatientAdjudication is MIA: Medicare inpatient adjudication.
type InpatientAdjudication struct {
	CoveredDaysOrVisitsCount                    string   `json:"coveredDaysOrVisitsCount,omitempty"`                    // MIA01
	LifetimePsychiatricDaysCount                string   `json:"lifetimePsychiatricDaysCount,omitempty"`                // MIA03
	ClaimDRGAmount                              string   `json:"claimDRGAmount,omitempty"`                              // MIA04
	ClaimDisproportionateShareAmount            string   `json:"claimDisproportionateShareAmount,omitempty"`            // MIA06
	ClaimMspPassThroughAmount                   string   `json:"claimMspPassThroughAmount,omitempty"`                   // MIA07
	ClaimPpsCapitalAmount                       string   `json:"claimPpsCapitalAmount,omitempty"`                       // MIA08
	PpsCapitalHspDrgAmount                      string   `json:"ppsCapitalHspDrgAmount,omitempty"`                      // MIA10
	PpsCapitalDshDrgAmount                      string   `json:"ppsCapitalDshDrgAmount,omitempty"`                      // MIA11
	OldCapitalAmount                            string   `json:"oldCapitalAmount,omitempty"`                            // MIA12
	PpsCapitalImeAmount                         string   `json:"ppsCapitalImeAmount,omitempty"`                         // MIA13
	PpsOperatingHospitalSpecificDrgAmount       string   `json:"ppsOperatingHospitalSpecificDrgAmount,omitempty"`       // MIA14
	CostReportDayCount                          string   `json:"costReportDayCount,omitempty"`                          // MIA15
	PpsOperatingFederalSpecificDrgAmount        string   `json:"ppsOperatingFederalSpecificDrgAmount,omitempty"`        // MIA16
	ClaimPpsCapitalOutlierAmmount               string   `json:"claimPpsCapitalOutlierAmmount,omitempty"`               // MIA17 (sic)
	ClaimIndirectTeachingAmount                 string   `json:"claimIndirectTeachingAmount,omitempty"`                 // MIA18
	NonPayableProfessionalComponentBilledAmount string   `json:"nonPayableProfessionalComponentBilledAmount,omitempty"` // MIA19
	ClaimPaymentRemarkCode                      []string `json:"claimPaymentRemarkCode,omitempty"`                      // MIA05, MIA20–22
	CapitalExceptionAmount                      string   `json:"capitalExceptionAmount,omitempty"`                      // MIA24
	CapitalHSPDRGAmount                         string   `json:"capitalHSPDRGAmount,omitempty"`                         // MIA10 (the contract's second name)
}

// elements are MIA01–24: MIA05 and MIA20–22 the remark codes, MIA02
// (operating outlier) and MIA09 (capital federal-specific DRG) have no
// field in the contract.
func (m *InpatientAdjudication) elements() []string {
	remarks := make([]string, 4)
	copy(remarks, m.ClaimPaymentRemarkCode)
	out := []string{m.CoveredDaysOrVisitsCount, "", m.LifetimePsychiatricDaysCount, amount(m.ClaimDRGAmount), remarks[0],
		amount(m.ClaimDisproportionateShareAmount), amount(m.ClaimMspPassThroughAmount), amount(m.ClaimPpsCapitalAmount), "",
		amount(cmpOr(m.PpsCapitalHspDrgAmount, m.CapitalHSPDRGAmount)), amount(m.PpsCapitalDshDrgAmount), amount(m.OldCapitalAmount), amount(m.PpsCapitalImeAmount),
		amount(m.PpsOperatingHospitalSpecificDrgAmount), m.CostReportDayCount, amount(m.PpsOperatingFederalSpecificDrgAmount),
		amount(m.ClaimPpsCapitalOutlierAmmount), amount(m.ClaimIndirectTeachingAmount), amount(m.NonPayableProfessionalComponentBilledAmount)}
	out = append(out, remarks[1], remarks[2], remarks[3], "") // MIA20–23
	return append(out, amount(m.CapitalExceptionAmount))
}

// InstitutionalLineParts are the 2400 data of the 837I beyond SV2.
type InstitutionalLineParts struct {
	ServiceLineSupplementalInformation      *ReportInformation              `json:"serviceLineSupplementalInformation,omitempty"`      // PWK
	ServiceLineSupplementalInformations     []ReportInformation             `json:"serviceLineSupplementalInformations,omitempty"`     // PWK
	RepricedLineItemReferenceNumber         string                          `json:"repricedLineItemReferenceNumber,omitempty"`         // REF*9B
	AdjustedRepricedLineItemReferenceNumber string                          `json:"adjustedRepricedLineItemReferenceNumber,omitempty"` // REF*9D
	ServiceTaxAmount                        string                          `json:"serviceTaxAmount,omitempty"`                        // AMT*GT
	ThirdPartyOrganizationNotes             string                          `json:"thirdPartyOrganizationNotes,omitempty"`             // NTE*TPO
	LineRepricingInformation                *Repricing                      `json:"lineRepricingInformation,omitempty"`                // HCP
	LineAdjudicationInformation             []InstitutionalLineAdjudication `json:"lineAdjudicationInformation,omitempty"`             // 2430
	// Deprecated shapes of the contract, refused with the field to use
	// instead (they overlap the current ones).
	LineAdjustmentInformation       *deprecatedObject `json:"lineAdjustmentInformation,omitempty"`
	LinePricingInformation          *deprecatedObject `json:"linePricingInformation,omitempty"`
	LineSupplementInformation       *deprecatedObject `json:"lineSupplementInformation,omitempty"`
	ServiceLineDateInformation      *deprecatedObject `json:"serviceLineDateInformation,omitempty"`
	ServiceLineReferenceInformation *deprecatedObject `json:"serviceLineReferenceInformation,omitempty"`
}

// reports are the line's PWKs, both forms.
func (l *InstitutionalLineParts) reports() []ReportInformation {
	out := l.ServiceLineSupplementalInformations
	if l.ServiceLineSupplementalInformation != nil {
		out = append([]ReportInformation{*l.ServiceLineSupplementalInformation}, out...)
	}
	return out
}

// deprecatedObject takes any JSON value: the edits refuse it by name.
type deprecatedObject struct{}

// UnmarshalJSON accepts the value; its presence is what the edits see.
func (*deprecatedObject) UnmarshalJSON([]byte) error { return nil }

// InstitutionalLineAdjudication is 2430 with the institutional names.
type InstitutionalLineAdjudication struct {
	OtherPayerPrimaryIdentifier string                    `json:"otherPayerPrimaryIdentifier,omitempty"`
	ServiceLinePaidAmount       string                    `json:"serviceLinePaidAmount,omitempty"`
	ProductOrServiceIDQualifier string                    `json:"productOrServiceIDQualifier,omitempty"`
	ProcedureCode               string                    `json:"procedureCode,omitempty"`
	ProcedureModifier           []string                  `json:"procedureModifier,omitempty"`
	ProcedureCodeDescription    string                    `json:"procedureCodeDescription,omitempty"`
	ServiceLineRevenueCode      string                    `json:"serviceLineRevenueCode,omitempty"` // SVD04
	PaidServiceUnitCount        string                    `json:"paidServiceUnitCount,omitempty"`
	BundledLineNumber           string                    `json:"bundledLineNumber,omitempty"`
	LineAdjustment              []InstitutionalAdjustment `json:"lineAdjustment,omitempty"`
	AdjudicationOrPaymentDate   string                    `json:"adjudicationOrPaymentDate,omitempty"`
	RemainingPatientLiability   string                    `json:"remainingPatientLiability,omitempty"`
}

// billingNote is the 2300 NTE*ADD: billingNote, or claimNotes'
// additionalInformation (the edits refuse both at once).
func (ci *InstitutionalClaimInformation) billingNote() string {
	if ci.BillingNote != "" || ci.ClaimNotes == nil {
		return ci.BillingNote
	}
	return strings.Join(ci.ClaimNotes.AdditionalInformation, "; ")
}

// epsdt is the CRC*ZZ: epsdtReferral, its codes from the older
// claim-level conditionCodes when it has none.
func (ci *InstitutionalClaimInformation) epsdt() *EPSDTReferral {
	e := ci.EpsdtReferral
	if e == nil {
		return nil
	}
	if len(e.ConditionCodes) == 0 && len(ci.ConditionCodes) > 0 {
		c := *e
		c.ConditionCodes = ci.ConditionCodes
		return &c
	}
	return e
}

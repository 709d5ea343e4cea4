package reports

// The 835 report's JSON shape: the hosted API's "Convert Reports" 835 (the
// Change Healthcare Reports v2 format). Every value is a string, amounts as
// decimals exactly as the payer sent them. Only what a remittance carries is
// written (omitempty everywhere): a report never invents a value.

// Meta is the report's metadata block.
type Meta struct {
	ApplicationMode string `json:"applicationMode,omitempty"` // "test" or "production"
	SenderID        string `json:"senderId,omitempty"`        // ISA06 of the interchange, trimmed
	TraceID         string `json:"traceId,omitempty"`
	TransactionID   string `json:"transactionId,omitempty"`
}

type financialInformation struct {
	TransactionHandlingCode            string                  `json:"transactionHandlingCode,omitempty"`
	TotalActualProviderPaymentAmount   string                  `json:"totalActualProviderPaymentAmount,omitempty"`
	CreditOrDebitFlagCode              string                  `json:"creditOrDebitFlagCode,omitempty"`
	PaymentMethodCode                  string                  `json:"paymentMethodCode,omitempty"`
	PaymentFormatCode                  string                  `json:"paymentFormatCode,omitempty"`
	SenderAccountDetails               *senderAccountDetails   `json:"senderAccountDetails,omitempty"`
	PayerIdentifier                    string                  `json:"payerIdentifier,omitempty"`
	OriginatingCompanySupplementalCode string                  `json:"originatingCompanySupplementalCode,omitempty"`
	ReceiverAccountDetails             *receiverAccountDetails `json:"receiverAccountDetails,omitempty"`
	CheckIssueOrEFTEffectiveDate       string                  `json:"checkIssueOrEFTEffectiveDate,omitempty"`
}

type senderAccountDetails struct {
	SenderDfiIDNumberQualifier   string `json:"senderDfiIdNumberQualifier,omitempty"`
	SenderDFIIdentifier          string `json:"senderDFIIdentifier,omitempty"`
	SenderAccountNumberQualifier string `json:"senderAccountNumberQualifier,omitempty"`
	SenderAccountNumber          string `json:"senderAccountNumber,omitempty"`
}

type receiverAccountDetails struct {
	ReceiverDfiIDNumberQualifier    string `json:"receiverDfiIdNumberQualifier,omitempty"`
	ReceiverDfiIdentificationNumber string `json:"receiverDfiIdentificationNumber,omitempty"`
	ReceiverAccountNumberQualifier  string `json:"receiverAccountNumberQualifier,omitempty"`
	ReceiverAccountNumber           string `json:"receiverAccountNumber,omitempty"`
}

type reassociation struct {
	TraceTypeCode                      string `json:"traceTypeCode,omitempty"`
	CheckOrEFTTraceNumber              string `json:"checkOrEFTTraceNumber,omitempty"`
	OriginatingCompanyIdentifier       string `json:"originatingCompanyIdentifier,omitempty"`
	OriginatingCompanySupplementalCode string `json:"originatingCompanySupplementalCode,omitempty"`
}

type address struct {
	Address1       string `json:"address1,omitempty"`
	Address2       string `json:"address2,omitempty"`
	City           string `json:"city,omitempty"`
	State          string `json:"state,omitempty"`
	PostalCode     string `json:"postalCode,omitempty"`
	CountryCode    string `json:"countryCode,omitempty"`
	CountrySubCode string `json:"countrySubCode,omitempty"`
}

type contactMethod struct {
	Email          string `json:"email,omitempty"`
	Fax            string `json:"fax,omitempty"`
	Phone          string `json:"phone,omitempty"`
	PhoneExtension string `json:"phoneExtension,omitempty"`
	URL            string `json:"url,omitempty"`
}

type contact struct {
	ContactName    string          `json:"contactName,omitempty"`
	ContactMethods []contactMethod `json:"contactMethods,omitempty"`
}

type payer struct {
	Name                                        string    `json:"name,omitempty"`
	Address                                     *address  `json:"address,omitempty"`
	PayerIdentificationNumber                   string    `json:"payerIdentificationNumber,omitempty"`
	CentersForMedicareAndMedicaidServicesPlanID string    `json:"centersForMedicareAndMedicaidServicesPlanId,omitempty"`
	SubmitterIdentificationNumber               string    `json:"submitterIdentificationNumber,omitempty"`
	HealthIndustryNumber                        string    `json:"healthIndustryNumber,omitempty"`
	NationalAssociationOfInsuranceCommissioners string    `json:"nationalAssociationOfInsuranceCommissioners,omitempty"`
	BusinessContactInformation                  *contact  `json:"businessContactInformation,omitempty"`
	TechnicalContactInformation                 []contact `json:"technicalContactInformation,omitempty"`
	PayerWebSiteURL                             string    `json:"payerWebSiteUrl,omitempty"`
}

type payee struct {
	Name                                                     string              `json:"name,omitempty"`
	NPI                                                      string              `json:"npi,omitempty"`
	FederalTaxPayersIdentificationNumber                     string              `json:"federalTaxPayersIdentificationNumber,omitempty"`
	CentersForMedicareAndMedicaidServicesPlanID              string              `json:"centersForMedicareAndMedicaidServicesPlanId,omitempty"`
	NationalCouncilForPrescriptionDrugProgramsPharmacyNumber string              `json:"nationalCouncilForPrescriptionDrugProgramsPharmacyNumber,omitempty"`
	Address                                                  *address            `json:"address,omitempty"`
	TaxID                                                    string              `json:"taxId,omitempty"`
	StateLicenseNumber                                       string              `json:"stateLicenseNumber,omitempty"`
	PayeeIdentification                                      string              `json:"payeeIdentification,omitempty"`
	RemittanceDeliveryMethod                                 *remittanceDelivery `json:"remittanceDeliveryMethod,omitempty"`
}

type remittanceDelivery struct {
	Name   string `json:"name,omitempty"`
	Email  string `json:"email,omitempty"`
	FTP    string `json:"ftp,omitempty"`
	OnLine string `json:"onLine,omitempty"`
}

// txHeader is everything of a transaction set that precedes its first LX.
type txHeader struct {
	ControlNumber                       string                `json:"controlNumber,omitempty"`
	ProductionDate                      string                `json:"productionDate,omitempty"`
	ReceiverIdentifier                  string                `json:"receiverIdentifier,omitempty"`
	VersionIdentification               string                `json:"versionIdentification,omitempty"`
	ForeignCurrency                     string                `json:"foreignCurrency,omitempty"`
	FinancialInformation                *financialInformation `json:"financialInformation,omitempty"`
	PaymentAndRemitReassociationDetails *reassociation        `json:"paymentAndRemitReassociationDetails,omitempty"`
	Payer                               *payer                `json:"payer,omitempty"`
	Payee                               *payee                `json:"payee,omitempty"`
}

type providerSummary struct {
	ProviderIdentifier                string `json:"providerIdentifier,omitempty"`
	FacilityTypeCode                  string `json:"facilityTypeCode,omitempty"`
	FiscalPeriodDate                  string `json:"fiscalPeriodDate,omitempty"`
	TotalClaimCount                   string `json:"totalClaimCount,omitempty"`
	TotalClaimChargeAmount            string `json:"totalClaimChargeAmount,omitempty"`
	TotalMSPPayerAmount               string `json:"totalMSPPayerAmount,omitempty"`
	TotalNonLabChargeAmount           string `json:"totalNonLabChargeAmount,omitempty"`
	TotalHCPCSReportedChargeAmount    string `json:"totalHCPCSReportedChargeAmount,omitempty"`
	TotalHCPCSPayableAmount           string `json:"totalHCPCSPayableAmount,omitempty"`
	TotalProfessionalComponentAmount  string `json:"totalProfessionalComponentAmount,omitempty"`
	TotalMSPPatientLiabilityMetAmount string `json:"totalMSPPatientLiabilityMetAmount,omitempty"`
	TotalPatientReimbursementAmount   string `json:"totalPatientReimbursementAmount,omitempty"`
	TotalPIPClaimCount                string `json:"totalPIPClaimCount,omitempty"`
	TotalPIPAdjustmentAmount          string `json:"totalPIPAdjustmentAmount,omitempty"`
}

// detailHeader is an LX loop's header: what comes before its first claim.
type detailHeader struct {
	AssignedNumber                         string            `json:"assignedNumber,omitempty"`
	ProviderSummaryInformation             *providerSummary  `json:"providerSummaryInformation,omitempty"`
	ProviderSupplementalSummaryInformation map[string]string `json:"providerSupplementalSummaryInformation,omitempty"`
}

// adjustment is one CAS segment: a group code and up to six reason triplets,
// flattened into numbered fields as the contract names them. (Structs, not
// maps: encoding a map sorts its keys, three times slower.)
type adjustment struct {
	ClaimAdjustmentGroupCode      string `json:"claimAdjustmentGroupCode,omitempty"`
	ClaimAdjustmentGroupCodeValue string `json:"claimAdjustmentGroupCodeValue,omitempty"`
	AdjustmentReasonCode1         string `json:"adjustmentReasonCode1,omitempty"`
	AdjustmentReason1             string `json:"adjustmentReason1,omitempty"`
	AdjustmentAmount1             string `json:"adjustmentAmount1,omitempty"`
	AdjustmentQuantity1           string `json:"adjustmentQuantity1,omitempty"`
	AdjustmentReasonCode2         string `json:"adjustmentReasonCode2,omitempty"`
	AdjustmentReason2             string `json:"adjustmentReason2,omitempty"`
	AdjustmentAmount2             string `json:"adjustmentAmount2,omitempty"`
	AdjustmentQuantity2           string `json:"adjustmentQuantity2,omitempty"`
	AdjustmentReasonCode3         string `json:"adjustmentReasonCode3,omitempty"`
	AdjustmentReason3             string `json:"adjustmentReason3,omitempty"`
	AdjustmentAmount3             string `json:"adjustmentAmount3,omitempty"`
	AdjustmentQuantity3           string `json:"adjustmentQuantity3,omitempty"`
	AdjustmentReasonCode4         string `json:"adjustmentReasonCode4,omitempty"`
	AdjustmentReason4             string `json:"adjustmentReason4,omitempty"`
	AdjustmentAmount4             string `json:"adjustmentAmount4,omitempty"`
	AdjustmentQuantity4           string `json:"adjustmentQuantity4,omitempty"`
	AdjustmentReasonCode5         string `json:"adjustmentReasonCode5,omitempty"`
	AdjustmentReason5             string `json:"adjustmentReason5,omitempty"`
	AdjustmentAmount5             string `json:"adjustmentAmount5,omitempty"`
	AdjustmentQuantity5           string `json:"adjustmentQuantity5,omitempty"`
	AdjustmentReasonCode6         string `json:"adjustmentReasonCode6,omitempty"`
	AdjustmentReason6             string `json:"adjustmentReason6,omitempty"`
	AdjustmentAmount6             string `json:"adjustmentAmount6,omitempty"`
	AdjustmentQuantity6           string `json:"adjustmentQuantity6,omitempty"`
}

// reason returns the i-th triplet's slots (1 to 6).
func (a *adjustment) reason(i int) (code, text, amount, quantity *string) {
	switch i {
	case 1:
		return &a.AdjustmentReasonCode1, &a.AdjustmentReason1, &a.AdjustmentAmount1, &a.AdjustmentQuantity1
	case 2:
		return &a.AdjustmentReasonCode2, &a.AdjustmentReason2, &a.AdjustmentAmount2, &a.AdjustmentQuantity2
	case 3:
		return &a.AdjustmentReasonCode3, &a.AdjustmentReason3, &a.AdjustmentAmount3, &a.AdjustmentQuantity3
	case 4:
		return &a.AdjustmentReasonCode4, &a.AdjustmentReason4, &a.AdjustmentAmount4, &a.AdjustmentQuantity4
	case 5:
		return &a.AdjustmentReasonCode5, &a.AdjustmentReason5, &a.AdjustmentAmount5, &a.AdjustmentQuantity5
	default:
		return &a.AdjustmentReasonCode6, &a.AdjustmentReason6, &a.AdjustmentAmount6, &a.AdjustmentQuantity6
	}
}

type claimPaymentInfo struct {
	PatientControlNumber           string `json:"patientControlNumber,omitempty"`
	ClaimStatusCode                string `json:"claimStatusCode,omitempty"`
	TotalClaimChargeAmount         string `json:"totalClaimChargeAmount,omitempty"`
	ClaimPaymentAmount             string `json:"claimPaymentAmount,omitempty"`
	PatientResponsibilityAmount    string `json:"patientResponsibilityAmount,omitempty"`
	ClaimFilingIndicatorCode       string `json:"claimFilingIndicatorCode,omitempty"`
	PayerClaimControlNumber        string `json:"payerClaimControlNumber,omitempty"`
	FacilityTypeCode               string `json:"facilityTypeCode,omitempty"`
	ClaimFrequencyCode             string `json:"claimFrequencyCode,omitempty"`
	DiagnosisRelatedGroupDRGCode   string `json:"diagnosisRelatedGroupDRGCode,omitempty"`
	DiagnosisRelatedGroupDRGWeight string `json:"diagnosisRelatedGroupDRGWeight,omitempty"`
	DischargeFraction              string `json:"dischargeFraction,omitempty"`
}

// person is an NM1 in a claim: patient, subscriber, corrected name,
// rendering provider, other subscriber, crossover carrier, priority payer.
type person map[string]string

type paymentInfo struct {
	ClaimPaymentInfo                       *claimPaymentInfo `json:"claimPaymentInfo,omitempty"`
	ClaimAdjustments                       []adjustment      `json:"claimAdjustments,omitempty"`
	PatientName                            person            `json:"patientName,omitempty"`
	Subscriber                             person            `json:"subscriber,omitempty"`
	CorrectedPatientOrInsuredName          person            `json:"correctedPatientOrInsuredName,omitempty"`
	RenderingProvider                      person            `json:"renderingProvider,omitempty"`
	CrossoverCarrier                       person            `json:"crossoverCarrier,omitempty"`
	CorrectedPriorityPayer                 person            `json:"correctedPriorityPayer,omitempty"`
	OtherSubscriber                        person            `json:"otherSubscriber,omitempty"`
	InpatientAdjudication                  map[string]string `json:"inpatientAdjudication,omitempty"`
	OutpatientAdjudication                 map[string]string `json:"outpatientAdjudication,omitempty"`
	OtherClaimRelatedIdentification        map[string]any    `json:"otherClaimRelatedIdentification,omitempty"`
	RenderingProviderIdentification        map[string]string `json:"renderingProviderIdentification,omitempty"`
	ClaimStatementPeriodStart              string            `json:"claimStatementPeriodStart,omitempty"`
	ClaimStatementPeriodEnd                string            `json:"claimStatementPeriodEnd,omitempty"`
	CoverageExpirationDate                 string            `json:"coverageExpirationDate,omitempty"`
	ClaimReceivedDate                      string            `json:"claimReceivedDate,omitempty"`
	ClaimContactInformation                []contact         `json:"claimContactInformation,omitempty"`
	ClaimSupplementalInformation           map[string]string `json:"claimSupplementalInformation,omitempty"`
	ClaimSupplementalInformationQuantities map[string]string `json:"claimSupplementalInformationQuantities,omitempty"`
	ServiceLines                           []*serviceLine    `json:"serviceLines,omitempty"`
}

type servicePayment struct {
	ProductOrServiceIDQualifier                string   `json:"productOrServiceIDQualifier,omitempty"`
	ProductOrServiceIDQualifierValue           string   `json:"productOrServiceIDQualifierValue,omitempty"`
	AdjudicatedProcedureCode                   string   `json:"adjudicatedProcedureCode,omitempty"`
	AdjudicatedProcedureModifierCodes          []string `json:"adjudicatedProcedureModifierCodes,omitempty"`
	LineItemChargeAmount                       string   `json:"lineItemChargeAmount,omitempty"`
	LineItemProviderPaymentAmount              string   `json:"lineItemProviderPaymentAmount,omitempty"`
	NationalUniformBillingCommitteeRevenueCode string   `json:"nationalUniformBillingCommitteeRevenueCode,omitempty"`
	UnitsOfServicePaidCount                    string   `json:"unitsOfServicePaidCount,omitempty"`
	SubmittedProductOrServiceIDQualifier       string   `json:"submittedProductOrServiceIDQualifier,omitempty"`
	SubmittedProductOrServiceIDQualifierValue  string   `json:"submittedProductOrServiceIDQualifierValue,omitempty"`
	SubmittedAdjudicatedProcedureCode          string   `json:"submittedAdjudicatedProcedureCode,omitempty"`
	SubmittedAdjudicatedProcedureModifierCodes []string `json:"submittedAdjudicatedProcedureModifierCodes,omitempty"`
	SubmittedProcedureCodeDescription          string   `json:"submittedProcedureCodeDescription,omitempty"`
	OriginalUnitsOfServiceCount                string   `json:"originalUnitsOfServiceCount,omitempty"`
}

type remarkCode struct {
	CodeListQualifierCode      string `json:"codeListQualifierCode,omitempty"`
	CodeListQualifierCodeValue string `json:"codeListQualifierCodeValue,omitempty"`
	RemarkCode                 string `json:"remarkCode,omitempty"`
	Remark                     string `json:"remark,omitempty"`
}

type policyID struct {
	PolicyFormIdentifyingNumber string `json:"policyFormIdentifyingNumber,omitempty"`
}

type serviceLine struct {
	ServicePaymentInformation      *servicePayment   `json:"servicePaymentInformation,omitempty"`
	ServiceDate                    string            `json:"serviceDate,omitempty"`
	ServiceStartDate               string            `json:"serviceStartDate,omitempty"`
	ServiceEndDate                 string            `json:"serviceEndDate,omitempty"`
	ServiceAdjustments             []adjustment      `json:"serviceAdjustments,omitempty"`
	LineItemControlNumber          string            `json:"lineItemControlNumber,omitempty"`
	ServiceIdentification          map[string]string `json:"serviceIdentification,omitempty"`
	RenderingProviderInformation   map[string]string `json:"renderingProviderInformation,omitempty"`
	HealthCarePolicyIdentification []policyID        `json:"healthCarePolicyIdentification,omitempty"`
	ServiceSupplementalAmounts     *lineAmountsJSON  `json:"serviceSupplementalAmounts,omitempty"`
	ServiceSupplementalQuantities  map[string]string `json:"serviceSupplementalQuantities,omitempty"`
	HealthCareCheckRemarkCodes     []remarkCode      `json:"healthCareCheckRemarkCodes,omitempty"`
}

type providerAdjustmentItem struct {
	AdjustmentReasonCode         string `json:"adjustmentReasonCode,omitempty"`
	AdjustmentReasonCodeValue    string `json:"adjustmentReasonCodeValue,omitempty"`
	ProviderAdjustmentIdentifier string `json:"providerAdjustmentIdentifier,omitempty"`
	ProviderAdjustmentAmount     string `json:"providerAdjustmentAmount,omitempty"`
}

type providerAdjustment struct {
	ProviderIdentifier string                   `json:"providerIdentifier,omitempty"`
	FiscalPeriodDate   string                   `json:"fiscalPeriodDate,omitempty"`
	Adjustments        []providerAdjustmentItem `json:"adjustments,omitempty"`
}

// lineAmountsJSON is a line's AMT segments (2110).
type lineAmountsJSON struct {
	AllowedActual         string `json:"allowedActual,omitempty"`
	DeductionAmount       string `json:"deductionAmount,omitempty"`
	Tax                   string `json:"tax,omitempty"`
	TotalClaimBeforeTaxes string `json:"totalClaimBeforeTaxes,omitempty"`
	Category1             string `json:"federalMedicareOrMedicaidPaymentMandateCategory1,omitempty"`
	Category2             string `json:"federalMedicareOrMedicaidPaymentMandateCategory2,omitempty"`
	Category3             string `json:"federalMedicareOrMedicaidPaymentMandateCategory3,omitempty"`
	Category4             string `json:"federalMedicareOrMedicaidPaymentMandateCategory4,omitempty"`
	Category5             string `json:"federalMedicareOrMedicaidPaymentMandateCategory5,omitempty"`
}

func (l *lineAmountsJSON) slot(qualifier string) *string {
	switch qualifier {
	case "B6":
		return &l.AllowedActual
	case "KH":
		return &l.DeductionAmount
	case "T":
		return &l.Tax
	case "T2":
		return &l.TotalClaimBeforeTaxes
	case "ZK":
		return &l.Category1
	case "ZL":
		return &l.Category2
	case "ZM":
		return &l.Category3
	case "ZN":
		return &l.Category4
	case "ZO":
		return &l.Category5
	}
	return nil
}

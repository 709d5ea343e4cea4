package eligibility

import "encoding/json"

// Response is the body of an eligibility check answer
// (EligibilityCheckResponseContent, api-contract.md §1.3). Field order
// follows the contract's examples. Code fields come with their names
// (code/name, coverageLevelCode/coverageLevel, …); a code missing from our
// lists is passed through with the code as its name.
type Response struct {
	Meta                    *Meta                 `json:"meta,omitempty"`
	ID                      string                `json:"id,omitempty"`
	EligibilitySearchID     string                `json:"eligibilitySearchId,omitempty"`
	ControlNumber           string                `json:"controlNumber,omitempty"`
	ReassociationKey        string                `json:"reassociationKey,omitempty"`
	TradingPartnerServiceID string                `json:"tradingPartnerServiceId,omitempty"`
	Provider                *ResponseProvider     `json:"provider,omitempty"`
	Subscriber              *ResponsePerson       `json:"subscriber,omitempty"`
	SubscriberTraceNumbers  []TraceNumber         `json:"subscriberTraceNumbers,omitempty"`
	Dependents              []ResponsePerson      `json:"dependents,omitempty"`
	Payer                   *ResponsePayer        `json:"payer,omitempty"`
	PlanInformation         map[string]string     `json:"planInformation,omitempty"`
	PlanDateInformation     map[string]string     `json:"planDateInformation,omitempty"`
	PlanStatus              []PlanStatus          `json:"planStatus,omitempty"`
	BenefitsInformation     []BenefitsInformation `json:"benefitsInformation,omitempty"`
	// Errors holds every AAA of the 271, from every loop; [] when none.
	Errors   []AAAError `json:"errors"`
	Warnings []Warning  `json:"warnings,omitempty"`
	// Status is "ERROR" when we could not build, send or read the exchange.
	Status string `json:"status,omitempty"`
	// Filled when the payer answered with a 999 instead of a 271.
	TransactionSetAcknowledgement           string `json:"transactionSetAcknowledgement,omitempty"`
	ImplementationTransactionSetSyntaxError string `json:"implementationTransactionSetSyntaxError,omitempty"`
	// X12 is the payer's raw answer (271 or 999).
	X12 string `json:"x12,omitempty"`
}

// Meta describes the exchange rather than the patient.
type Meta struct {
	SenderID    string `json:"senderId,omitempty"`
	SubmitterID string `json:"submitterId,omitempty"`
	BillerID    string `json:"billerId,omitempty"`
	// ApplicationMode is "test", "production" or "information" (ISA15 T, P, I).
	ApplicationMode string `json:"applicationMode,omitempty"`
	// TraceID is the payer's BHT03; OutboundTraceID our id for the check
	// (the BHT03 and TRN02 of the 270 we sent).
	TraceID         string `json:"traceId,omitempty"`
	OutboundTraceID string `json:"outboundTraceId,omitempty"`
}

// ResponseAddress is an N3/N4 pair.
type ResponseAddress = Address

// ResponseProvider is loop 2100B of the 271 (or a PRV-described provider).
type ResponseProvider struct {
	ProviderName             string           `json:"providerName,omitempty"`
	ProviderFirstName        string           `json:"providerFirstName,omitempty"`
	MiddleName               string           `json:"middleName,omitempty"`
	Suffix                   string           `json:"suffix,omitempty"`
	ProviderOrgName          string           `json:"providerOrgName,omitempty"`
	EntityIdentifier         string           `json:"entityIdentifier,omitempty"`
	EntityType               string           `json:"entityType,omitempty"`
	NPI                      string           `json:"npi,omitempty"`
	FederalTaxpayersIDNumber string           `json:"federalTaxpayersIdNumber,omitempty"`
	PayorIdentification      string           `json:"payorIdentification,omitempty"`
	PharmacyProcessorNumber  string           `json:"pharmacyProcessorNumber,omitempty"`
	ServiceProviderNumber    string           `json:"serviceProviderNumber,omitempty"`
	ServicesPlanID           string           `json:"servicesPlanID,omitempty"`
	SSN                      string           `json:"ssn,omitempty"`
	EmployersID              string           `json:"employersId,omitempty"`
	Address                  *ResponseAddress `json:"address,omitempty"`
	ProviderCode             string           `json:"providerCode,omitempty"`
	ReferenceIdentification  string           `json:"referenceIdentification,omitempty"`
	AAAErrors                []AAAError       `json:"aaaErrors,omitempty"`
}

// ResponsePerson is a subscriber (2100C) or dependent (2100D) of the 271.
type ResponsePerson struct {
	MemberID                 string            `json:"memberId,omitempty"`
	FirstName                string            `json:"firstName,omitempty"`
	LastName                 string            `json:"lastName,omitempty"`
	MiddleName               string            `json:"middleName,omitempty"`
	Suffix                   string            `json:"suffix,omitempty"`
	Gender                   string            `json:"gender,omitempty"`
	DateOfBirth              string            `json:"dateOfBirth,omitempty"`
	SSN                      string            `json:"ssn,omitempty"`
	GroupNumber              string            `json:"groupNumber,omitempty"`
	GroupDescription         string            `json:"groupDescription,omitempty"`
	PlanNumber               string            `json:"planNumber,omitempty"`
	PlanDescription          string            `json:"planDescription,omitempty"`
	PlanNetworkIDNumber      string            `json:"planNetworkIdNumber,omitempty"`
	PlanNetworkDescription   string            `json:"planNetworkDescription,omitempty"`
	RelationToSubscriber     string            `json:"relationToSubscriber,omitempty"`
	RelationToSubscriberCode string            `json:"relationToSubscriberCode,omitempty"`
	InsuredIndicator         string            `json:"insuredIndicator,omitempty"`
	MaintenanceTypeCode      string            `json:"maintenanceTypeCode,omitempty"`
	MaintenanceReasonCode    string            `json:"maintenanceReasonCode,omitempty"`
	BirthSequenceNumber      string            `json:"birthSequenceNumber,omitempty"`
	UniqueHealthIdentifier   string            `json:"uniqueHealthIdentifier,omitempty"`
	EntityIdentifier         string            `json:"entityIdentifier,omitempty"`
	EntityType               string            `json:"entityType,omitempty"`
	Address                  *ResponseAddress  `json:"address,omitempty"`
	HealthCareDiagnosisCodes []DiagnosisCode   `json:"healthCareDiagnosisCodes,omitempty"`
	ResponseProvider         *ResponseProvider `json:"responseProvider,omitempty"`
	// Military personnel information (MPI).
	InformationStatusCode            string     `json:"informationStatusCode,omitempty"`
	EmploymentStatusCode             string     `json:"employmentStatusCode,omitempty"`
	GovernmentServiceAffiliationCode string     `json:"governmentServiceAffiliationCode,omitempty"`
	Description                      string     `json:"description,omitempty"`
	MilitaryServiceRankCode          string     `json:"militaryServiceRankCode,omitempty"`
	DateTimePeriodFormatQualifier    string     `json:"dateTimePeriodFormatQualifier,omitempty"`
	DateTimePeriod                   string     `json:"dateTimePeriod,omitempty"`
	StartDateTimePeriod              string     `json:"startDateTimePeriod,omitempty"`
	EndDateTimePeriod                string     `json:"endDateTimePeriod,omitempty"`
	AAAErrors                        []AAAError `json:"aaaErrors,omitempty"`
}

// ResponsePayer is loop 2100A of the 271.
type ResponsePayer struct {
	Name                                string              `json:"name,omitempty"`
	LastName                            string              `json:"lastName,omitempty"`
	FirstName                           string              `json:"firstName,omitempty"`
	MiddleName                          string              `json:"middleName,omitempty"`
	Suffix                              string              `json:"suffix,omitempty"`
	EntityIdentifier                    string              `json:"entityIdentifier,omitempty"`
	EntityType                          string              `json:"entityType,omitempty"`
	PayorIdentification                 string              `json:"payorIdentification,omitempty"`
	FederalTaxpayersIDNumber            string              `json:"federalTaxpayersIdNumber,omitempty"`
	NAIC                                string              `json:"naic,omitempty"`
	NPI                                 string              `json:"npi,omitempty"`
	ETIN                                string              `json:"etin,omitempty"`
	CentersForMedicareAndMedicaidPlanID string              `json:"centersForMedicareAndMedicaidPlanId,omitempty"`
	EmployersID                         string              `json:"employersId,omitempty"`
	ContactInformation                  *ContactInformation `json:"contactInformation,omitempty"`
	AAAErrors                           []AAAError          `json:"aaaErrors,omitempty"`
}

// ContactInformation comes from PER segments.
type ContactInformation struct {
	Name     string    `json:"name,omitempty"`
	Contacts []Contact `json:"contacts,omitempty"`
}

// Contact is one communication number of a PER.
type Contact struct {
	CommunicationMode   string `json:"communicationMode,omitempty"`
	CommunicationNumber string `json:"communicationNumber,omitempty"`
}

// TraceNumber is a TRN of loop 2000C/D.
type TraceNumber struct {
	TraceTypeCode                    string `json:"traceTypeCode,omitempty"`
	TraceType                        string `json:"traceType,omitempty"`
	ReferenceIdentification          string `json:"referenceIdentification,omitempty"`
	OriginatingCompanyIdentifier     string `json:"originatingCompanyIdentifier,omitempty"`
	SecondaryReferenceIdentification string `json:"secondaryReferenceIdentification,omitempty"`
}

// PlanStatus is the deprecated summary of an EB with EB01 1–8.
type PlanStatus struct {
	StatusCode       string   `json:"statusCode,omitempty"`
	Status           string   `json:"status,omitempty"`
	PlanDetails      string   `json:"planDetails,omitempty"`
	ServiceTypeCodes []string `json:"serviceTypeCodes,omitempty"`
}

// BenefitsInformation is one EB segment with the segments of its 2110, 2115
// and 2120 loops.
type BenefitsInformation struct {
	Code                       string   `json:"code,omitempty"`
	Name                       string   `json:"name,omitempty"`
	CoverageLevelCode          string   `json:"coverageLevelCode,omitempty"`
	CoverageLevel              string   `json:"coverageLevel,omitempty"`
	ServiceTypeCodes           []string `json:"serviceTypeCodes,omitempty"`
	ServiceTypes               []string `json:"serviceTypes,omitempty"`
	InsuranceTypeCode          string   `json:"insuranceTypeCode,omitempty"`
	InsuranceType              string   `json:"insuranceType,omitempty"`
	PlanCoverage               string   `json:"planCoverage,omitempty"`
	TimeQualifierCode          string   `json:"timeQualifierCode,omitempty"`
	TimeQualifier              string   `json:"timeQualifier,omitempty"`
	BenefitAmount              string   `json:"benefitAmount,omitempty"`
	BenefitPercent             string   `json:"benefitPercent,omitempty"`
	QuantityQualifierCode      string   `json:"quantityQualifierCode,omitempty"`
	QuantityQualifier          string   `json:"quantityQualifier,omitempty"`
	BenefitQuantity            string   `json:"benefitQuantity,omitempty"`
	AuthOrCertIndicator        string   `json:"authOrCertIndicator,omitempty"`
	InPlanNetworkIndicatorCode string   `json:"inPlanNetworkIndicatorCode,omitempty"`
	InPlanNetworkIndicator     string   `json:"inPlanNetworkIndicator,omitempty"`
	HeaderLoopIdentifierCode   string   `json:"headerLoopIdentifierCode,omitempty"`
	TrailerLoopIdentifierCode  string   `json:"trailerLoopIdentifierCode,omitempty"`

	CompositeMedicalProcedureIdentifier *CompositeMedicalProcedureIdentifier `json:"compositeMedicalProcedureIdentifier,omitempty"`
	BenefitsAdditionalInformation       map[string]string                    `json:"benefitsAdditionalInformation,omitempty"`
	BenefitsDateInformation             *BenefitsDateInformation             `json:"benefitsDateInformation,omitempty"`
	BenefitsServiceDelivery             []BenefitsServiceDelivery            `json:"benefitsServiceDelivery,omitempty"`
	AdditionalInformation               []AdditionalInformation              `json:"additionalInformation,omitempty"`
	// EligibilityAdditionalInformation is the deprecated singular form: the
	// list's first item.
	EligibilityAdditionalInformation     *EligibilityAdditionalInformation  `json:"eligibilityAdditionalInformation,omitempty"`
	EligibilityAdditionalInformationList []EligibilityAdditionalInformation `json:"eligibilityAdditionalInformationList,omitempty"`
	// BenefitsRelatedEntity is the deprecated singular form: the list's
	// first item.
	BenefitsRelatedEntity   *BenefitsRelatedEntity  `json:"benefitsRelatedEntity,omitempty"`
	BenefitsRelatedEntities []BenefitsRelatedEntity `json:"benefitsRelatedEntities,omitempty"`
}

// CompositeMedicalProcedureIdentifier is EB13 (and EB14's pointers).
type CompositeMedicalProcedureIdentifier struct {
	ProductOrServiceIDQualifierCode string   `json:"productOrServiceIDQualifierCode,omitempty"`
	ProductOrServiceIDQualifier     string   `json:"productOrServiceIDQualifier,omitempty"`
	ProcedureCode                   string   `json:"procedureCode,omitempty"`
	ProcedureModifiers              []string `json:"procedureModifiers,omitempty"`
	// ProductOrServiceID is the end of a procedure code range (C003-08).
	ProductOrServiceID   string   `json:"productOrServiceID,omitempty"`
	DiagnosisCodePointer []string `json:"diagnosisCodePointer,omitempty"`
}

// BenefitsServiceDelivery is one HSD.
type BenefitsServiceDelivery struct {
	QuantityQualifierCode                  string `json:"quantityQualifierCode,omitempty"`
	QuantityQualifier                      string `json:"quantityQualifier,omitempty"`
	Quantity                               string `json:"quantity,omitempty"`
	UnitForMeasurementQualifierCode        string `json:"unitForMeasurementQualifierCode,omitempty"`
	UnitForMeasurementQualifier            string `json:"unitForMeasurementQualifier,omitempty"`
	UnitForMeasurementCode                 string `json:"unitForMeasurementCode,omitempty"`
	SampleSelectionModulus                 string `json:"sampleSelectionModulus,omitempty"`
	TimePeriodQualifierCode                string `json:"timePeriodQualifierCode,omitempty"`
	TimePeriodQualifier                    string `json:"timePeriodQualifier,omitempty"`
	NumOfPeriods                           string `json:"numOfPeriods,omitempty"`
	DeliveryOrCalendarPatternQualifierCode string `json:"deliveryOrCalendarPatternQualifierCode,omitempty"`
	DeliveryOrCalendarPatternQualifier     string `json:"deliveryOrCalendarPatternQualifier,omitempty"`
	DeliveryOrCalendarPatternCode          string `json:"deliveryOrCalendarPatternCode,omitempty"`
	DeliveryPatternTimeQualifierCode       string `json:"deliveryPatternTimeQualifierCode,omitempty"`
	DeliveryPatternTimeQualifier           string `json:"deliveryPatternTimeQualifier,omitempty"`
	DeliveryPatternTimeCode                string `json:"deliveryPatternTimeCode,omitempty"`
}

// AdditionalInformation is one MSG free-text line.
type AdditionalInformation struct {
	Description string `json:"description,omitempty"`
}

// EligibilityAdditionalInformation is one III (loop 2115).
type EligibilityAdditionalInformation struct {
	CodeListQualifierCode string `json:"codeListQualifierCode,omitempty"`
	CodeListQualifier     string `json:"codeListQualifier,omitempty"`
	IndustryCode          string `json:"industryCode,omitempty"`
	Industry              string `json:"industry,omitempty"`
	CodeCategory          string `json:"codeCategory,omitempty"`
	InjuredBodyPartName   string `json:"injuredBodyPartName,omitempty"`
}

// BenefitsRelatedEntity is one 2120 loop: NM1 with its N3, N4, PER, PRV.
type BenefitsRelatedEntity struct {
	EntityIdentifier          string               `json:"entityIdentifier,omitempty"`
	EntityType                string               `json:"entityType,omitempty"`
	EntityName                string               `json:"entityName,omitempty"`
	EntityFirstname           string               `json:"entityFirstname,omitempty"`
	EntityMiddlename          string               `json:"entityMiddlename,omitempty"`
	EntitySuffix              string               `json:"entitySuffix,omitempty"`
	EntityIdentification      string               `json:"entityIdentification,omitempty"`
	EntityIdentificationValue string               `json:"entityIdentificationValue,omitempty"`
	EntityRelationship        string               `json:"entityRelationship,omitempty"`
	Address                   *ResponseAddress     `json:"address,omitempty"`
	ContactInformation        *ContactInformation  `json:"contactInformation,omitempty"`
	ProviderInformation       *ProviderInformation `json:"providerInformation,omitempty"`
}

// ProviderInformation is a PRV.
type ProviderInformation struct {
	ProviderCode            string `json:"providerCode,omitempty"`
	ReferenceIdentification string `json:"referenceIdentification,omitempty"`
}

// DatePeriod is one of several admission or discharge dates: a single date
// or a range.
type DatePeriod struct {
	Date      string `json:"date,omitempty"`
	StartDate string `json:"startDate,omitempty"`
	EndDate   string `json:"endDate,omitempty"`
}

// BenefitsDateInformation holds a benefit's DTP dates keyed by the
// contract's names ("plan", "dateOfLastUpdate", …), plus the lists of
// admissions and discharges when a benefit repeats them.
type BenefitsDateInformation struct {
	Dates      map[string]string
	Admissions []DatePeriod
	Discharges []DatePeriod
}

// MarshalJSON writes the dates and the lists as one flat object.
func (b BenefitsDateInformation) MarshalJSON() ([]byte, error) {
	m := make(map[string]any, len(b.Dates)+2)
	for k, v := range b.Dates {
		m[k] = v
	}
	if len(b.Admissions) > 0 {
		m["admissions"] = b.Admissions
	}
	if len(b.Discharges) > 0 {
		m["discharges"] = b.Discharges
	}
	return json.Marshal(m)
}

// UnmarshalJSON reads what MarshalJSON writes.
func (b *BenefitsDateInformation) UnmarshalJSON(data []byte) error {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*b = BenefitsDateInformation{Dates: map[string]string{}}
	for k, v := range raw {
		var err error
		switch k {
		case "admissions":
			err = json.Unmarshal(v, &b.Admissions)
		case "discharges":
			err = json.Unmarshal(v, &b.Discharges)
		default:
			var s string
			err = json.Unmarshal(v, &s)
			b.Dates[k] = s
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// AAAError is a payer's AAA rejection, wherever it appeared.
type AAAError struct {
	Field               string `json:"field,omitempty"`
	Code                string `json:"code,omitempty"`
	Description         string `json:"description,omitempty"`
	FollowupAction      string `json:"followupAction,omitempty"`
	Location            string `json:"location,omitempty"`
	PossibleResolutions string `json:"possibleResolutions,omitempty"`
}

// Warning is a note about the request or the 271 that is not the payer's
// rejection.
type Warning struct {
	Code        string `json:"code,omitempty"`
	Description string `json:"description,omitempty"`
}

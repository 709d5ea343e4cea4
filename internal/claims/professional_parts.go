package claims

// The 837P's less common claim and line data of the Professional Claims v3
// shape: DME, line-level ambulance, repricing, tests, forms and the COB
// additions. Each type names the segment it becomes.

// SpinalManipulation is CR2 (chiropractic): CR208 condition, CR210–211
// descriptions.
type SpinalManipulation struct {
	PatientConditionCode         string `json:"patientConditionCode,omitempty"`
	PatientConditionDescription1 string `json:"patientConditionDescription1,omitempty"`
	PatientConditionDescription2 string `json:"patientConditionDescription2,omitempty"`
}

// VisionCondition is a CRC*E1/E2/E3 (replacement lenses or frames).
type VisionCondition struct {
	CodeCategory                    string   `json:"codeCategory,omitempty"`
	CertificationConditionIndicator string   `json:"certificationConditionIndicator,omitempty"`
	ConditionCodes                  []string `json:"conditionCodes,omitempty"`
}

// EPSDTReferral is CRC*ZZ.
type EPSDTReferral struct {
	CertificationConditionCodeAppliesIndicator string   `json:"certificationConditionCodeAppliesIndicator,omitempty"`
	ConditionCodes                             []string `json:"conditionCodes,omitempty"`
}

// ConditionInformation is one HI of NUCC condition codes (BG).
type ConditionInformation struct {
	ConditionCodes []string `json:"conditionCodes,omitempty"`
}

// ProfessionalLineParts are the 2400 data beyond the service itself.
type ProfessionalLineParts struct {
	DurableMedicalEquipmentService                       *DMEService              `json:"durableMedicalEquipmentService,omitempty"`                       // SV5
	ServiceLineSupplementalInformation                   []ReportInformation      `json:"serviceLineSupplementalInformation,omitempty"`                   // PWK
	DurableMedicalEquipmentCertificateOfMedicalNecessity *DMECertificate          `json:"durableMedicalEquipmentCertificateOfMedicalNecessity,omitempty"` // PWK*CT
	AmbulanceTransportInformation                        *AmbulanceTransport      `json:"ambulanceTransportInformation,omitempty"`                        // CR1
	DurableMedicalEquipmentCertification                 *DMECertification        `json:"durableMedicalEquipmentCertification,omitempty"`                 // CR3
	AmbulanceCertification                               []AmbulanceCertification `json:"ambulanceCertification,omitempty"`                               // CRC*07
	HospiceEmployeeIndicator                             *bool                    `json:"hospiceEmployeeIndicator,omitempty"`                             // CRC*70
	ConditionIndicatorDurableMedicalEquipment            *DMECondition            `json:"conditionIndicatorDurableMedicalEquipment,omitempty"`            // CRC*09
	ServiceLineDateInformation                           *ProfessionalLineDates   `json:"serviceLineDateInformation,omitempty"`                           // DTP
	AmbulancePatientCount                                Count                    `json:"ambulancePatientCount,omitempty"`                                // QTY*PT
	ObstetricAnesthesiaAdditionalUnits                   Count                    `json:"obstetricAnesthesiaAdditionalUnits,omitempty"`                   // QTY*FL
	TestResults                                          []TestResult             `json:"testResults,omitempty"`                                          // MEA
	ContractInformation                                  *ContractInformation     `json:"contractInformation,omitempty"`                                  // CN1
	FileInformation                                      []string                 `json:"fileInformation,omitempty"`                                      // K3
	PurchasedServiceInformation                          *PurchasedService        `json:"purchasedServiceInformation,omitempty"`                          // PS1
	LinePricingRepricingInformation                      *Repricing               `json:"linePricingRepricingInformation,omitempty"`                      // HCP
	AmbulancePickUpLocation                              *Address                 `json:"ambulancePickUpLocation,omitempty"`                              // 2420G
	AmbulanceDropOffLocation                             *Address                 `json:"ambulanceDropOffLocation,omitempty"`                             // 2420H
	FormIdentification                                   []FormIdentification     `json:"formIdentification,omitempty"`                                   // 2440 LQ/FRM
	AssignedNumber                                       string                   `json:"assignedNumber,omitempty"`                                       // deprecated: LX01 is ours
}

// DMEService is SV5: rental and purchase price of durable medical
// equipment.
type DMEService struct {
	Days          string `json:"days,omitempty"`          // SV503 with SV502 DA
	RentalPrice   string `json:"rentalPrice,omitempty"`   // SV504
	PurchasePrice string `json:"purchasePrice,omitempty"` // SV505
	FrequencyCode string `json:"frequencyCode,omitempty"` // SV506 1 weekly, 4 monthly, 6 daily
}

// DMECertificate is the PWK*CT of a DMERC certificate of medical necessity.
type DMECertificate struct {
	AttachmentTransmissionCode string `json:"attachmentTransmissionCode,omitempty"`
}

// DMECertification is CR3.
type DMECertification struct {
	CertificationTypeCode                   string `json:"certificationTypeCode,omitempty"` // I R S
	DurableMedicalEquipmentDurationInMonths string `json:"durableMedicalEquipmentDurationInMonths,omitempty"`
}

// DMECondition is CRC*09.
type DMECondition struct {
	CertificationConditionIndicator string `json:"certificationConditionIndicator,omitempty"`
	ConditionIndicator              string `json:"conditionIndicator,omitempty"`
	ConditionIndicatorCode          string `json:"conditionIndicatorCode,omitempty"`
}

// ProfessionalLineDates are the 2400 DTPs besides the service date.
type ProfessionalLineDates struct {
	PrescriptionDate                           string `json:"prescriptionDate,omitempty"`                           // 471
	CertificationRevisionOrRecertificationDate string `json:"certificationRevisionOrRecertificationDate,omitempty"` // 607
	BeginTherapyDate                           string `json:"beginTherapyDate,omitempty"`                           // 463
	LastCertificationDate                      string `json:"lastCertificationDate,omitempty"`                      // 461
	TreatmentOrTherapyDate                     string `json:"treatmentOrTherapyDate,omitempty"`                     // 304 (last seen)
	HemoglobinTestDate                         string `json:"hemoglobinTestDate,omitempty"`                         // 738
	SerumCreatineTestDate                      string `json:"serumCreatineTestDate,omitempty"`                      // 739
	ShippedDate                                string `json:"shippedDate,omitempty"`                                // 011
	LastXRayDate                               string `json:"lastXRayDate,omitempty"`                               // 455
	InitialTreatmentDate                       string `json:"initialTreatmentDate,omitempty"`                       // 454
}

// dtps are the line dates in the guide's order.
func (d *ProfessionalLineDates) dtps() [][2]string {
	if d == nil {
		return nil
	}
	return [][2]string{{"471", d.PrescriptionDate}, {"607", d.CertificationRevisionOrRecertificationDate}, {"463", d.BeginTherapyDate},
		{"461", d.LastCertificationDate}, {"304", d.TreatmentOrTherapyDate}, {"738", d.HemoglobinTestDate}, {"739", d.SerumCreatineTestDate},
		{"011", d.ShippedDate}, {"455", d.LastXRayDate}, {"454", d.InitialTreatmentDate}}
}

// PurchasedService is PS1.
type PurchasedService struct {
	PurchasedServiceProviderIdentifier string `json:"purchasedServiceProviderIdentifier,omitempty"`
	PurchasedServiceChargeAmount       string `json:"purchasedServiceChargeAmount,omitempty"`
}

// FormIdentification is loop 2440: LQ and its FRM answers.
type FormIdentification struct {
	FormTypeCode            string                    `json:"formTypeCode,omitempty"` // AS UT
	FormIdentifier          string                    `json:"formIdentifier,omitempty"`
	SupportingDocumentation []SupportingDocumentation `json:"supportingDocumentation,omitempty"`
}

// SupportingDocumentation is one FRM.
type SupportingDocumentation struct {
	QuestionNumber            string `json:"questionNumber,omitempty"`
	QuestionResponseCode      string `json:"questionResponseCode,omitempty"` // N W Y
	QuestionResponse          string `json:"questionResponse,omitempty"`
	QuestionResponseAsDate    string `json:"questionResponseAsDate,omitempty"`
	QuestionResponseAsPercent string `json:"questionResponseAsPercent,omitempty"`
}

// ProfessionalOtherSubscriber is 2320/2330 of the 837P: what every claim
// type shares, and the professional additions — MOA, the patient
// signature source (OI04), and the other payer's provider ids (2330C–G).
type ProfessionalOtherSubscriber struct {
	OtherSubscriberInformation
	// OtherSubscriberName shadows the shared one: the professional shape
	// sends otherInsuredAdditionalIdentifier as one string.
	OtherSubscriberName                 *ProfessionalOtherSubscriberName `json:"otherSubscriberName,omitempty"`
	PatientSignatureGeneratedForPatient bool                             `json:"patientSignatureGeneratedForPatient,omitempty"`
	MedicareOutpatientAdjudication      *OutpatientAdjudication          `json:"medicareOutpatientAdjudication,omitempty"`
	OtherPayerReferringProvider         []OtherPayerProvider             `json:"otherPayerReferringProvider,omitempty"`       // 2330C
	OtherPayerRenderingProvider         []OtherPayerProvider             `json:"otherPayerRenderingProvider,omitempty"`       // 2330D
	OtherPayerServiceFacilityLocation   []OtherPayerProvider             `json:"otherPayerServiceFacilityLocation,omitempty"` // 2330E
	OtherPayerSupervisingProvider       []OtherPayerProvider             `json:"otherPayerSupervisingProvider,omitempty"`     // 2330F
	OtherPayerBillingProvider           []OtherPayerProvider             `json:"otherPayerBillingProvider,omitempty"`         // 2330G
}

// ProfessionalOtherSubscriberName is 2330A in the professional shape.
type ProfessionalOtherSubscriberName struct {
	OtherSubscriberName
	OtherInsuredAdditionalIdentifier string `json:"otherInsuredAdditionalIdentifier,omitempty"` // REF*SY
}

// shared is the part every claim type writes and checks, with the
// professional name's SSN folded in.
func (o *ProfessionalOtherSubscriber) shared() *OtherSubscriberInformation {
	s := o.OtherSubscriberInformation
	if n := o.OtherSubscriberName; n != nil {
		name := n.OtherSubscriberName
		if n.OtherInsuredAdditionalIdentifier != "" {
			name.OtherInsuredAdditionalIdentifiers = append([]string{n.OtherInsuredAdditionalIdentifier}, name.OtherInsuredAdditionalIdentifiers...)
		}
		s.OtherSubscriberName = &name
	}
	return &s
}

// OutpatientAdjudication is MOA: Medicare outpatient adjudication.
type OutpatientAdjudication struct {
	ReimbursementRate                           string   `json:"reimbursementRate,omitempty"`                           // MOA01
	HCPCSPayableAmount                          string   `json:"hcpcsPayableAmount,omitempty"`                          // MOA02
	ClaimPaymentRemarkCode                      []string `json:"claimPaymentRemarkCode,omitempty"`                      // MOA03–07
	EndStageRenalDiseasePaymentAmount           string   `json:"endStageRenalDiseasePaymentAmount,omitempty"`           // MOA08
	NonPayableProfessionalComponentBilledAmount string   `json:"nonPayableProfessionalComponentBilledAmount,omitempty"` // MOA09
}

// elements are MOA01–09.
func (m *OutpatientAdjudication) elements() []string {
	remarks := make([]string, 5)
	copy(remarks, m.ClaimPaymentRemarkCode)
	out := []string{m.ReimbursementRate, amount(m.HCPCSPayableAmount)}
	out = append(out, remarks...)
	return append(out, amount(m.EndStageRenalDiseasePaymentAmount), amount(m.NonPayableProfessionalComponentBilledAmount))
}

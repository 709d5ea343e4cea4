package claims

import (
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// The 837P's service line (2400 to 2440) and its COB loops (2320 to
// 2330G), in the order of X222A1.

// otherSubscriber writes 2320 (with MOA and OI04), 2330A/B and the other
// payer's provider ids 2330C–G.
func (b *professionalBuilder) otherSubscriber(o *ProfessionalOtherSubscriber) {
	shared := o.shared()
	sig := ""
	if o.PatientSignatureGeneratedForPatient {
		sig = "P"
	}
	b.otherSubscriberHead(shared, sig)
	if m := o.MedicareOutpatientAdjudication; m != nil {
		b.seg("MOA", m.elements()...)
	}
	b.otherSubscriberNames(shared)
	for i := range o.OtherPayerReferringProvider {
		b.otherPayerProvider("DN", "1", &o.OtherPayerReferringProvider[i])
	}
	for _, r := range []struct {
		entity, kind string
		list         []OtherPayerProvider
	}{{"82", "1", o.OtherPayerRenderingProvider}, {"77", "2", o.OtherPayerServiceFacilityLocation},
		{"DQ", "1", o.OtherPayerSupervisingProvider}, {"85", "2", o.OtherPayerBillingProvider}} {
		if len(r.list) > 0 {
			b.otherPayerProvider(r.entity, r.kind, &r.list[0])
		}
	}
}

func (b *professionalBuilder) line(i int, l *ProfessionalServiceLine) {
	ps := l.ProfessionalService
	x := &l.ProfessionalLineParts
	s := x12.Simple
	b.seg("LX", strconv.Itoa(i+1))
	proc := append([]string{ps.ProcedureIdentifier, ps.ProcedureCode}, ps.ProcedureModifiers...)
	if ps.Description != "" {
		for len(proc) < 6 {
			proc = append(proc, "")
		}
		proc = append(proc, ps.Description)
	}
	pos := ps.PlaceOfServiceCode
	if pos == b.req.ClaimInformation.PlaceOfServiceCode {
		pos = "" // SV105 only when it differs from CLM05-1
	}
	var pointers x12.Field = s("")
	if p := ps.CompositeDiagnosisCodePointers; p != nil {
		pointers = x12.Composite(p.DiagnosisCodePointers...)
	}
	b.fields("SV1", x12.Composite(proc...), s(amount(ps.LineItemChargeAmount)), s(ps.MeasurementUnit), s(trimZeroFraction(ps.ServiceUnitCount)),
		s(pos), s(""), pointers, s(""), s(ps.EmergencyIndicator), s(""), s(ps.EpsdtIndicator), s(ps.FamilyPlanningIndicator),
		s(""), s(""), s(ps.CopayStatusCode))
	if d := x.DurableMedicalEquipmentService; d != nil {
		b.fields("SV5", x12.Composite(ps.ProcedureIdentifier, ps.ProcedureCode), s("DA"), s(d.Days), s(amount(d.RentalPrice)),
			s(amount(d.PurchasePrice)), s(d.FrequencyCode))
	}
	for _, r := range x.ServiceLineSupplementalInformation {
		b.pwk(r)
	}
	if d := x.DurableMedicalEquipmentCertificateOfMedicalNecessity; d != nil {
		b.seg("PWK", "CT", d.AttachmentTransmissionCode)
	}
	b.ambulanceTransport(x.AmbulanceTransportInformation)
	if d := x.DurableMedicalEquipmentCertification; d != nil {
		b.seg("CR3", d.CertificationTypeCode, "MO", d.DurableMedicalEquipmentDurationInMonths)
	}
	for _, a := range x.AmbulanceCertification {
		b.seg("CRC", append([]string{"07", a.CertificationConditionIndicator}, a.ConditionCodes...)...)
	}
	if h := x.HospiceEmployeeIndicator; h != nil {
		b.seg("CRC", "70", map[bool]string{true: "Y", false: "N"}[*h], "65")
	}
	if d := x.ConditionIndicatorDurableMedicalEquipment; d != nil {
		b.seg("CRC", "09", d.CertificationConditionIndicator, d.ConditionIndicator, d.ConditionIndicatorCode)
	}
	b.seg("DTP", serviceDates(l.ServiceDate, l.ServiceDateEnd)...)
	for _, q := range x.ServiceLineDateInformation.dtps() {
		if q[1] != "" {
			b.seg("DTP", q[0], "D8", q[1])
		}
	}
	if x.AmbulancePatientCount != "" {
		b.seg("QTY", "PT", string(x.AmbulancePatientCount))
	}
	if x.ObstetricAnesthesiaAdditionalUnits != "" {
		b.seg("QTY", "FL", string(x.ObstetricAnesthesiaAdditionalUnits))
	}
	for _, t := range x.TestResults {
		b.seg("MEA", t.MeasurementReferenceIdentificationCode, t.MeasurementQualifier, t.TestResults)
	}
	if k := x.ContractInformation; k != nil {
		b.seg("CN1", k.ContractTypeCode, amount(k.ContractAmount), k.ContractPercentage, k.ContractCode, k.TermsDiscountPercentage, k.ContractVersionIdentifier)
	}
	b.lineRefs(i, l)
	if l.SalesTaxAmount != "" {
		b.seg("AMT", "T", amount(l.SalesTaxAmount))
	}
	if l.PostageTaxAmount != "" {
		b.seg("AMT", "F4", amount(l.PostageTaxAmount))
	}
	for _, f := range x.FileInformation {
		b.seg("K3", f)
	}
	if l.AdditionalNotes != "" {
		b.seg("NTE", "ADD", l.AdditionalNotes)
	} else if l.GoalRehabOrDischargePlans != "" {
		b.seg("NTE", "DCP", l.GoalRehabOrDischargePlans)
	}
	if l.ThirdPartyOrganizationNotes != "" {
		b.seg("NTE", "TPO", l.ThirdPartyOrganizationNotes)
	}
	if p := x.PurchasedServiceInformation; p != nil {
		b.seg("PS1", p.PurchasedServiceProviderIdentifier, amount(p.PurchasedServiceChargeAmount))
	}
	b.hcp(x.LinePricingRepricingInformation)
	b.drug(l.DrugIdentification)
	b.lineProviders(l)
	b.ambulanceStops(x.AmbulancePickUpLocation, x.AmbulanceDropOffLocation)
	for _, a := range l.LineAdjudicationInformation {
		b.fields("SVD", s(a.OtherPayerPrimaryIdentifier), s(amount(a.ServiceLinePaidAmount)),
			x12.Composite(append([]string{a.ServiceIDQualifier, a.ProcedureCode}, a.ProcedureModifier...)...), s(""),
			s(trimZeroFraction(a.PaidServiceUnitCount)), s(a.BundledOrUnbundledLineNumber))
		b.cas(a.ClaimAdjustmentInformation)
		b.seg("DTP", "573", "D8", a.AdjudicationOrPaymentDate)
		if a.RemainingPatientLiability != "" {
			b.seg("AMT", "EAF", amount(a.RemainingPatientLiability))
		}
	}
	for _, f := range x.FormIdentification {
		b.seg("LQ", f.FormTypeCode, f.FormIdentifier)
		for _, d := range f.SupportingDocumentation {
			b.seg("FRM", d.QuestionNumber, d.QuestionResponseCode, d.QuestionResponse, d.QuestionResponseAsDate, d.QuestionResponseAsPercent)
		}
	}
}

// ambulanceTransport is a CR1 (2300 or 2400).
func (b *segWriter) ambulanceTransport(t *AmbulanceTransport) {
	if t == nil {
		return
	}
	weightUnit := ""
	if t.PatientWeightInPounds != "" {
		weightUnit = "LB"
	}
	// CR103 (ambulance transport code) and CR107–108 are not used in
	// X222A1: CR104 reason, CR105 DH, CR106 miles, CR109–110 purposes.
	b.seg("CR1", weightUnit, t.PatientWeightInPounds, "", t.AmbulanceTransportReasonCode, "DH", t.TransportDistanceInMiles, "", "", t.RoundTripPurposeDescription, t.StretcherPurposeDescription)
}

// lineRefs are the 2400 REFs, REF*6R among them (the caller's
// providerControlNumber, or one we make).
func (b *professionalBuilder) lineRefs(i int, l *ProfessionalServiceLine) {
	ref := l.ServiceLineReferenceInformation
	if ref == nil {
		ref = &ProfessionalLineReference{}
	}
	if ref.RepricedLineItemReferenceNumber != "" {
		b.seg("REF", "9B", ref.RepricedLineItemReferenceNumber)
	}
	if ref.AdjustedRepricedLineItemReferenceNumber != "" {
		b.seg("REF", "9D", ref.AdjustedRepricedLineItemReferenceNumber)
	}
	for _, a := range ref.PriorAuthorization {
		if a.OtherPayerPrimaryIdentifier != "" {
			b.fields("REF", x12.Simple("G1"), x12.Simple(a.PriorAuthorizationOrReferralNumber), x12.Simple(""), x12.Composite("2U", a.OtherPayerPrimaryIdentifier))
			continue
		}
		b.seg("REF", "G1", a.PriorAuthorizationOrReferralNumber)
	}
	b.lineIDs = append(b.lineIDs, b.lineItemControl(i, l.ProviderControlNumber, b.opts))
	for _, q := range [][2]string{{"EW", ref.MammographyCertificationNumber}, {"X4", ref.ClinicalLaboratoryImprovementAmendmentNumber},
		{"F4", ref.ReferringCliaNumber}, {"BT", ref.ImmunizationBatchNumber}} {
		if q[1] != "" {
			b.seg("REF", q[0], q[1])
		}
	}
	for _, v := range ref.ReferralNumber {
		b.seg("REF", "9F", v)
	}
}

// lineProviders are 2420A–F.
func (b *professionalBuilder) lineProviders(l *ProfessionalServiceLine) {
	if r := l.RenderingProvider; r != nil && !sameNPI(r, b.lineRenderingDefault()) {
		b.provider("82", "PE", "PXC", r)
	}
	if p := l.PurchasedServiceProvider; p != nil {
		b.seg("NM1", "QB", "2", "", "", "", "", "", "XX", p.NPI)
		b.secondaryRefs(p)
	}
	b.facility(l.ServiceFacilityLocation, true)
	b.provider("DQ", "", "", l.SupervisingProvider)
	p := l.OrderingProvider
	if p == nil {
		p = b.role("ordering") // the deprecated claim-level ordering provider: 837P has it per line only (2420E)
	}
	if p != nil {
		qual := ""
		if p.NPI != "" {
			qual = "XX"
		}
		b.seg("NM1", "DK", "1", p.LastName, p.FirstName, p.MiddleName, "", p.Suffix, qual, p.NPI)
		b.address(p.Address)
		b.secondaryRefs(p)
		b.contact(p.ContactInformation, "")
	}
	b.provider("DN", "", "", l.ReferringProvider)
}

// ambulanceStops are the pick-up (NM1*PW) and drop-off (NM1*45) loops:
// 2310E/F or 2420G/H.
func (b *segWriter) ambulanceStops(pick, drop *Address) {
	if pick != nil {
		b.seg("NM1", "PW", "2")
		b.address(pick)
	}
	if drop != nil {
		b.seg("NM1", "45", "2")
		b.address(drop)
	}
}

// drug is loop 2410: LIN, CTP and the prescription or compound REF.
func (b *segWriter) drug(d *DrugIdentification) {
	if d == nil {
		return
	}
	b.seg("LIN", "", d.ServiceIDQualifier, d.NationalDrugCode)
	b.seg("CTP", "", "", "", trimZeroFraction(d.NationalDrugUnitCount), d.MeasurementUnitCode)
	if d.LinkSequenceNumber != "" {
		b.seg("REF", "VY", d.LinkSequenceNumber)
	} else if d.PharmacyPrescriptionNumber != "" {
		b.seg("REF", "XZ", d.PharmacyPrescriptionNumber)
	}
}

// lineItemControl writes a line's REF*6R — the caller's number, or one we
// make — and returns it (the response's lineItemControlNumber).
func (b *segWriter) lineItemControl(i int, given string, opts BuildOptions) string {
	id := given
	if id == "" && opts.LineID != nil {
		id = opts.LineID(i)
	}
	if id != "" {
		b.seg("REF", "6R", id)
	}
	return id
}

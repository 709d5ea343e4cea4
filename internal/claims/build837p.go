package claims

import (
	"errors"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
)

// Version837P is the implementation guide of the professional claims we
// write.
const Version837P = "005010X222A1"

// Build837P writes the 005010X222A1 837P of a validated professional
// request, enveloped for the payer.
func Build837P(req *ProfessionalRequest, opts BuildOptions) (*Built, error) {
	roles := req.roles()
	billing, ok := roles["billing"]
	if req.Submitter == nil || req.Receiver == nil || req.Subscriber == nil || !ok || req.ClaimInformation == nil {
		return nil, errors.New("claims: build 837P: the request misses a required object; validate it first")
	}
	payerID := opts.PayerID
	if payerID == "" {
		payerID = req.TradingPartnerServiceID
	}
	ci := req.ClaimInformation
	parties := &claimParties{Submitter: req.Submitter, Receiver: req.Receiver, Billing: billing.p,
		PayToAddress: req.PayToAddress, PayToPlan: req.PayToPlan, Subscriber: req.Subscriber, Dependent: req.Dependent,
		PayerID: payerID, PayerName: payerName(req.TradingPartnerName, opts.PayerName, req.Receiver),
		PayerAddress: req.PayerAddress, PayerSecondary: req.TradingPartnerSecondaryIdentifiers,
		ClaimFilingCode: ci.ClaimFilingCode, PropertyCasualtyClaimNumber: ci.PropertyCasualtyClaimNumber,
		GroupNameOnlyWithoutNumber: true,
		Patient:                    patientDetail{DeathDate: ci.DeathDate, WeightPounds: ci.PatientWeight, Pregnant: ci.PregnancyIndicator}}
	return opts.build(Version837P, req.UsageIndicator, req.ClaimIdentifier, parties, func(w *segWriter) []string {
		b := &professionalBuilder{segWriter: w, req: req, opts: opts, roles: roles}
		b.claim()
		return b.lineIDs
	})
}

// professionalBuilder writes the claim loops of an 837P (2300 to 2430).
type professionalBuilder struct {
	*segWriter
	req     *ProfessionalRequest
	opts    BuildOptions
	roles   map[string]providerRole
	lineIDs []string
}

func (b *professionalBuilder) role(name string) *Provider {
	if r, ok := b.roles[name]; ok {
		return r.p
	}
	return nil
}

// claimRendering is 2310B: the rendering provider, unless it is the
// billing provider (same NPI) — X222A1: "required when the Rendering
// Provider NM1 information is different than that carried in the 2010AA
// Billing Provider NM1 … if not required by this implementation guide, do
// not send".
func (b *professionalBuilder) claimRendering() *Provider {
	r := b.role("rendering")
	if r != nil && sameNPI(r, b.role("billing")) {
		return nil
	}
	return r
}

// lineRenderingDefault is who renders a line that names no one else: the
// claim's rendering provider, else the billing provider. A line's 2420A
// is sent only when it differs (X222A1 2420A, the same rule).
func (b *professionalBuilder) lineRenderingDefault() *Provider {
	if r := b.role("rendering"); r != nil {
		return r
	}
	return b.role("billing")
}

// sameNPI reports whether two providers carry the same NPI.
func sameNPI(a, b *Provider) bool { return a != nil && b != nil && a.NPI != "" && a.NPI == b.NPI }

// relatedCauses is CLM11: up to two causes and the accident's state and
// country.
func relatedCauses(codes []string, state, country string) x12.Field {
	if len(codes) == 0 {
		return x12.Simple("")
	}
	parts := []string{"", "", "", "", ""}
	copy(parts, codes)
	parts[3], parts[4] = state, country
	return x12.Composite(parts...)
}

func (b *professionalBuilder) claim() {
	ci := b.req.ClaimInformation
	s := x12.Simple
	sigSource := ""
	if ci.PatientSignatureSourceCode {
		sigSource = "P"
	}
	b.fields("CLM", s(ci.PatientControlNumber), s(amount(ci.ClaimChargeAmount)), s(""), s(""),
		x12.Composite(ci.PlaceOfServiceCode, "B", ci.ClaimFrequencyCode), s(ci.SignatureIndicator), s(ci.PlanParticipationCode),
		s(ci.BenefitsAssignmentCertificationIndicator), s(ci.ReleaseInformationCode), s(sigSource),
		relatedCauses(ci.RelatedCausesCode, ci.AutoAccidentStateCode, ci.AutoAccidentCountryCode),
		s(ci.SpecialProgramCode), s(""), s(""), s(""), s(""), s(""), s(""), s(""), s(ci.DelayReasonCode))
	if d := ci.ClaimDateInformation; d != nil {
		for _, q := range [][2]string{{"431", d.SymptomDate}, {"454", d.InitialTreatmentDate}, {"304", d.LastSeenDate},
			{"453", d.AcuteManifestationDate}, {"439", d.AccidentDate}, {"484", d.LastMenstrualPeriodDate}, {"455", d.LastXRayDate},
			{"471", d.HearingAndVisionPrescriptionDate}} {
			if q[1] != "" {
				b.seg("DTP", q[0], "D8", q[1])
			}
		}
		switch {
		case d.DisabilityBeginDate != "" && d.DisabilityEndDate != "":
			b.seg("DTP", "314", "RD8", d.DisabilityBeginDate+"-"+d.DisabilityEndDate)
		case d.DisabilityBeginDate != "":
			b.seg("DTP", "360", "D8", d.DisabilityBeginDate)
		case d.DisabilityEndDate != "":
			b.seg("DTP", "361", "D8", d.DisabilityEndDate)
		}
		for _, q := range [][2]string{{"297", d.LastWorkedDate}, {"296", d.AuthorizedReturnToWorkDate}, {"435", d.AdmissionDate},
			{"096", d.DischargeDate}, {"090", d.AssumedAndRelinquishedCareBeginDate}, {"091", d.AssumedAndRelinquishedCareEndDate},
			{"444", d.FirstContactDate}, {"050", d.RepricerReceivedDate}} {
			if q[1] != "" {
				b.seg("DTP", q[0], "D8", q[1])
			}
		}
	}
	sup := ci.ClaimSupplementalInformation
	if sup == nil {
		sup = &ProfessionalClaimSupplemental{}
	}
	reports := sup.ReportInformations
	if sup.ReportInformation != nil {
		reports = append([]ReportInformation{*sup.ReportInformation}, reports...)
	}
	for _, r := range reports {
		b.pwk(r)
	}
	if k := ci.ClaimContractInformation; k != nil {
		b.seg("CN1", k.ContractTypeCode, amount(k.ContractAmount), k.ContractPercentage, k.ContractCode, k.TermsDiscountPercentage, k.ContractVersionIdentifier)
	}
	if ci.PatientAmountPaid != "" {
		b.seg("AMT", "F5", amount(ci.PatientAmountPaid))
	}
	for _, ref := range [][2]string{
		{"4N", sup.ServiceAuthorizationExceptionCode}, {"F5", sup.MedicareCrossoverReferenceID}, {"EW", sup.MammographyCertificationNumber},
		{"9F", sup.ReferralNumber}, {"G1", sup.PriorAuthorizationNumber}, {"F8", sup.ClaimControlNumber}, {"X4", sup.CliaNumber},
		{"9A", sup.RepricedClaimNumber}, {"9C", sup.AdjustedRepricedClaimNumber}, {"LX", sup.InvestigationalDeviceExemptionNumber},
		{"D9", b.opts.CorrelationID}, {"EA", sup.MedicalRecordNumber}, {"P4", sup.DemoProjectIdentifier}, {"1J", sup.CarePlanOversightNumber},
	} {
		if ref[1] != "" {
			b.seg("REF", ref[0], ref[1])
		}
	}
	for _, f := range ci.FileInformationList {
		b.seg("K3", f)
	}
	if n := ci.ClaimNote; n != nil {
		for _, q := range [][2]string{{"ADD", n.AdditionalInformation}, {"CER", n.CertificationNarrative}, {"DCP", n.GoalRehabOrDischargePlans},
			{"DGN", n.DiagnosisDescription}, {"TPO", n.ThirdPartOrgNotes}} {
			if q[1] != "" {
				b.seg("NTE", q[0], q[1])
				break // the 837P's 2300 carries one NTE
			}
		}
	}
	if t := ci.AmbulanceTransportInformation; t != nil {
		weightUnit := ""
		if t.PatientWeightInPounds != "" {
			weightUnit = "LB"
		}
		b.seg("CR1", weightUnit, t.PatientWeightInPounds, "", "", t.AmbulanceTransportReasonCode, "DH", t.TransportDistanceInMiles, "", t.RoundTripPurposeDescription, t.StretcherPurposeDescription)
	}
	for _, a := range ci.AmbulanceCertification {
		b.seg("CRC", append([]string{"07", a.CertificationConditionIndicator}, a.ConditionCodes...)...)
	}
	if ci.HomeboundIndicator {
		b.seg("CRC", "75", "Y", "IH")
	}
	if len(ci.HealthCareCodeInformation) > 0 {
		hi := make([]x12.Field, len(ci.HealthCareCodeInformation))
		for i, d := range ci.HealthCareCodeInformation {
			hi[i] = x12.Composite(d.DiagnosisTypeCode, d.DiagnosisCode)
		}
		b.fields("HI", hi...)
	}
	b.provider("DN", "", "", b.role("referring"))
	b.provider("82", "PE", "PXC", b.claimRendering())
	b.facility(ci.ServiceFacilityLocation, false)
	b.provider("DQ", "", "", b.role("supervising"))
	if a := ci.AmbulancePickUpLocation; a != nil {
		b.seg("NM1", "PW", "2")
		b.address(a)
	}
	if a := ci.AmbulanceDropOffLocation; a != nil {
		b.seg("NM1", "45", "2")
		b.address(a)
	}
	for i := range ci.OtherSubscriberInformation {
		b.otherSubscriber(&ci.OtherSubscriberInformation[i])
	}
	for i := range ci.ServiceLines {
		b.line(i, &ci.ServiceLines[i])
	}
}

// pwk writes an attachment (PWK*type*transmission***AC*control).
func (b *segWriter) pwk(r ReportInformation) {
	qual := ""
	if r.AttachmentControlNumber != "" {
		qual = "AC"
	}
	b.seg("PWK", r.AttachmentReportTypeCode, r.AttachmentTransmissionCode, "", "", qual, r.AttachmentControlNumber)
}

// serviceDates is a line's DTP*472: D8, or RD8 for a range.
func serviceDates(from, to string) []string {
	if to != "" && to != from {
		return []string{"472", "RD8", from + "-" + to}
	}
	return []string{"472", "D8", from}
}

func (b *professionalBuilder) line(i int, l *ProfessionalServiceLine) {
	ps := l.ProfessionalService
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
	b.seg("DTP", serviceDates(l.ServiceDate, l.ServiceDateEnd)...)
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
		b.seg("REF", "G1", a.PriorAuthorizationOrReferralNumber, "", "")
	}
	id := l.ProviderControlNumber
	if id == "" && b.opts.LineID != nil {
		id = b.opts.LineID(i)
	}
	b.lineIDs = append(b.lineIDs, id)
	if id != "" {
		b.seg("REF", "6R", id)
	}
	for _, q := range [][2]string{{"EW", ref.MammographyCertificationNumber}, {"X4", ref.ClinicalLaboratoryImprovementAmendmentNumber},
		{"F4", ref.ReferringCliaNumber}, {"BT", ref.ImmunizationBatchNumber}} {
		if q[1] != "" {
			b.seg("REF", q[0], q[1])
		}
	}
	for _, v := range ref.ReferralNumber {
		b.seg("REF", "9F", v)
	}
	if l.SalesTaxAmount != "" {
		b.seg("AMT", "T", amount(l.SalesTaxAmount))
	}
	if l.PostageTaxAmount != "" {
		b.seg("AMT", "F4", amount(l.PostageTaxAmount))
	}
	if l.AdditionalNotes != "" {
		b.seg("NTE", "ADD", l.AdditionalNotes)
	} else if l.GoalRehabOrDischargePlans != "" {
		b.seg("NTE", "DCP", l.GoalRehabOrDischargePlans)
	}
	if l.ThirdPartyOrganizationNotes != "" {
		b.seg("NTE", "TPO", l.ThirdPartyOrganizationNotes)
	}
	if d := l.DrugIdentification; d != nil {
		b.seg("LIN", "", d.ServiceIDQualifier, d.NationalDrugCode)
		b.seg("CTP", "", "", "", trimZeroFraction(d.NationalDrugUnitCount), d.MeasurementUnitCode)
		if d.LinkSequenceNumber != "" {
			b.seg("REF", "VY", d.LinkSequenceNumber)
		} else if d.PharmacyPrescriptionNumber != "" {
			b.seg("REF", "XZ", d.PharmacyPrescriptionNumber)
		}
	}
	if r := l.RenderingProvider; r != nil && !sameNPI(r, b.lineRenderingDefault()) {
		b.provider("82", "PE", "PXC", r)
	}
	if p := l.PurchasedServiceProvider; p != nil {
		b.seg("NM1", "QB", "2", "", "", "", "", "", "XX", p.NPI)
	}
	b.facility(l.ServiceFacilityLocation, true)
	b.provider("DQ", "", "", l.SupervisingProvider)
	if p := l.OrderingProvider; p != nil {
		qual := ""
		if p.NPI != "" {
			qual = "XX"
		}
		b.seg("NM1", "DK", "1", p.LastName, p.FirstName, p.MiddleName, "", p.Suffix, qual, p.NPI)
		b.address(p.Address)
	}
	b.provider("DN", "", "", l.ReferringProvider)
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
}

// trimZeroFraction writes a quantity the X12 way ("1.0" → "1").
func trimZeroFraction(s string) string {
	whole, frac, dot := strings.Cut(s, ".")
	if !dot {
		return s
	}
	for len(frac) > 0 && frac[len(frac)-1] == '0' {
		frac = frac[:len(frac)-1]
	}
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

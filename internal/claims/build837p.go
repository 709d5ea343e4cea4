package claims

import (
	"errors"
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
	if ci.FileInformation != "" {
		b.seg("K3", ci.FileInformation)
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
	b.ambulanceTransport(ci.AmbulanceTransportInformation)
	if m := ci.SpinalManipulationServiceInformation; m != nil {
		b.seg("CR2", "", "", "", "", "", "", "", m.PatientConditionCode, "", m.PatientConditionDescription1, m.PatientConditionDescription2)
	}
	for _, a := range ci.AmbulanceCertification {
		b.seg("CRC", append([]string{"07", a.CertificationConditionIndicator}, a.ConditionCodes...)...)
	}
	for _, v := range ci.PatientConditionInformationVision {
		b.seg("CRC", append([]string{v.CodeCategory, v.CertificationConditionIndicator}, v.ConditionCodes...)...)
	}
	if ci.HomeboundIndicator {
		b.seg("CRC", "75", "Y", "IH")
	}
	if e := ci.EpsdtReferral; e != nil {
		b.seg("CRC", append([]string{"ZZ", e.CertificationConditionCodeAppliesIndicator}, e.ConditionCodes...)...)
	}
	if len(ci.HealthCareCodeInformation) > 0 {
		hi := make([]x12.Field, len(ci.HealthCareCodeInformation))
		for i, d := range ci.HealthCareCodeInformation {
			hi[i] = x12.Composite(d.DiagnosisTypeCode, d.DiagnosisCode)
		}
		b.fields("HI", hi...)
	}
	if a := ci.AnesthesiaRelatedSurgicalProcedure; len(a) > 0 {
		hi := []x12.Field{x12.Composite("BP", a[0])}
		if len(a) > 1 {
			hi = append(hi, x12.Composite("BO", a[1]))
		}
		b.fields("HI", hi...)
	}
	for _, g := range ci.ConditionInformation {
		hi := make([]x12.Field, len(g.ConditionCodes))
		for i, code := range g.ConditionCodes {
			hi[i] = x12.Composite("BG", code)
		}
		b.fields("HI", hi...)
	}
	b.hcp(ci.ClaimPricingRepricingInformation)
	b.provider("DN", "", "", b.role("referring"))
	b.provider("82", "PE", "PXC", b.claimRendering())
	b.facility(ci.ServiceFacilityLocation, false)
	b.provider("DQ", "", "", b.role("supervising"))
	b.ambulanceStops(ci.AmbulancePickUpLocation, ci.AmbulanceDropOffLocation)
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

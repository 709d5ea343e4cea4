package claims

import (
	"errors"
	"strconv"

	"github.com/clearhouse/clearhouse/x12"
)

// Version837I is the implementation guide of the institutional claims we
// write.
const Version837I = "005010X223A3"

// Build837I writes the 005010X223A3 837I of a validated institutional
// request, enveloped for the payer.
func Build837I(req *InstitutionalRequest, opts BuildOptions) (*Built, error) {
	roles := req.roles()
	billing, ok := roles["billing"]
	if req.Submitter == nil || req.Receiver == nil || req.Subscriber == nil || !ok || req.ClaimInformation == nil {
		return nil, errors.New("claims: build 837I: the request misses a required object; validate it first")
	}
	payerID := opts.PayerID
	if payerID == "" {
		payerID = req.TradingPartnerServiceID
	}
	submitter := *req.Submitter
	if submitter.SubmitterIdentification == "" {
		submitter.SubmitterIdentification = submitter.TaxID // 1000A NM109, as the contract's example maps it
	}
	ci := req.ClaimInformation
	var payTo *Address
	if a := req.BillingPayToAddressName; a != nil {
		payTo = a.Address
	}
	parties := &claimParties{PayToAddress: payTo, Submitter: &submitter, Receiver: req.Receiver, Billing: billing.p,
		Subscriber: req.Subscriber, Dependent: req.Dependent, PayToPlan: req.BillingPayToPlanName.payToPlan(),
		PayerSecondary: req.TradingPartnerSecondaryIdentifiers,
		PayerID:        payerID, PayerName: payerName(req.TradingPartnerName, opts.PayerName, req.Receiver),
		PayerAddress:    req.PayerAddress,
		ClaimFilingCode: ci.ClaimFilingCode, PropertyCasualtyClaimNumber: ci.PropertyCasualtyClaimNumber,
		GroupNameOnlyWithoutNumber: true}
	return opts.build(Version837I, req.UsageIndicator, req.ClaimIdentifier, parties, func(w *segWriter) []string {
		b := &institutionalBuilder{segWriter: w, req: req, opts: opts, roles: roles}
		b.claim()
		return b.lineIDs
	})
}

// institutionalBuilder writes the claim loops of an 837I (2300 to 2430).
type institutionalBuilder struct {
	*segWriter
	req     *InstitutionalRequest
	opts    BuildOptions
	roles   map[string]providerRole
	lineIDs []string
}

func (b *institutionalBuilder) role(name string) *Provider {
	if r, ok := b.roles[name]; ok {
		return r.p
	}
	return nil
}

// hi writes one HI segment of composites (qualifier, code, then the
// composite's optional date qualifier, date, amount and POA).
func (b *institutionalBuilder) hi(items [][]string) {
	if len(items) == 0 {
		return
	}
	f := make([]x12.Field, len(items))
	for i, it := range items {
		f[i] = x12.Composite(it...)
	}
	b.fields("HI", f...)
}

// poa is a composite's C022-09, the present-on-admission indicator.
func poa(qual, code, indicator string) []string {
	if indicator == "" {
		return []string{qual, code}
	}
	return []string{qual, code, "", "", "", "", "", "", indicator}
}

func (b *institutionalBuilder) claim() {
	ci := b.req.ClaimInformation
	s := x12.Simple
	b.fields("CLM", s(ci.PatientControlNumber), s(amount(ci.ClaimChargeAmount)), s(""), s(""),
		x12.Composite(ci.PlaceOfServiceCode, "A", ci.ClaimFrequencyCode), s(""), s(ci.PlanParticipationCode),
		s(ci.BenefitsAssignmentCertificationIndicator), s(ci.ReleaseInformationCode), s(""), s(""), s(""), s(""), s(""),
		s(""), s(""), s(""), s(""), s(""), s(ci.DelayReasonCode))
	if d := ci.ClaimDateInformation; d != nil {
		if d.DischargeHour != "" {
			b.seg("DTP", "096", "TM", d.DischargeHour)
		}
		b.seg("DTP", "434", "RD8", d.StatementBeginDate+"-"+d.StatementEndDate)
		if a := d.AdmissionDateAndHour; len(a) == 12 {
			b.seg("DTP", "435", "DT", a)
		} else if a != "" {
			b.seg("DTP", "435", "D8", a)
		}
		if d.RepricerReceivedDate != "" {
			b.seg("DTP", "050", "D8", d.RepricerReceivedDate)
		}
	}
	if cc := ci.ClaimCodeInformation; cc != nil {
		b.seg("CL1", cc.AdmissionTypeCode, cc.AdmissionSourceCode, cc.PatientStatusCode)
	}
	sup := ci.ClaimSupplementalInformation
	if sup == nil {
		sup = &InstitutionalClaimSupplemental{}
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
	if ci.PatientEstimatedAmountDue != "" {
		b.seg("AMT", "F3", amount(ci.PatientEstimatedAmountDue))
	}
	for _, ref := range [][2]string{
		{"4N", sup.ServiceAuthorizationExceptionCode}, {"9F", sup.ReferralNumber}, {"G1", sup.PriorAuthorizationNumber},
		{"F8", sup.ClaimControlNumber}, {"9A", sup.RepricedClaimNumber}, {"9C", sup.AdjustedRepricedClaimRefNumber},
		{"LX", sup.InvestigationalDeviceExemptionNumber}, {"D9", b.opts.CorrelationID}, {"LU", sup.AutoAccidentState},
		{"EA", sup.MedicalRecordNumber}, {"P4", sup.DemoProjectIdentifier}, {"G4", sup.PeerReviewAuthorizationNumber},
	} {
		if ref[1] != "" {
			b.seg("REF", ref[0], ref[1])
		}
	}
	for _, f := range ci.FileInformation {
		b.seg("K3", f)
	}
	for _, n := range ci.ClaimNotes.coded() {
		for _, t := range n.Texts {
			b.seg("NTE", n.Code, t)
		}
	}
	if note := ci.billingNote(); note != "" {
		b.seg("NTE", "ADD", note)
	}
	if e := ci.epsdt(); e != nil {
		b.seg("CRC", append([]string{"ZZ", e.CertificationConditionCodeAppliesIndicator}, e.ConditionCodes...)...)
	}
	if p := ci.PrincipalDiagnosis; p != nil {
		b.hi([][]string{poa(p.QualifierCode, p.PrincipalDiagnosisCode, p.PresentOnAdmissionIndicator)})
	}
	if a := ci.AdmittingDiagnosis; a != nil {
		b.hi([][]string{{a.QualifierCode, a.AdmittingDiagnosisCode}})
	}
	var items [][]string
	for _, r := range ci.PatientReasonForVisits {
		items = append(items, []string{r.QualifierCode, r.PatientReasonForVisitCode})
	}
	b.hi(items)
	items = nil
	for _, e := range ci.ExternalCauseOfInjuries {
		items = append(items, poa(e.QualifierCode, e.ExternalCauseOfInjury, e.PresentOnAdmissionIndicator))
	}
	b.hi(items)
	if d := ci.DiagnosisRelatedGroupInformation; d != nil {
		b.hi([][]string{{"DR", d.DrugRelatedGroupCode}})
	}
	for _, g := range ci.OtherDiagnosisInformationList {
		items = nil
		for _, d := range g {
			items = append(items, poa(d.QualifierCode, d.OtherDiagnosisCode, d.PresentOnAdmissionIndicator))
		}
		b.hi(items)
	}
	if p := ci.PrincipalProcedureInformation; p != nil {
		it := []string{p.QualifierCode, p.PrincipalProcedureCode}
		if p.PrincipalProcedureDate != "" {
			it = append(it, "D8", p.PrincipalProcedureDate)
		}
		b.hi([][]string{it})
	}
	for _, g := range ci.OtherProcedureInformationList {
		items = nil
		for _, o := range g {
			it := []string{o.QualifierCode, o.OtherProcedureCode}
			if o.OtherProcedureDate != "" {
				it = append(it, "D8", o.OtherProcedureDate)
			}
			items = append(items, it)
		}
		b.hi(items)
	}
	for _, g := range ci.OccurrenceSpanInformations {
		items = nil
		for _, o := range g {
			items = append(items, []string{"BI", o.OccurrenceSpanCode, "RD8", o.OccurrenceSpanCodeStartDate + "-" + o.OccurrenceSpanCodeEndDate})
		}
		b.hi(items)
	}
	for _, g := range ci.OccurrenceInformationList {
		items = nil
		for _, o := range g {
			items = append(items, []string{"BH", o.OccurrenceSpanCode, "D8", o.OccurrenceSpanCodeDate})
		}
		b.hi(items)
	}
	for _, g := range ci.ValueInformationList {
		items = nil
		for _, v := range g {
			items = append(items, []string{"BE", v.ValueCode, "", "", amount(v.ValueCodeAmount)})
		}
		b.hi(items)
	}
	for _, g := range ci.ConditionCodesList {
		items = nil
		for _, v := range g {
			items = append(items, []string{"BG", v.ConditionCode})
		}
		b.hi(items)
	}
	for _, g := range ci.TreatmentCodeInformationList {
		items = nil
		for _, code := range g {
			items = append(items, []string{"TC", code})
		}
		b.hi(items)
	}
	b.hcp(ci.ClaimPricingInformation)
	b.person("71", "AT", b.role("attending"))
	b.person("72", "", b.role("operating"))
	b.person("ZZ", "", b.role("otherOperating"))
	// 2310D: only when the rendering provider is not the attending one
	// (X223A3: "required when the Rendering Provider NM1 information is
	// different than that carried in Loop ID-2310A").
	if r := b.role("rendering"); !sameNPI(r, b.role("attending")) {
		b.person("82", "", r)
	}
	b.facility(ci.ServiceFacilityLocation.facility(), false)
	b.person("DN", "", b.role("referring"))
	if o := ci.OtherSubscriberInformation; o != nil {
		b.otherSubscriber(o)
	}
	for i := range ci.ServiceLines {
		b.line(i, &ci.ServiceLines[i])
	}
}

// person writes an 837I provider loop: NM1 (a person), PRV for the
// attending provider's taxonomy, REF secondary ids.
func (b *institutionalBuilder) person(entity, prv string, p *Provider) {
	if p == nil {
		return
	}
	qual := ""
	if p.NPI != "" {
		qual = "XX"
	}
	b.seg("NM1", entity, "1", p.LastName, p.FirstName, p.MiddleName, "", p.Suffix, qual, p.NPI)
	if prv != "" && p.TaxonomyCode != "" {
		b.seg("PRV", prv, "PXC", p.TaxonomyCode)
	}
	if p.StateLicenseNumber != "" {
		b.seg("REF", "0B", p.StateLicenseNumber)
	}
	if p.CommercialNumber != "" {
		b.seg("REF", "G2", p.CommercialNumber)
	}
	b.secondaryRefs(p)
}

func (b *institutionalBuilder) line(i int, l *InstitutionalServiceLine) {
	sv := l.InstitutionalService
	s := x12.Simple
	b.seg("LX", strconv.Itoa(i+1))
	var proc x12.Field = s("")
	if sv.ProcedureCode != "" {
		parts := append([]string{sv.ProcedureIdentifier, sv.ProcedureCode}, sv.ProcedureModifiers...)
		if sv.Description != "" {
			for len(parts) < 6 {
				parts = append(parts, "")
			}
			parts = append(parts, sv.Description)
		}
		proc = x12.Composite(parts...)
	}
	b.fields("SV2", s(sv.ServiceLineRevenueCode), proc, s(amount(sv.LineItemChargeAmount)), s(sv.MeasurementUnit),
		s(trimZeroFraction(sv.ServiceUnitCount)), s(""), s(amount(sv.NonCoveredChargeAmount)))
	for _, r := range l.reports() {
		b.pwk(r)
	}
	if l.ServiceDate != "" {
		if l.ServiceDateEnd != "" {
			b.seg("DTP", "472", "RD8", l.ServiceDate+"-"+l.ServiceDateEnd)
		} else {
			b.seg("DTP", "472", "D8", l.ServiceDate)
		}
	}
	b.lineIDs = append(b.lineIDs, b.lineItemControl(i, l.LineItemControlNumber, b.opts))
	if l.RepricedLineItemReferenceNumber != "" {
		b.seg("REF", "9B", l.RepricedLineItemReferenceNumber)
	}
	if l.AdjustedRepricedLineItemReferenceNumber != "" {
		b.seg("REF", "9D", l.AdjustedRepricedLineItemReferenceNumber)
	}
	if l.ServiceTaxAmount != "" {
		b.seg("AMT", "GT", amount(l.ServiceTaxAmount))
	}
	if l.FacilityTaxAmount != "" {
		b.seg("AMT", "N8", amount(l.FacilityTaxAmount)) // X223A3: GT is the service tax, N8 the facility tax
	}
	if note := cmpOr(l.LineNoteText, l.ThirdPartyOrganizationNotes); note != "" {
		b.seg("NTE", "TPO", note)
	}
	b.hcp(l.LineRepricingInformation)
	b.drug(l.DrugIdentification)
	b.person("72", "", l.OperatingPhysician)
	b.person("ZZ", "", l.OtherOperatingPhysician)
	// 2420C: only when the line's rendering provider is not the claim's
	// (2310D, else the attending provider).
	def := b.role("rendering")
	if def == nil {
		def = b.role("attending")
	}
	if !sameNPI(l.RenderingProvider, def) {
		b.person("82", "", l.RenderingProvider)
	}
	b.person("DN", "", l.ReferringProvider)
	s = x12.Simple
	for _, a := range l.LineAdjudicationInformation {
		proc := append([]string{a.ProductOrServiceIDQualifier, a.ProcedureCode}, a.ProcedureModifier...)
		if a.ProcedureCodeDescription != "" {
			for len(proc) < 6 {
				proc = append(proc, "")
			}
			proc = append(proc, a.ProcedureCodeDescription)
		}
		var procField x12.Field = s("")
		if a.ProcedureCode != "" {
			procField = x12.Composite(proc...)
		}
		b.fields("SVD", s(a.OtherPayerPrimaryIdentifier), s(amount(a.ServiceLinePaidAmount)), procField, s(a.ServiceLineRevenueCode),
			s(trimZeroFraction(a.PaidServiceUnitCount)), s(a.BundledLineNumber))
		b.cas(institutionalCAS(a.LineAdjustment))
		b.seg("DTP", "573", "D8", a.AdjudicationOrPaymentDate)
		if a.RemainingPatientLiability != "" {
			b.seg("AMT", "EAF", amount(a.RemainingPatientLiability))
		}
	}
}

// otherSubscriber writes 2320 (with MIA and MOA), 2330A/B and the other
// payer's provider ids 2330C–I.
func (b *institutionalBuilder) otherSubscriber(o *InstitutionalOtherSubscriber) {
	shared := o.shared()
	b.otherSubscriberHead(shared, "")
	if m := o.MedicareInpatientAdjudication; m != nil {
		b.seg("MIA", m.elements()...)
	}
	if m := o.MedicareOutpatientAdjudication; m != nil {
		b.seg("MOA", m.elements()...)
	}
	b.otherSubscriberNames(shared)
	for _, r := range []struct {
		entity, kind string
		p            *OtherPayerProvider
	}{{"71", "1", o.OtherPayerAttendingProvider}, {"72", "1", o.OtherPayerOperatingPhysician}, {"ZZ", "1", o.OtherPayerOtherOperatingPhysician},
		{"77", "2", o.OtherPayerServiceFacilityLocation}, {"82", "1", o.OtherPayerRenderingProvider}, {"DN", "1", o.OtherPayerReferringProvider},
		{"85", "2", o.OtherPayerBillingProvider}} {
		b.otherPayerProvider(r.entity, r.kind, r.p)
	}
}

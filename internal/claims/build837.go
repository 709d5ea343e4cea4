package claims

import (
	"errors"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/x12"
)

// Version837D is the implementation guide of the claims we write.
const Version837D = "005010X224A2"

// Build837D writes the 005010X224A2 837D of a validated request, enveloped
// for the payer (api-contract.md §4.1 gives the mapping).
func Build837D(req *Request, opts BuildOptions) (*Built, error) {
	if req.Submitter == nil || req.Receiver == nil || req.Subscriber == nil || req.Billing == nil || req.ClaimInformation == nil {
		return nil, errors.New("claims: build 837D: the request misses a required object; validate it first")
	}
	payerID := opts.PayerID
	if payerID == "" {
		payerID = req.TradingPartnerServiceID
	}
	ci := req.ClaimInformation
	parties := &claimParties{Submitter: req.Submitter, Receiver: req.Receiver, Billing: req.Billing,
		PayToAddress: req.PayToAddress, PayToPlan: req.PayToPlan, Subscriber: req.Subscriber, Dependent: req.Dependent,
		PayerID: payerID, PayerName: payerName(req.TradingPartnerName, opts.PayerName, req.Receiver),
		PayerAddress: req.PayerAddress, PayerSecondary: req.TradingPartnerSecondaryIdentifiers,
		ClaimFilingCode: ci.ClaimFilingCode, PropertyCasualtyClaimNumber: ci.PropertyCasualtyClaimNumber}
	return opts.build(Version837D, req.UsageIndicator, req.ClaimIdentifier, parties, func(w *segWriter) []string {
		b := &builder{segWriter: w, req: req, opts: opts}
		b.claim()
		return b.lineIDs
	})
}

// builder writes the claim loops of an 837D (2300 to 2430).
type builder struct {
	*segWriter
	req     *Request
	opts    BuildOptions
	lineIDs []string
}

func (b *builder) claim() {
	ci := b.req.ClaimInformation
	var related x12.Field
	if len(ci.RelatedCausesCode) > 0 {
		parts := []string{"", "", "", "", ""}
		copy(parts, ci.RelatedCausesCode)
		parts[3] = ci.AutoAccidentStateCode
		parts[4] = ci.AutoAccidentCountryCode
		related = x12.Composite(parts...)
	}
	pred := ""
	if ci.PredeterminationOfBenefits {
		pred = "PB"
	}
	plan := ci.PlanParticipationCode
	if plan == "" {
		plan = "A"
	}
	s := x12.Simple
	b.fields("CLM", s(ci.PatientControlNumber), s(amount(ci.ClaimChargeAmount)), s(""), s(""),
		x12.Composite(ci.PlaceOfServiceCode, "B", ci.ClaimFrequencyCode), s(ci.SignatureIndicator), s(plan),
		s(ci.BenefitsAssignmentCertificationIndicator), s(ci.ReleaseInformationCode), s(""), related,
		s(ci.SpecialProgramCode), s(""), s(""), s(""), s(""), s(""), s(""), s(pred), s(ci.DelayReasonCode))
	if d := ci.ClaimDateInformation; d != nil {
		if d.AccidentDate != "" {
			b.seg("DTP", d8("439", d.AccidentDate)...)
		}
		if d.AppliancePlacementDate != "" {
			b.seg("DTP", d8("452", d.AppliancePlacementDate)...)
		}
		if d.ServiceDate != "" {
			b.seg("DTP", d8("472", d.ServiceDate)...)
		}
		if d.RepricerReceivedDate != "" {
			b.seg("DTP", d8("050", d.RepricerReceivedDate)...)
		}
	}
	if o := ci.OrthodonticTotalMonthsOfTreatment; o != nil {
		b.seg("DN1", string(o.MonthsCount), string(o.MonthsRemaining), "", o.TreatmentIndicator)
	}
	for _, t := range ci.ToothStatus {
		// DN206 JP names the tooth numbering (ADA Universal National
		// Tooth Designation System); X224A2 requires it.
		b.seg("DN2", t.ToothNumber, t.ToothStatusCode, "", "", "", "JP")
	}
	sup := ci.ClaimSupplementalInformation
	if sup == nil {
		sup = &ClaimSupplementalInformation{}
	}
	reports := sup.ReportInformations
	if sup.ReportInformation != nil {
		reports = append([]ReportInformation{*sup.ReportInformation}, reports...)
	}
	for _, r := range reports {
		qual := ""
		if r.AttachmentControlNumber != "" {
			qual = "AC"
		}
		b.seg("PWK", r.AttachmentReportTypeCode, r.AttachmentTransmissionCode, "", "", qual, r.AttachmentControlNumber)
	}
	if k := ci.ClaimContractInformation; k != nil {
		b.seg("CN1", k.ContractTypeCode, amount(k.ContractAmount), k.ContractPercentage, k.ContractCode, k.TermsDiscountPercentage, k.ContractVersionIdentifier)
	}
	if ci.PatientAmountPaid != "" {
		b.seg("AMT", "F5", amount(ci.PatientAmountPaid))
	}
	for _, ref := range [][2]string{
		{"4N", sup.ServiceAuthorizationExceptionCode}, {"F8", sup.ClaimControlNumber},
		{"G3", sup.PredeterminationOfBenefitsIdentifier}, {"9F", sup.ReferralNumber}, {"G1", sup.PriorAuthorizationNumber},
		{"9A", sup.RepricedClaimNumber}, {"9C", sup.AdjustedRepricedClaimNumber}, {"D9", b.opts.CorrelationID},
	} {
		if ref[1] != "" {
			b.seg("REF", ref[0], ref[1])
		}
	}
	for _, f := range ci.FileInformationList {
		b.seg("K3", f)
	}
	if len(ci.ClaimNotes) > 0 {
		b.seg("NTE", "ADD", strings.Join(ci.ClaimNotes, "; "))
	}
	if len(ci.HealthCareCodeInformation) > 0 {
		var hi []x12.Field
		for _, d := range ci.HealthCareCodeInformation {
			hi = append(hi, x12.Composite(d.DiagnosisTypeCode, d.DiagnosisCode))
		}
		b.fields("HI", hi...)
	}
	r := b.req
	b.provider("DN", "RF", "PXC", r.Referring) // PXC: 5010's taxonomy qualifier (ZZ was 4010's)
	b.provider("82", "PE", "PXC", r.Rendering)
	b.facility(ci.ServiceFacilityLocation, false)
	b.provider("DD", "AS", "PXC", r.AssistantSurgeon)
	b.provider("DQ", "", "", r.Supervising)
	for i := range ci.OtherSubscriberInformation {
		b.otherSubscriber(&ci.OtherSubscriberInformation[i])
	}
	for i := range ci.ServiceLines {
		b.line(i, &ci.ServiceLines[i])
	}
}

func (b *builder) line(i int, l *ServiceLine) {
	d := l.DentalService
	b.seg("LX", strconv.Itoa(i+1))
	// SV301-7 (description) is not used in the 005010X224A2 guide, so
	// dentalService.description is validated but not sent.
	proc := append([]string{"AD", d.ProcedureCode}, d.ProcedureModifiers...)
	count := string(d.ProcedureCount)
	if count == "" {
		count = "1"
	}
	count = strings.TrimSuffix(count, ".0")
	var pointers x12.Field
	if p := d.CompositeDiagnosisCodePointers; p != nil {
		pointers = x12.Composite(p.DiagnosisCodePointers...)
	}
	oral := make([]string, len(d.OralCavityDesignation))
	for i, o := range d.OralCavityDesignation {
		oral[i] = oralCavityX12(o)
	}
	pos := d.PlaceOfServiceCode
	if pos == b.req.ClaimInformation.PlaceOfServiceCode {
		pos = "" // SV303 only when it differs from CLM05-1
	}
	s := x12.Simple
	b.fields("SV3", x12.Composite(proc...), s(amount(d.LineItemChargeAmount)), s(pos),
		x12.Composite(oral...), s(d.ProsthesisCrownOrInlayCode), s(count),
		s(""), s(""), s(""), s(""), pointers)
	for _, t := range l.TeethInformation {
		b.fields("TOO", s("JP"), s(t.ToothCode), x12.Composite(t.ToothSurfaceCodes...))
	}
	if l.ServiceDate != "" {
		b.seg("DTP", "472", "D8", l.ServiceDate)
	}
	if dt := l.ServiceLineDateInformation; dt != nil {
		for _, q := range [][2]string{{"441", dt.PriorPlacementDate}, {"452", dt.AppliancePlacementDate},
			{"446", dt.ReplacementDate}, {"196", dt.TreatmentStartDate}, {"198", dt.TreatmentCompletionDate}} {
			if q[1] != "" {
				b.seg("DTP", q[0], "D8", q[1])
			}
		}
	}
	ref := l.ServiceLineReferenceInformation
	if ref == nil {
		ref = &ServiceLineReferenceInformation{}
	}
	if ref.PredeterminationOfBenefits != "" {
		b.seg("REF", "G3", ref.PredeterminationOfBenefits)
	}
	for _, v := range ref.PriorAuthorization {
		b.seg("REF", "G1", v)
	}
	for _, v := range ref.ReferralNumber {
		b.seg("REF", "9F", v)
	}
	if ref.RepricedLineItemReferenceNumber != "" {
		b.seg("REF", "9B", ref.RepricedLineItemReferenceNumber)
	}
	if ref.AdjustedRepricedLineItemReferenceNumber != "" {
		b.seg("REF", "9D", ref.AdjustedRepricedLineItemReferenceNumber)
	}
	b.lineIDs = append(b.lineIDs, b.lineItemControl(i, l.ProviderControlNumber, b.opts))
	if l.SalesTaxAmount != "" {
		b.seg("AMT", "T", amount(l.SalesTaxAmount))
	}
	b.provider("82", "PE", "PXC", l.RenderingProvider)
	b.provider("DD", "AS", "PXC", l.AssistantSurgeon)
	b.provider("DQ", "", "", l.SupervisingProvider)
	b.facility(l.ServiceFacilityLocation, true)
	for _, a := range l.LineAdjudicationInformation {
		units := string(a.PaidServiceUnitCount)
		if units == "" {
			units = "1"
		}
		b.fields("SVD", s(a.OtherPayerPrimaryIdentifier), s(amount(a.ServiceLinePaidAmount)),
			x12.Composite(append([]string{"AD", a.ProcedureCode}, a.ProcedureModifiers...)...), s(""), s(units),
			s(a.BundledOrUnbundledLineNumber))
		b.cas(a.ClaimAdjustmentInformation)
		b.seg("DTP", "573", "D8", a.AdjudicationOrPaymentDate)
		if a.RemainingPatientLiability != "" {
			b.seg("AMT", "EAF", amount(a.RemainingPatientLiability))
		}
	}
}

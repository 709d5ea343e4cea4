package claims

import (
	"bytes"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

// Version837D is the implementation guide of the claims we write.
const Version837D = "005010X224A2"

// Delimiters of the 837Ds we write (the raw endpoint's contract limits
// callers to the same four).
const (
	elementSeparator    = '*'
	componentSeparator  = ':'
	repetitionSeparator = '^'
	segmentTerminator   = '~'
)

// Delimiters are the delimiters of every interchange this package writes.
var Delimiters = x12.Delimiters{Element: elementSeparator, Repetition: repetitionSeparator,
	Component: componentSeparator, Segment: segmentTerminator}

// Envelope is what the partnership says about the two parties: ISA05–08
// and GS02–03 (GS codes default to the ISA ids).
type Envelope struct {
	SenderQualifier, SenderID     string
	ReceiverQualifier, ReceiverID string
	SenderCode, ReceiverCode      string
}

func (e Envelope) withDefaults(payerID string) Envelope {
	if e.SenderQualifier == "" {
		e.SenderQualifier = "ZZ"
	}
	if e.SenderID == "" {
		e.SenderID = "CLEARHOUSE"
	}
	if e.ReceiverQualifier == "" {
		e.ReceiverQualifier = "ZZ"
	}
	if e.ReceiverID == "" {
		e.ReceiverID = payerID
	}
	e.SenderID, e.ReceiverID = isaID(e.SenderID), isaID(e.ReceiverID)
	if e.SenderCode == "" {
		e.SenderCode = e.SenderID
	}
	if e.ReceiverCode == "" {
		e.ReceiverCode = e.ReceiverID
	}
	return e
}

// BuildOptions are the per-claim inputs of Build837D.
type BuildOptions struct {
	Envelope Envelope
	// Numbers hands out ISA13 and GS06 (ST02 is always 0001: one set per
	// group).
	Numbers x12.ControlNumbers
	// PayerID and PayerName identify the payer in 1000B and 2010BB (the
	// directory's primary id; the name when the request has none).
	PayerID, PayerName string
	// CorrelationID becomes BHT03 and the clearinghouse trace REF*D9; it
	// is the response's correlationId and rhclaimNumber.
	CorrelationID string
	// LineID names a service line that has no providerControlNumber
	// (REF*6R, the response's lineItemControlNumber).
	LineID func(line int) string
	Now    time.Time
}

// Built is a built 837D with what the response reports about it.
type Built struct {
	X12      []byte
	Controls x12.Controls
	// LineItemControlNumbers holds each line's REF*6R, in line order.
	LineItemControlNumbers []string
}

// Build837D writes the 005010X224A2 837D of a validated request, enveloped
// for the payer (api-contract.md §4.1 gives the mapping).
func Build837D(req *Request, opts BuildOptions) (*Built, error) {
	if req.Submitter == nil || req.Receiver == nil || req.Subscriber == nil || req.Billing == nil || req.ClaimInformation == nil {
		return nil, errors.New("claims: build 837D: the request misses a required object; validate it first")
	}
	if opts.Numbers == nil {
		return nil, errors.New("claims: build 837D: no control number source")
	}
	payerID := opts.PayerID
	if payerID == "" {
		payerID = req.TradingPartnerServiceID
	}
	env := opts.Envelope.withDefaults(payerID)
	now := opts.Now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	usage := req.UsageIndicator
	if usage == "" {
		usage = "P"
	}
	var buf bytes.Buffer
	buf.Grow(2048)
	iw := x12.NewInterchangeWriter(&buf, Delimiters, &oneSetPerGroup{opts.Numbers})
	b := &builder{w: iw, req: req, opts: opts, payerID: payerID}
	b.do(func() error {
		return iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: env.SenderQualifier, SenderID: env.SenderID,
			ReceiverQualifier: env.ReceiverQualifier, ReceiverID: env.ReceiverID, Date: now, Usage: usage})
	})
	b.do(func() error {
		return iw.BeginGroup(x12.GroupHeader{FunctionalID: "HC", SenderCode: env.SenderCode, ReceiverCode: env.ReceiverCode,
			Date: now, Version: Version837D})
	})
	b.do(func() error { return iw.BeginTransaction("837", Version837D) })
	claimID := req.ClaimIdentifier
	if claimID == "" {
		claimID = "CH"
	}
	b.seg("BHT", "0019", "00", opts.CorrelationID, now.Format("20060102"), now.Format("1504"), claimID)
	b.submitter()
	b.seg("NM1", "40", "2", req.Receiver.OrganizationName, "", "", "", "", "46", payerID)
	b.billing()
	b.subscriber()
	if req.Dependent != nil {
		b.dependent()
	}
	b.claim()
	b.do(iw.EndTransaction)
	b.do(iw.EndGroup)
	b.do(iw.EndInterchange)
	if b.err != nil {
		return nil, b.err
	}
	return &Built{X12: buf.Bytes(), Controls: iw.Controls(), LineItemControlNumbers: b.lineIDs}, nil
}

// oneSetPerGroup gives ST02 0001: each of our groups holds one set.
type oneSetPerGroup struct{ x12.ControlNumbers }

func (o *oneSetPerGroup) Next(k x12.ControlKind) (int64, error) {
	if k == x12.TransactionControl {
		return 1, nil
	}
	return o.ControlNumbers.Next(k)
}

// builder writes segments and keeps the first error, so the layout reads
// top to bottom like the guide.
type builder struct {
	w       *x12.InterchangeWriter
	req     *Request
	opts    BuildOptions
	payerID string
	err     error
	lineIDs []string
}

func (b *builder) do(f func() error) {
	if b.err == nil {
		b.err = f()
	}
}

func (b *builder) seg(id string, elems ...string) {
	b.do(func() error { return b.w.WriteSegment(id, elems...) })
}

func (b *builder) fields(id string, f ...x12.Field) {
	b.do(func() error { return b.w.WriteSegmentFields(id, f...) })
}

// name writes an NM1 for a person (lastName) or an organization.
func (b *builder) name(entity, org, last, first, middle, suffix, qual, id string) {
	if org != "" {
		b.seg("NM1", entity, "2", org, "", "", "", "", qual, id)
		return
	}
	b.seg("NM1", entity, "1", last, first, middle, "", suffix, qual, id)
}

func (b *builder) address(a *Address) {
	if a == nil {
		return
	}
	b.seg("N3", a.Address1, a.Address2)
	b.seg("N4", a.City, a.State, a.PostalCode, a.CountryCode, "", "", a.CountrySubDivisionCode)
}

// contact writes a PER*IC with up to three communication numbers.
func (b *builder) contact(ci *ContactInformation, name string) {
	if ci == nil {
		return
	}
	var nums []string
	if ci.PhoneNumber != "" {
		nums = append(nums, "TE", ci.PhoneNumber)
		if ci.PhoneExtension != "" {
			nums = append(nums, "EX", ci.PhoneExtension)
		}
	}
	if ci.Email != "" {
		nums = append(nums, "EM", ci.Email)
	}
	if ci.FaxNumber != "" {
		nums = append(nums, "FX", ci.FaxNumber)
	}
	if len(nums) > 6 {
		nums = nums[:6]
	}
	if ci.Name != "" {
		name = ci.Name
	}
	b.seg("PER", append([]string{"IC", name}, nums...)...)
}

func (b *builder) submitter() {
	s := b.req.Submitter
	id := s.SubmitterIdentification
	if id == "" {
		id = b.req.Billing.NPI
	}
	b.name("41", s.OrganizationName, s.LastName, s.FirstName, s.MiddleName, "", "46", id)
	b.contact(s.ContactInformation, "")
}

func (b *builder) billing() {
	p := b.req.Billing
	b.seg("HL", "1", "", "20", "1")
	if p.TaxonomyCode != "" {
		b.seg("PRV", "BI", "PXC", p.TaxonomyCode)
	}
	qual := ""
	if p.NPI != "" {
		qual = "XX"
	}
	b.name("85", p.OrganizationName, p.LastName, p.FirstName, p.MiddleName, p.Suffix, qual, p.NPI)
	b.address(p.Address)
	if p.EmployerID != "" {
		b.seg("REF", "EI", p.EmployerID)
	} else {
		b.seg("REF", "SY", p.SSN)
	}
	if p.StateLicenseNumber != "" {
		b.seg("REF", "0B", p.StateLicenseNumber)
	}
	b.contact(p.ContactInformation, nameOf(p))
	if a := b.req.PayToAddress; a != nil {
		b.seg("NM1", "87", "2")
		b.address(a)
	}
	if pp := b.req.PayToPlan; pp != nil {
		b.seg("NM1", "PE", "2", pp.OrganizationName, "", "", "", "", pp.PrimaryIdentifierTypeCode, pp.PrimaryIdentifier)
		b.address(pp.Address)
		if pp.SecondaryIdentifier != "" {
			b.seg("REF", pp.SecondaryIdentifierTypeCode, pp.SecondaryIdentifier)
		}
		b.seg("REF", "EI", pp.TaxIdentificationNumber)
	}
}

func nameOf(p *Provider) string {
	if p.OrganizationName != "" {
		return p.OrganizationName
	}
	return strings.TrimSpace(p.FirstName + " " + p.LastName)
}

func (b *builder) subscriber() {
	r := b.req
	s := r.Subscriber
	dep := r.Dependent != nil
	b.seg("HL", "2", "1", "22", map[bool]string{true: "1", false: "0"}[dep])
	rel := ""
	if !dep {
		rel = "18"
	}
	resp := s.PaymentResponsibilityLevelCode
	if resp == "" {
		resp = "P"
	}
	group := s.GroupNumber
	if group == "" {
		group = s.PolicyNumber
	}
	filing := r.ClaimInformation.ClaimFilingCode
	b.seg("SBR", resp, rel, group, s.SubscriberGroupName, s.InsuranceTypeCode, "", "", "", filing)
	qual := "MI"
	b.name("IL", s.OrganizationName, s.LastName, s.FirstName, s.MiddleName, s.Suffix, qual, s.MemberID)
	if !dep {
		b.address(s.Address)
		b.seg("DMG", "D8", s.DateOfBirth, s.Gender)
	}
	if s.SSN != "" {
		b.seg("REF", "SY", s.SSN)
	}
	if ci := r.ClaimInformation; ci.PropertyCasualtyClaimNumber != "" && !dep {
		b.seg("REF", "Y4", ci.PropertyCasualtyClaimNumber)
	}
	payerName := r.TradingPartnerName
	if payerName == "" {
		payerName = b.opts.PayerName
	}
	if payerName == "" {
		payerName = r.Receiver.OrganizationName
	}
	b.seg("NM1", "PR", "2", payerName, "", "", "", "", "PI", b.payerID)
	b.address(r.PayerAddress)
	for _, id := range r.TradingPartnerSecondaryIdentifiers {
		b.seg("REF", id.Qualifier, id.Identifier)
	}
	if p := r.Billing; p.CommercialNumber != "" || p.LocationNumber != "" {
		if p.CommercialNumber != "" {
			b.seg("REF", "G2", p.CommercialNumber)
		}
		if p.LocationNumber != "" {
			b.seg("REF", "LU", p.LocationNumber)
		}
	}
}

func (b *builder) dependent() {
	d := b.req.Dependent
	b.seg("HL", "3", "2", "23", "0")
	b.seg("PAT", d.RelationshipToSubscriberCode)
	b.seg("NM1", "QC", "1", d.LastName, d.FirstName, d.MiddleName, "", d.Suffix)
	b.address(d.Address)
	b.seg("DMG", "D8", d.DateOfBirth, d.Gender)
	if ci := b.req.ClaimInformation; ci.PropertyCasualtyClaimNumber != "" {
		b.seg("REF", "Y4", ci.PropertyCasualtyClaimNumber)
	}
	if d.MemberID != "" {
		b.seg("REF", "1W", d.MemberID)
	} else if d.SSN != "" {
		b.seg("REF", "SY", d.SSN)
	}
}

// amount writes an amount the X12 way ("832.00" → "832").
func amount(s string) string {
	if c, ok := parseSignedCents(s); ok {
		return formatCents(c)
	}
	return s
}

func d8(qual, date string) []string {
	if strings.Contains(date, "-") {
		return []string{qual, "RD8", date}
	}
	return []string{qual, "D8", date}
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

// provider writes a 2310x/2420x provider loop: NM1, PRV (when the role has
// one and a taxonomy is given) and REF secondary ids.
func (b *builder) provider(entity, prvCode, prvQual string, p *Provider) {
	if p == nil {
		return
	}
	qual := ""
	if p.NPI != "" {
		qual = "XX"
	}
	if entity == "DN" || entity == "DQ" {
		b.seg("NM1", entity, "1", p.LastName, p.FirstName, p.MiddleName, "", p.Suffix, qual, p.NPI)
	} else {
		b.name(entity, p.OrganizationName, p.LastName, p.FirstName, p.MiddleName, p.Suffix, qual, p.NPI)
	}
	if prvCode != "" && p.TaxonomyCode != "" {
		b.seg("PRV", prvCode, prvQual, p.TaxonomyCode)
	}
	if p.StateLicenseNumber != "" {
		b.seg("REF", "0B", p.StateLicenseNumber)
	}
	if p.CommercialNumber != "" {
		b.seg("REF", "G2", p.CommercialNumber)
	}
	if p.LocationNumber != "" && entity != "DN" {
		b.seg("REF", "LU", p.LocationNumber)
	}
}

func (b *builder) facility(f *ServiceFacility, line bool) {
	if f == nil {
		return
	}
	qual := ""
	if f.NPI != "" {
		qual = "XX"
	}
	b.seg("NM1", "77", "2", f.OrganizationName, "", "", "", "", qual, f.NPI)
	b.address(f.Address)
	for _, s := range f.SecondaryIdentifier {
		if line && s.Qualifier == "0B" {
			continue // 2420D takes G2 and LU only
		}
		b.seg("REF", s.Qualifier, s.Identifier)
	}
	if f.PhoneNumber != "" && !line {
		b.contact(&ContactInformation{PhoneNumber: f.PhoneNumber, PhoneExtension: f.PhoneExtension}, "")
	}
}

func (b *builder) cas(adj []ClaimAdjustment) {
	for _, a := range adj {
		el := []string{a.AdjustmentGroupCode}
		for _, d := range a.AdjustmentDetails {
			el = append(el, d.AdjustmentReasonCode, amount(d.AdjustmentAmount), d.AdjustmentQuantity)
		}
		b.seg("CAS", el...)
	}
}

func (b *builder) otherSubscriber(o *OtherSubscriberInformation) {
	b.seg("SBR", o.PaymentResponsibilityLevelCode, o.IndividualRelationshipCode, o.InsuranceGroupOrPolicyNumber,
		o.OtherInsuredGroupName, o.InsuranceTypeCode, "", "", "", o.ClaimFilingIndicatorCode)
	b.cas(o.ClaimLevelAdjustments)
	if o.PayerPaidAmount != "" {
		b.seg("AMT", "D", amount(o.PayerPaidAmount))
	}
	if o.NonCoveredChargeAmount != "" {
		b.seg("AMT", "A8", amount(o.NonCoveredChargeAmount))
	}
	if o.RemainingPatientLiability != "" {
		b.seg("AMT", "EAF", amount(o.RemainingPatientLiability))
	}
	b.seg("OI", "", "", o.BenefitsAssignmentCertificationIndicator, "", "", o.ReleaseOfInformationCode)
	if n := o.OtherSubscriberName; n != nil {
		if n.OtherInsuredQualifier == "2" {
			b.seg("NM1", "IL", "2", n.OtherInsuredLastName, "", "", "", "", n.OtherInsuredIdentifierTypeCode, n.OtherInsuredIdentifier)
		} else {
			b.seg("NM1", "IL", "1", n.OtherInsuredLastName, n.OtherInsuredFirstName, n.OtherInsuredMiddleName, "",
				n.OtherInsuredNameSuffix, n.OtherInsuredIdentifierTypeCode, n.OtherInsuredIdentifier)
		}
		b.address(n.OtherInsuredAddress)
		if len(n.OtherInsuredAdditionalIdentifiers) > 0 {
			b.seg("REF", "SY", n.OtherInsuredAdditionalIdentifiers[0])
		}
	}
	if p := o.OtherPayerName; p != nil {
		b.seg("NM1", "PR", "2", p.OtherPayerOrganizationName, "", "", "", "", p.OtherPayerIdentifierTypeCode, p.OtherPayerIdentifier)
		b.address(p.OtherPayerAddress)
		if p.OtherPayerAdjudicationOrPaymentDate != "" {
			b.seg("DTP", "573", "D8", p.OtherPayerAdjudicationOrPaymentDate)
		}
		for _, s := range p.OtherPayerSecondaryIdentifier {
			b.seg("REF", s.Qualifier, s.Identifier)
		}
		if p.OtherPayerPriorAuthorizationNumber != "" {
			b.seg("REF", "G1", p.OtherPayerPriorAuthorizationNumber)
		}
		if p.OtherPayerPriorAuthorizationOrReferralNumber != "" {
			b.seg("REF", "9F", p.OtherPayerPriorAuthorizationOrReferralNumber)
		}
		if p.OtherPayerClaimAdjustmentIndicator {
			b.seg("REF", "T4", "Y")
		}
		if p.OtherPayerClaimControlNumber != "" {
			b.seg("REF", "F8", p.OtherPayerClaimControlNumber)
		}
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
	id := l.ProviderControlNumber
	if id == "" && b.opts.LineID != nil {
		id = b.opts.LineID(i)
	}
	b.lineIDs = append(b.lineIDs, id)
	if id != "" {
		b.seg("REF", "6R", id)
	}
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

// isaID cuts an id to the 15 characters of ISA06/ISA08 (GS codes keep
// more).
func isaID(s string) string {
	if len(s) > 15 {
		return s[:15]
	}
	return s
}

package claims

import (
	"bytes"
	"errors"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

// The delimiters of the claims we write (the raw endpoints' contract limits
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

// oneSetPerGroup gives ST02 0001: each of our groups holds one set.
type oneSetPerGroup struct{ x12.ControlNumbers }

func (o *oneSetPerGroup) Next(k x12.ControlKind) (int64, error) {
	if k == x12.TransactionControl {
		return 1, nil
	}
	return o.ControlNumbers.Next(k)
}

func (b *segWriter) do(f func() error) {
	if b.err == nil {
		b.err = f()
	}
}

func (b *segWriter) seg(id string, elems ...string) {
	b.do(func() error { return b.w.WriteSegment(id, elems...) })
}

func (b *segWriter) fields(id string, f ...x12.Field) {
	b.do(func() error { return b.w.WriteSegmentFields(id, f...) })
}

// name writes an NM1 for a person (lastName) or an organization.
func (b *segWriter) name(entity, org, last, first, middle, suffix, qual, id string) {
	if org != "" {
		b.seg("NM1", entity, "2", org, "", "", "", "", qual, id)
		return
	}
	b.seg("NM1", entity, "1", last, first, middle, "", suffix, qual, id)
}

func (b *segWriter) address(a *Address) {
	if a == nil {
		return
	}
	b.seg("N3", a.Address1, a.Address2)
	b.seg("N4", a.City, a.State, a.PostalCode, a.CountryCode, "", "", a.CountrySubDivisionCode)
}

// contact writes a PER*IC with up to three communication numbers.
func (b *segWriter) contact(ci *ContactInformation, name string) {
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

func (b *segWriter) submitter(h *claimParties) {
	s := h.Submitter
	id := s.SubmitterIdentification
	if id == "" {
		id = h.Billing.NPI
	}
	b.name("41", s.OrganizationName, s.LastName, s.FirstName, s.MiddleName, "", "46", id)
	b.contact(s.ContactInformation, "")
}

func (b *segWriter) billing(h *claimParties) {
	p := h.Billing
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
	if ein := cmpOr(p.EmployerID, p.EmployerIdentificationNumber); ein != "" {
		b.seg("REF", "EI", ein)
	} else {
		b.seg("REF", "SY", p.SSN)
	}
	if p.StateLicenseNumber != "" {
		b.seg("REF", "0B", p.StateLicenseNumber)
	}
	if p.ProviderUpinNumber != "" {
		b.seg("REF", "1G", p.ProviderUpinNumber)
	}
	b.contact(p.ContactInformation, nameOf(p))
	if a := h.PayToAddress; a != nil {
		b.seg("NM1", "87", "2")
		b.address(a)
	}
	if pp := h.PayToPlan; pp != nil {
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

func (b *segWriter) subscriber(h *claimParties) {
	s := h.Subscriber
	dep := h.Dependent != nil
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
	groupName := s.SubscriberGroupName
	if h.GroupNameOnlyWithoutNumber && group != "" {
		groupName = ""
	}
	b.seg("SBR", resp, rel, group, groupName, s.InsuranceTypeCode, "", "", "", h.ClaimFilingCode)
	if pat := h.Patient.elements(); pat != nil && !dep {
		b.seg("PAT", append([]string{"", "", "", ""}, pat...)...)
	}
	qual := "MI"
	b.name("IL", s.OrganizationName, s.LastName, s.FirstName, s.MiddleName, s.Suffix, qual, s.MemberID)
	if !dep {
		b.address(s.Address)
		b.seg("DMG", "D8", s.DateOfBirth, s.Gender)
	}
	if s.SSN != "" {
		b.seg("REF", "SY", s.SSN)
	}
	if h.PropertyCasualtyClaimNumber != "" && !dep {
		b.seg("REF", "Y4", h.PropertyCasualtyClaimNumber)
	}
	if !dep {
		b.contact(s.ContactInformation, "")
	}
	b.seg("NM1", "PR", "2", h.PayerName, "", "", "", "", "PI", h.PayerID)
	b.address(h.PayerAddress)
	for _, id := range h.PayerSecondary {
		b.seg("REF", id.Qualifier, id.Identifier)
	}
	if p := h.Billing; p.CommercialNumber != "" || p.LocationNumber != "" {
		if p.CommercialNumber != "" {
			b.seg("REF", "G2", p.CommercialNumber)
		}
		if p.LocationNumber != "" {
			b.seg("REF", "LU", p.LocationNumber)
		}
	}
}

func (b *segWriter) dependent(h *claimParties) {
	d := h.Dependent
	b.seg("HL", "3", "2", "23", "0")
	b.seg("PAT", append([]string{d.RelationshipToSubscriberCode, "", "", ""}, h.Patient.elements()...)...)
	b.seg("NM1", "QC", "1", d.LastName, d.FirstName, d.MiddleName, "", d.Suffix)
	b.address(d.Address)
	b.seg("DMG", "D8", d.DateOfBirth, d.Gender)
	if h.PropertyCasualtyClaimNumber != "" {
		b.seg("REF", "Y4", h.PropertyCasualtyClaimNumber)
	}
	if d.MemberID != "" {
		b.seg("REF", "1W", d.MemberID)
	} else if d.SSN != "" {
		b.seg("REF", "SY", d.SSN)
	}
	b.contact(d.ContactInformation, "")
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

// provider writes a 2310x/2420x provider loop: NM1, PRV (when the role has
// one and a taxonomy is given) and REF secondary ids.
func (b *segWriter) provider(entity, prvCode, prvQual string, p *Provider) {
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
	b.secondaryRefs(p)
}

// secondaryRefs writes a provider's further REFs (secondaryIdentifier,
// referenceIdentification, UPIN); an otherIdentifier is REF04 2U:id, the
// other payer the id belongs to (2420x).
func (b *segWriter) secondaryRefs(p *Provider) {
	for _, id := range p.secondaryRefs() {
		if id.OtherIdentifier != "" {
			b.fields("REF", x12.Simple(id.Qualifier), x12.Simple(id.Identifier), x12.Simple(""), x12.Composite("2U", id.OtherIdentifier))
			continue
		}
		b.seg("REF", id.Qualifier, id.Identifier)
	}
}

func (b *segWriter) facility(f *ServiceFacility, line bool) {
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
		b.contact(&ContactInformation{Name: f.PhoneName, PhoneNumber: f.PhoneNumber, PhoneExtension: f.PhoneExtension}, "")
	}
}

func (b *segWriter) cas(adj []ClaimAdjustment) {
	for _, a := range adj {
		el := []string{a.AdjustmentGroupCode}
		for _, d := range a.AdjustmentDetails {
			el = append(el, d.AdjustmentReasonCode, amount(d.AdjustmentAmount), d.AdjustmentQuantity)
		}
		b.seg("CAS", el...)
	}
}

func (b *segWriter) otherSubscriber(o *OtherSubscriberInformation) {
	b.otherSubscriberHead(o, "")
	b.otherSubscriberNames(o)
}

// otherSubscriberHead is 2320 up to OI (OI04 the patient signature
// source, P or empty); an 837P writes its MOA after it.
func (b *segWriter) otherSubscriberHead(o *OtherSubscriberInformation, signatureSource string) {
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
	b.seg("OI", "", "", o.BenefitsAssignmentCertificationIndicator, signatureSource, "", o.ReleaseOfInformationCode)
}

// otherSubscriberNames are 2330A (the other subscriber) and 2330B (the
// other payer).
func (b *segWriter) otherSubscriberNames(o *OtherSubscriberInformation) {
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

// isaID cuts an id to the 15 characters of ISA06/ISA08 (GS codes keep
// more).
func isaID(s string) string {
	if len(s) > 15 {
		return s[:15]
	}
	return s
}

// segWriter writes segments and keeps the first error, so a writer's
// layout reads top to bottom like its guide.
type segWriter struct {
	w   *x12.InterchangeWriter
	err error
}

// claimParties are the loops every 837 writes before its claim (1000A to
// 2010CA): submitter, receiver, billing and pay-to, subscriber, payer and
// patient. The same segments in 005010X224A2, X222A1 and X223A3.
type claimParties struct {
	Submitter    *Submitter
	Receiver     *Receiver
	Billing      *Provider
	PayToAddress *Address
	PayToPlan    *PayToPlan
	Subscriber   *Subscriber
	Dependent    *Dependent
	// PayerID and PayerName are 2010BB's NM109 and NM103.
	PayerID, PayerName string
	PayerAddress       *Address
	PayerSecondary     []SecondaryIdentifier
	// ClaimFilingCode is SBR09; PropertyCasualtyClaimNumber is REF*Y4.
	ClaimFilingCode, PropertyCasualtyClaimNumber string
	// GroupNameOnlyWithoutNumber leaves SBR04 out when SBR03 is sent
	// (837P and 837I: "required when SBR03 is not used").
	GroupNameOnlyWithoutNumber bool
	// Patient is the 837P's PAT death date, weight and pregnancy (2000B
	// when the subscriber is the patient, else 2000C); empty elsewhere.
	Patient patientDetail
}

// patientDetail is what the 837P's PAT says about the patient besides the
// relationship.
type patientDetail struct {
	DeathDate, WeightPounds, Pregnant string
}

func (p patientDetail) elements() []string {
	if p == (patientDetail{}) {
		return nil
	}
	qual, weightUnit := "", ""
	if p.DeathDate != "" {
		qual = "D8"
	}
	if p.WeightPounds != "" {
		weightUnit = "01"
	}
	return []string{qual, p.DeathDate, weightUnit, p.WeightPounds, p.Pregnant}
}

// payerName is 2010BB's NM103: the name the request gives the payer, else
// the directory's, else the receiver's.
func payerName(requested, directory string, r *Receiver) string {
	switch {
	case requested != "":
		return requested
	case directory != "":
		return directory
	case r != nil:
		return r.OrganizationName
	}
	return ""
}

// interchange is the envelope of one claim: ISA, GS and ST for the guide
// version, then BHT (BHT03 the correlation id, BHT06 the claim identifier).
type interchange struct {
	Envelope      Envelope
	Version       string
	Usage         string // ISA15, P when empty
	Now           time.Time
	CorrelationID string
	ClaimID       string // BHT06, CH when empty
}

// begin opens the interchange, its group and its one 837 set, and writes
// the BHT and the parties.
func (b *segWriter) begin(ic interchange, h *claimParties) {
	iw, env := b.w, ic.Envelope
	usage := ic.Usage
	if usage == "" {
		usage = "P"
	}
	b.do(func() error {
		return iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: env.SenderQualifier, SenderID: env.SenderID,
			ReceiverQualifier: env.ReceiverQualifier, ReceiverID: env.ReceiverID, Date: ic.Now, Usage: usage})
	})
	b.do(func() error {
		return iw.BeginGroup(x12.GroupHeader{FunctionalID: "HC", SenderCode: env.SenderCode, ReceiverCode: env.ReceiverCode,
			Date: ic.Now, Version: ic.Version})
	})
	b.do(func() error { return iw.BeginTransaction("837", ic.Version) })
	claimID := ic.ClaimID
	if claimID == "" {
		claimID = "CH"
	}
	b.seg("BHT", "0019", "00", ic.CorrelationID, ic.Now.Format("20060102"), ic.Now.Format("1504"), claimID)
	b.submitter(h)
	b.seg("NM1", "40", "2", h.Receiver.OrganizationName, "", "", "", "", "46", cmpOr(h.Receiver.TaxID, h.PayerID))
	b.billing(h)
	b.subscriber(h)
	if h.Dependent != nil {
		b.dependent(h)
	}
}

// end closes the set, the group and the interchange.
func (b *segWriter) end() {
	b.do(b.w.EndTransaction)
	b.do(b.w.EndGroup)
	b.do(b.w.EndInterchange)
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

// build writes one claim's interchange: the envelope and parties, then the
// claim loops that claim writes (returning each line's REF*6R).
func (opts BuildOptions) build(version, usage, claimID string, h *claimParties, claim func(*segWriter) []string) (*Built, error) {
	if opts.Numbers == nil {
		return nil, errors.New("claims: build " + version + ": no control number source")
	}
	now := opts.Now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	var buf bytes.Buffer
	buf.Grow(2048)
	iw := x12.NewInterchangeWriter(&buf, Delimiters, &oneSetPerGroup{opts.Numbers})
	w := &segWriter{w: iw}
	w.begin(interchange{Envelope: opts.Envelope.withDefaults(h.PayerID), Version: version, Usage: usage, Now: now,
		CorrelationID: opts.CorrelationID, ClaimID: claimID}, h)
	lineIDs := claim(w)
	w.end()
	if w.err != nil {
		return nil, w.err
	}
	return &Built{X12: buf.Bytes(), Controls: iw.Controls(), LineItemControlNumbers: lineIDs}, nil
}

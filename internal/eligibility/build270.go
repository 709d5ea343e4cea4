package eligibility

import (
	"bytes"
	"errors"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/x12"
)

// Implementation guide of the eligibility pair.
const (
	Version270    = "005010X279A1"
	functional270 = "HS"
)

// Envelope is what we say about ourselves in the 270's ISA/GS and TRN.
type Envelope struct {
	SenderQualifier string // ISA05, default "ZZ"
	SenderID        string // ISA06 and GS02, default "CLEARHOUSE"
	// ReceiverQualifier/ReceiverID (ISA07/08, GS03) default to "ZZ" and the
	// payer id.
	ReceiverQualifier string
	ReceiverID        string
	// OriginatorID is TRN03 of our trace: "1" + EIN or "9" + 9 characters
	// (default "9CLEARHOUS").
	OriginatorID string
}

// Default envelope identity.
const (
	DefaultSenderID     = "CLEARHOUSE"
	DefaultOriginatorID = "9CLEARHOUS"
)

func (e Envelope) withDefaults(payerID string) Envelope {
	if e.SenderQualifier == "" {
		e.SenderQualifier = "ZZ"
	}
	if e.SenderID == "" {
		e.SenderID = DefaultSenderID
	}
	if e.ReceiverQualifier == "" {
		e.ReceiverQualifier = "ZZ"
	}
	if e.ReceiverID == "" {
		e.ReceiverID = payerID
	}
	if e.OriginatorID == "" {
		e.OriginatorID = DefaultOriginatorID
	}
	return e
}

// Build270Options are the per-check inputs of the builder.
type Build270Options struct {
	Envelope Envelope
	// Numbers hands out the ISA13/GS06/ST02 control numbers.
	Numbers x12.ControlNumbers
	// TraceID becomes our TRN02 (meta.outboundTraceId), and BHT03 unless
	// the caller sent a controlNumber.
	TraceID string
	// SubmitterControlNumber is the request's controlNumber: the
	// submitter's transaction identifier, BHT03, so the caller's number
	// travels with the 270 (ISA13/GS06 stay ours, unique across replicas).
	SubmitterControlNumber string
	// Now dates the envelope and the BHT.
	Now time.Time
	// Test marks the interchange as test data (ISA15 "T").
	Test bool
}

// Built270 is a built inquiry with the control numbers it carries.
type Built270 struct {
	X12      []byte
	Controls x12.Controls
}

// Build270 writes the 005010X279A1 270 for a validated request (see
// api-contract.md §1.2): payer in 2000A/2100A, provider in 2000B/2100B,
// subscriber in 2000C/2100C and, when the request has a dependent, the
// dependent in 2000D/2100D. The trace number and the inquiry (DTP, EQ, III,
// REF) go with the patient: the dependent when there is one, else the
// subscriber.
func Build270(req *Request, payer payers.Payer, opts Build270Options) (*Built270, error) {
	if req.provider() == nil || req.Subscriber == nil {
		return nil, errors.New("eligibility: build 270: request has no provider or subscriber; validate it first")
	}
	if opts.Numbers == nil {
		return nil, errors.New("eligibility: build 270: no control number source")
	}
	env := opts.Envelope.withDefaults(payer.ID)
	now := opts.Now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	usage := "P"
	if opts.Test {
		usage = "T"
	}
	var buf bytes.Buffer
	buf.Grow(1024)
	iw := x12.NewInterchangeWriter(&buf, x12.Delimiters{
		Element: elementSeparator, Repetition: repetitionSeparator, Component: componentSeparator, Segment: segmentTerminator,
	}, opts.Numbers)
	b := &builder{w: iw}
	b.do(func() error {
		return iw.BeginInterchange(x12.InterchangeHeader{
			SenderQualifier: env.SenderQualifier, SenderID: env.SenderID,
			ReceiverQualifier: env.ReceiverQualifier, ReceiverID: env.ReceiverID,
			Date: now, Usage: usage,
		})
	})
	b.do(func() error {
		return iw.BeginGroup(x12.GroupHeader{FunctionalID: functional270, SenderCode: env.SenderID,
			ReceiverCode: env.ReceiverID, Date: now, Version: Version270})
	})
	b.do(func() error { return iw.BeginTransaction("270", Version270) })
	bht03 := opts.TraceID
	if opts.SubmitterControlNumber != "" {
		bht03 = opts.SubmitterControlNumber
	}
	// The date and the time formatted as one string, not one each.
	var dt [12]byte
	bhtDate := string(x12.AppendDateTime(dt[:0], now))
	b.seg("BHT", "0022", "13", bht03, bhtDate[:8], bhtDate[8:])

	payerName := req.TradingPartnerName
	if payerName == "" {
		payerName = payer.Name
	}
	b.seg("HL", "1", "", "20", "1")
	b.seg("NM1", "PR", "2", payerName, "", "", "", "", "PI", payer.ID)

	b.seg("HL", "2", "1", "21", "1")
	b.provider(req.provider(), req)

	dep := len(req.Dependents) > 0
	children := "0"
	if dep {
		children = "1"
	}
	b.seg("HL", "3", "2", "22", children)
	trace := func() { b.seg("TRN", "1", opts.TraceID, env.OriginatorID) }
	if !dep {
		trace()
	}
	b.subscriber(req, payer, !dep)
	if dep {
		b.seg("HL", "4", "3", "23", "0")
		trace()
		b.dependent(req)
	}

	b.do(iw.EndTransaction)
	b.do(iw.EndGroup)
	b.do(iw.EndInterchange)
	if b.err != nil {
		return nil, b.err
	}
	return &Built270{X12: buf.Bytes(), Controls: iw.Controls()}, nil
}

// builder writes segments and keeps the first error, so the layout reads
// top to bottom.
type builder struct {
	w   *x12.InterchangeWriter
	err error
}

func (b *builder) do(f func() error) {
	if b.err == nil {
		b.err = f()
	}
}

func (b *builder) seg(id string, elems ...string) {
	if b.err == nil {
		b.err = b.w.WriteSegment(id, elems...)
	}
}

func (b *builder) fields(id string, fields ...x12.Field) {
	if b.err == nil {
		b.err = b.w.WriteSegmentFields(id, fields...)
	}
}

// refs writes REF segments for the non-empty values, in the given order.
func (b *builder) refs(pairs ...string) {
	for i := 0; i+1 < len(pairs); i += 2 {
		if pairs[i+1] != "" {
			b.seg("REF", pairs[i], pairs[i+1])
		}
	}
}

func (b *builder) address(a *Address, dummyCity bool) {
	if a == nil {
		return
	}
	if a.Address1 != "" {
		b.seg("N3", a.Address1, a.Address2)
	}
	city := a.City
	if city == "" && dummyCity && a.State != "" {
		// CMS's MBI lookup without SSN wants only the state, but N401 is
		// required; CMS ignores the city (api-contract.md §3).
		city = "DUMMY"
	}
	if city != "" || a.State != "" || a.PostalCode != "" {
		b.seg("N4", city, a.State, a.PostalCode, a.CountryCode, "", "", a.CountrySubDivisionCode)
	}
}

var providerEntityCodes = map[string]string{
	"provider": "1P", "payer": "PR", "third-party administrator": "2B", "employer": "36",
	"hospital": "80", "facility": "FA", "gateway provider": "GP", "plan sponsor": "P5",
}

// provider writes loop 2100B.
func (b *builder) provider(p *Provider, req *Request) {
	entity := providerEntityCodes[p.ProviderType]
	if entity == "" {
		entity = "1P"
	}
	// The name: an organisation (NM102 2) or a person (NM102 1).
	kind, last, first, middle := "2", p.OrganizationName, "", ""
	if p.OrganizationName == "" {
		kind, last, first = "1", p.LastName, p.FirstName
	}
	// The primary identifier, by preference; the others become REFs.
	qualifier, id := "", ""
	for _, c := range []struct{ q, v string }{
		{"XX", p.NPI}, {"FI", p.TaxID}, {"34", p.SSN}, {"SV", p.ServiceProviderNumber},
		{"PP", p.PharmacyProcessorNumber}, {"XV", p.ServicesPlanID}, {"PI", p.PayorID},
	} {
		if c.v != "" {
			qualifier, id = c.q, c.v
			break
		}
	}
	b.seg("NM1", entity, kind, last, first, middle, "", "", qualifier, id)

	taxID, ssn := p.TaxID, p.SSN
	if qualifier == "FI" {
		taxID = ""
	}
	if qualifier == "34" {
		ssn = ""
	}
	contract := p.ContractNumber
	if contract == "" {
		contract = p.ContactNumber
	}
	if p.StateLicenceNumber != "" {
		b.seg("REF", "0B", p.StateLicenceNumber, p.InformationReceiverAdditionalIdentifierState)
	}
	b.refs("1C", p.MedicareProviderNumber, "1D", p.MedicaidProviderNumber, "1J", p.FacilityIDNumber,
		"4A", req.PortalPassword, "CT", contract, "EL", p.DevicePinNumber, "EO", p.SubmitterIDNumber,
		"JD", req.PortalUsername, "N5", p.ProviderPlanNetworkIDNumber, "N7", p.FacilityNetworkIDNumber,
		"Q4", p.PriorIdentifierNumber, "SY", ssn, "TJ", taxID)
	b.address(p.Address, false)
	if p.ProviderCode != "" {
		qualifier := ""
		if p.ReferenceIdentification != "" {
			qualifier = "PXC"
		}
		b.seg("PRV", p.ProviderCode, qualifier, p.ReferenceIdentification)
	}
}

// subscriber writes loop 2100C and, when the subscriber is the patient, the
// inquiry.
func (b *builder) subscriber(req *Request, payer payers.Payer, patient bool) {
	s := req.Subscriber
	qualifier := ""
	if s.MemberID != "" {
		qualifier = "MI"
	}
	b.seg("NM1", "IL", "1", s.LastName, s.FirstName, s.MiddleName, "", s.Suffix, qualifier, s.MemberID)
	var add AdditionalIdentification
	if s.AdditionalIdentification != nil {
		add = *s.AdditionalIdentification
	}
	b.refs("18", add.PlanNumber, "1L", add.PolicyNumber, "1W", add.MemberIdentificationNumber,
		"3H", s.CaseNumber, "6P", s.GroupNumber, "CT", add.ContractNumber, "EA", add.MedicalRecordIdentificationNumber,
		"EJ", add.PatientAccountNumber, "F6", add.HealthInsuranceClaimNumber, "GH", add.IdentificationCardSerialNumber,
		"HJ", s.IDCard, "IG", add.InsurancePolicyNumber, "N6", add.PlanNetworkIdentificationNumber,
		"NQ", s.MedicaidRecipientIdentificationNumber, "SY", s.SSN, "Y4", add.AgencyClaimNumber)
	b.address(s.Address, payer.ID == PayerMBILookupNoSSN)
	b.patientDetails(&s.Patient, "Y", "18")
	b.dates(&s.Patient, req.Encounter, patient)
	if patient {
		b.inquiry(req.Encounter, s)
	}
}

// dependent writes loop 2100D and the inquiry.
func (b *builder) dependent(req *Request) {
	d := &req.Dependents[0]
	b.seg("NM1", "03", "1", d.LastName, d.FirstName, d.MiddleName, "", d.Suffix)
	var add AdditionalIdentification
	if d.AdditionalIdentification != nil {
		add = *d.AdditionalIdentification
	}
	// 2100D has no slot for a member id (1W), Medicaid recipient id (NQ) or
	// case number (3H): those identify subscribers.
	b.refs("18", add.PlanNumber, "1L", add.PolicyNumber, "6P", d.GroupNumber, "CT", add.ContractNumber,
		"EA", add.MedicalRecordIdentificationNumber, "EJ", add.PatientAccountNumber, "F6", add.HealthInsuranceClaimNumber,
		"GH", add.IdentificationCardSerialNumber, "HJ", d.IDCard, "IF", d.IssueNumber, "IG", add.InsurancePolicyNumber,
		"MRC", d.EligibilityCategory, "N6", add.PlanNetworkIdentificationNumber, "SY", d.SSN, "Y4", add.AgencyClaimNumber)
	b.address(d.Address, false)
	b.patientDetails(&d.Patient, "N", d.IndividualRelationshipCode)
	b.dates(&d.Patient, req.Encounter, true)
	b.inquiry(req.Encounter, nil)
}

// patientDetails writes PRV, DMG, INS and HI of a 2100C/D loop.
func (b *builder) patientDetails(p *Patient, insured, relationship string) {
	if p.ProviderCode != "" {
		b.seg("PRV", p.ProviderCode, p.ReferenceIdentificationQualifier, p.ProviderIdentifier)
	}
	if p.DateOfBirth != "" || p.Gender != "" {
		format := ""
		if p.DateOfBirth != "" {
			format = "D8"
		}
		b.seg("DMG", format, p.DateOfBirth, p.Gender)
	}
	// INS is only needed to tell multiple births apart, or to say how a
	// dependent relates to the subscriber.
	if p.BirthSequenceNumber != "" || (insured == "N" && relationship != "") {
		ins := make([]string, 17)
		ins[0], ins[1], ins[16] = insured, relationship, p.BirthSequenceNumber
		b.seg("INS", ins...)
	}
	if len(p.HealthCareCodeInformation) > 0 {
		fields := make([]x12.Field, len(p.HealthCareCodeInformation))
		for i, d := range p.HealthCareCodeInformation {
			fields[i] = x12.Composite(d.DiagnosisTypeCode, d.DiagnosisCode)
		}
		b.fields("HI", fields...)
	}
}

// dates writes the DTPs of a 2100C/D loop: the card issue date (102) and,
// for the patient, the date of service (291) — or the plan dates the caller
// sent when there is no date of service.
func (b *builder) dates(p *Patient, e *Encounter, patient bool) {
	if p.IDCardIssueDate != "" {
		b.seg("DTP", "102", "D8", p.IDCardIssueDate)
	} else if p.BeginningCardIssueDate != "" {
		b.seg("DTP", "102", "RD8", p.BeginningCardIssueDate+"-"+p.EndCardIssueDate)
	}
	switch {
	case patient && e != nil && e.DateOfService != "":
		b.seg("DTP", "291", "D8", e.DateOfService)
	case patient && e != nil && e.BeginningDateOfService != "":
		b.seg("DTP", "291", "RD8", e.BeginningDateOfService+"-"+e.EndDateOfService)
	case p.PlanIssueDate != "":
		b.seg("DTP", "291", "D8", p.PlanIssueDate)
	case p.BeginningPlanIssueDate != "":
		b.seg("DTP", "291", "RD8", p.BeginningPlanIssueDate+"-"+p.EndPlanIssueDate)
	}
}

// inquiry writes the 2110C/D loops: one EQ with the service types (and the
// encounter's procedure), then one EQ per further procedure. The place of
// service, the authorization number and the spend-down amounts go with the
// first.
func (b *builder) inquiry(e *Encounter, s *Subscriber) {
	stcs := e.serviceTypes()
	var first Encounter
	if e != nil {
		first = *e
	}
	reps := make([]x12.Field, len(stcs))
	for i, c := range stcs {
		reps[i] = x12.Simple(c)
	}
	var stcField x12.Field
	if len(reps) > 0 {
		stcField = x12.Repeated(reps...)
	}
	b.fields("EQ", stcField, procedureField(first.ProductOrServiceIDQualifier, first.ProcedureCode, first.ProcedureModifiers),
		x12.Simple(""), x12.Simple(""), x12.Composite(first.DiagnosisCodePointer...))
	if s != nil {
		if s.SpendDownAmount != "" {
			b.seg("AMT", "R", s.SpendDownAmount)
		}
		if s.SpendDownTotalBilledAmount != "" {
			b.seg("AMT", "PB", s.SpendDownTotalBilledAmount)
		}
	}
	if first.IndustryCode != "" {
		b.seg("III", "ZZ", first.IndustryCode)
	}
	if first.PriorAuthorizationOrReferralNumber != "" {
		b.seg("REF", first.ReferenceIdentificationQualifier, first.PriorAuthorizationOrReferralNumber)
	}
	for _, p := range first.MedicalProcedures {
		b.fields("EQ", x12.Simple(""), procedureField(p.ProductOrServiceIDQualifier, p.ProcedureCode, p.ProcedureModifiers),
			x12.Simple(""), x12.Simple(""), x12.Composite(p.DiagnosisCodePointer...))
	}
}

// procedureField is EQ02 (C003): qualifier, code, up to four modifiers.
func procedureField(qualifier, code string, modifiers []string) x12.Field {
	if code == "" {
		return x12.Simple("")
	}
	parts := append([]string{qualifier, strings.TrimSpace(code)}, modifiers...)
	return x12.Composite(parts...)
}

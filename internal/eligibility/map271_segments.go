package eligibility

import (
	"strings"
)

// nm1 names the entity of the current loop, or adds a benefit-related
// entity inside a 2120 loop.
func (m *mapper) nm1(s segment) {
	if m.benefit >= 0 { // an NM1 after an EB is a 2120 entity, LS or not
		b := m.currentBenefit()
		b.BenefitsRelatedEntities = append(b.BenefitsRelatedEntities, relatedEntity(s))
		m.entity = &b.BenefitsRelatedEntities[len(b.BenefitsRelatedEntities)-1]
		return
	}
	m.named = true
	entity, entityType := entityIdentifierNames.name(s.Element(1)), entityTypeNames.name(s.Element(2))
	qualifier, id := s.Element(8), s.Element(9)
	switch m.level {
	case levelSource:
		p := &ResponsePayer{EntityIdentifier: entity, EntityType: entityType}
		if s.Element(2) == "1" {
			p.LastName, p.FirstName, p.MiddleName, p.Suffix = s.Element(3), s.Element(4), s.Element(5), s.Element(7)
		} else {
			p.Name = s.Element(3)
		}
		switch qualifier {
		case "PI":
			p.PayorIdentification = id
		case "FI":
			p.FederalTaxpayersIDNumber = id
		case "NI":
			p.NAIC = id
		case "XX":
			p.NPI = id
		case "46":
			p.ETIN = id
		case "XV":
			p.CentersForMedicareAndMedicaidPlanID = id
		case "24":
			p.EmployersID = id
		}
		if m.resp.Payer != nil { // AAAs read before the NM1 (loop 2000A) stay with the payer
			p.AAAErrors = m.resp.Payer.AAAErrors
		}
		m.resp.Payer = p
		m.resp.TradingPartnerServiceID = id
	case levelReceiver:
		p := &ResponseProvider{ProviderName: s.Element(3), EntityIdentifier: entity, EntityType: entityType}
		if s.Element(2) == "1" {
			p.ProviderFirstName, p.MiddleName, p.Suffix = s.Element(4), s.Element(5), s.Element(7)
		}
		setProviderID(p, qualifier, id)
		if m.resp.Provider != nil {
			p.AAAErrors = m.resp.Provider.AAAErrors
		}
		m.resp.Provider = p
	case levelSubscriber, levelDependent:
		if m.person == nil {
			return
		}
		p := m.person
		p.LastName, p.FirstName, p.MiddleName, p.Suffix = s.Element(3), s.Element(4), s.Element(5), s.Element(7)
		p.EntityIdentifier, p.EntityType = entity, entityType
		switch qualifier {
		case "II":
			p.UniqueHealthIdentifier = id
		case "":
		default: // MI, and the non-standard values some payers send
			p.MemberID = id
		}
	}
}

// setProviderID files an NM108/NM109 (or REF) identifier of the provider.
func setProviderID(p *ResponseProvider, qualifier, id string) {
	switch qualifier {
	case "XX", "HPI":
		p.NPI = id
	case "FI", "TJ":
		p.FederalTaxpayersIDNumber = id
	case "PI":
		p.PayorIdentification = id
	case "PP":
		p.PharmacyProcessorNumber = id
	case "SV":
		p.ServiceProviderNumber = id
	case "XV":
		p.ServicesPlanID = id
	case "34", "SY":
		p.SSN = id
	case "24":
		p.EmployersID = id
	}
}

func relatedEntity(s segment) BenefitsRelatedEntity {
	e := BenefitsRelatedEntity{
		EntityIdentifier:          entityIdentifierNames.name(s.Element(1)),
		EntityType:                entityTypeNames.name(s.Element(2)),
		EntityName:                s.Element(3),
		EntityFirstname:           s.Element(4),
		EntityMiddlename:          s.Element(5),
		EntitySuffix:              s.Element(7),
		EntityIdentification:      s.Element(8),
		EntityIdentificationValue: s.Element(9),
		EntityRelationship:        s.Element(10),
	}
	return e
}

// addressTarget is the address the next N3/N4 fills.
func (m *mapper) addressTarget() **Address {
	switch {
	case m.entity != nil:
		return &m.entity.Address
	case m.benefit >= 0:
		return nil
	case m.level == levelReceiver && m.resp.Provider != nil:
		return &m.resp.Provider.Address
	case m.person != nil:
		return &m.person.Address
	}
	return nil
}

func applyAddress(target **Address, s segment) {
	if *target == nil {
		*target = &Address{}
	}
	a := *target
	if s.Is("N3") {
		a.Address1, a.Address2 = s.Element(1), s.Element(2)
		return
	}
	a.City, a.State, a.PostalCode, a.CountryCode = s.Element(1), s.Element(2), s.Element(3), s.Element(4)
	a.CountrySubDivisionCode = s.Element(7)
}

// per adds the contacts of a PER to the payer or a related entity.
func (m *mapper) per(s segment) {
	var target **ContactInformation
	switch {
	case m.entity != nil:
		target = &m.entity.ContactInformation
	case m.level == levelSource && m.resp.Payer != nil && m.benefit < 0:
		target = &m.resp.Payer.ContactInformation
	default:
		return
	}
	if *target == nil {
		*target = &ContactInformation{}
	}
	ci := *target
	if ci.Name == "" {
		ci.Name = s.Element(2)
	}
	for e := 3; e <= 7; e += 2 {
		if q, n := s.Element(e), s.Element(e+1); q != "" || n != "" {
			ci.Contacts = append(ci.Contacts, Contact{CommunicationMode: communicationModeNames.name(q), CommunicationNumber: n})
		}
	}
}

func (m *mapper) prv(s segment) {
	code, ref := s.Element(1), s.Element(3)
	switch {
	case m.entity != nil:
		m.entity.ProviderInformation = &ProviderInformation{ProviderCode: code, ReferenceIdentification: ref}
	case m.benefit >= 0:
	case m.level == levelReceiver && m.resp.Provider != nil:
		m.resp.Provider.ProviderCode, m.resp.Provider.ReferenceIdentification = code, ref
	case m.person != nil:
		m.person.ResponseProvider = &ResponseProvider{ProviderCode: code, ReferenceIdentification: ref}
	}
}

// ref files a REF: into the benefit's additional information inside a 2110,
// into the provider's identifiers in 2100B, into planInformation (and the
// person's own fields) in 2100C/D.
func (m *mapper) ref(s segment) {
	q, v, desc := s.Element(1), s.Element(2), s.Element(3)
	if b := m.currentBenefit(); b != nil {
		if m.in2120 {
			return
		}
		key := referenceQualifierKeys.column(q, refBenefitKey)
		if key == "" {
			return
		}
		if b.BenefitsAdditionalInformation == nil {
			b.BenefitsAdditionalInformation = map[string]string{}
		}
		b.BenefitsAdditionalInformation[key] = v
		if q == "NQ" { // the contract also carries its misspelled twin
			b.BenefitsAdditionalInformation["medicaidRecepientIdNumber"] = v
		}
		if dk := referenceQualifierKeys.column(q, refBenefitDescriptionKey); dk != "" && desc != "" {
			b.BenefitsAdditionalInformation[dk] = desc
		}
		return
	}
	switch {
	case m.level == levelReceiver && m.resp.Provider != nil:
		setProviderID(m.resp.Provider, q, v)
	case m.person != nil:
		refs := &m.subscriberRefs
		if m.level == levelDependent {
			refs = &m.dependentRefs
		}
		if key := referenceQualifierKeys.column(q, refPlanKey); key != "" {
			if *refs == nil {
				*refs = map[string]string{}
			}
			(*refs)[key] = v
			if dk := referenceQualifierKeys.column(q, refPlanDescriptionKey); dk != "" && desc != "" {
				(*refs)[dk] = desc
			}
		}
		p := m.person
		switch q {
		case "6P":
			p.GroupNumber, p.GroupDescription = v, desc
		case "18":
			p.PlanNumber, p.PlanDescription = v, desc
		case "N6":
			p.PlanNetworkIDNumber, p.PlanNetworkDescription = v, desc
		case "SY":
			p.SSN = v
		}
	}
}

// dtp files a date into the benefit's dates inside a 2110, into the plan
// dates in 2100C/D.
func (m *mapper) dtp(s segment) {
	q, value := s.Element(1), s.Element(3)
	if b := m.currentBenefit(); b != nil {
		if m.in2120 {
			return
		}
		key := dateQualifierKeys.column(q, dateBenefitKey)
		if key == "" {
			return
		}
		if b.BenefitsDateInformation == nil {
			b.BenefitsDateInformation = &BenefitsDateInformation{Dates: map[string]string{}}
		}
		addBenefitDate(b.BenefitsDateInformation, key, value)
		return
	}
	if m.person == nil {
		return
	}
	key := dateQualifierKeys.column(q, datePlanKey)
	if key == "" {
		return
	}
	dates := &m.subscriberDates
	if m.level == levelDependent {
		dates = &m.dependentDates
	}
	if *dates == nil {
		*dates = map[string]string{}
	}
	(*dates)[key] = value
}

// addBenefitDate sets a date; a second admission or discharge date turns the
// single field into the admissions / discharges list.
func addBenefitDate(d *BenefitsDateInformation, key, value string) {
	list := map[string]*[]DatePeriod{"admission": &d.Admissions, "discharge": &d.Discharges}[key]
	prev, seen := d.Dates[key]
	if list == nil || (!seen && len(*list) == 0) {
		d.Dates[key] = value
		return
	}
	if seen {
		*list = append(*list, datePeriod(prev))
		delete(d.Dates, key)
	}
	*list = append(*list, datePeriod(value))
}

func datePeriod(v string) DatePeriod {
	if start, end, ok := strings.Cut(v, "-"); ok {
		return DatePeriod{StartDate: start, EndDate: end}
	}
	return DatePeriod{Date: v}
}

func (m *mapper) ins(s segment) {
	if m.person == nil || m.benefit >= 0 {
		return
	}
	p := m.person
	p.InsuredIndicator = s.Element(1)
	if code := s.Element(2); code != "" {
		p.RelationToSubscriberCode, p.RelationToSubscriber = code, relationshipNames.name(code)
	}
	p.MaintenanceTypeCode, p.MaintenanceReasonCode = s.Element(3), s.Element(4)
	p.BirthSequenceNumber = s.Element(17)
}

func (m *mapper) hi(s segment) {
	if m.person == nil || m.benefit >= 0 {
		return
	}
	for e := 1; e <= s.Len(); e++ {
		if typ, code := s.Component(e, 1), s.Component(e, 2); typ != "" || code != "" {
			m.person.HealthCareDiagnosisCodes = append(m.person.HealthCareDiagnosisCodes, DiagnosisCode{DiagnosisTypeCode: typ, DiagnosisCode: code})
		}
	}
}

func (m *mapper) mpi(s segment) {
	if m.person == nil || m.benefit >= 0 {
		return
	}
	p := m.person
	p.InformationStatusCode, p.EmploymentStatusCode = s.Element(1), s.Element(2)
	p.GovernmentServiceAffiliationCode, p.Description, p.MilitaryServiceRankCode = s.Element(3), s.Element(4), s.Element(5)
	p.DateTimePeriodFormatQualifier = s.Element(6)
	if v := s.Element(7); p.DateTimePeriodFormatQualifier == "RD8" {
		p.StartDateTimePeriod, p.EndDateTimePeriod, _ = strings.Cut(v, "-")
	} else {
		p.DateTimePeriod = v
	}
}

// aaa records a rejection in errors[] and with the entity it concerns.
func (m *mapper) aaa(s segment) {
	code, followup := s.Element(3), s.Element(4)
	e := AAAError{
		Field:               "AAA",
		Code:                code,
		Description:         aaaReasons.name(code),
		FollowupAction:      followupActionNames.name(followup),
		Location:            "Loop " + m.loop(),
		PossibleResolutions: aaaReasons.column(code, 1),
	}
	if followup == "" {
		e.FollowupAction = ""
	}
	m.resp.Errors = append(m.resp.Errors, e)
	if m.benefit >= 0 {
		return // 2110 rejections are reported only at the top level
	}
	switch m.level {
	case levelSource:
		if m.resp.Payer == nil {
			m.resp.Payer = &ResponsePayer{}
		}
		m.resp.Payer.AAAErrors = append(m.resp.Payer.AAAErrors, e)
	case levelReceiver:
		if m.resp.Provider == nil {
			m.resp.Provider = &ResponseProvider{}
		}
		m.resp.Provider.AAAErrors = append(m.resp.Provider.AAAErrors, e)
	case levelSubscriber, levelDependent:
		if m.person != nil {
			m.person.AAAErrors = append(m.person.AAAErrors, e)
		}
	}
}

// eb starts a benefit (a 2110 loop).
func (m *mapper) eb(s segment) {
	if m.person == nil {
		return
	}
	m.in2120, m.entity = false, nil
	// Filled where it stays, not built aside and copied in (half a
	// kilobyte a benefit).
	m.resp.BenefitsInformation = append(m.resp.BenefitsInformation, BenefitsInformation{})
	m.benefit = len(m.resp.BenefitsInformation) - 1
	b := &m.resp.BenefitsInformation[m.benefit]
	b.Code, b.Name = codeAndNameAt(s, 1, eligibilityCodeNames)
	b.CoverageLevelCode, b.CoverageLevel = codeAndNameAt(s, 2, coverageLevelNames)
	b.ServiceTypeCodes = serviceTypeCodes(s, m.strings(serviceTypeCount(s)))
	b.ServiceTypes = m.strings(len(b.ServiceTypeCodes))
	for _, c := range b.ServiceTypeCodes {
		b.ServiceTypes = append(b.ServiceTypes, serviceTypeNames.name(c))
	}
	b.InsuranceTypeCode, b.InsuranceType = codeAndNameAt(s, 4, insuranceTypeNames)
	b.PlanCoverage = s.Element(5)
	b.TimeQualifierCode, b.TimeQualifier = codeAndNameAt(s, 6, timePeriodNames)
	b.BenefitAmount = decimal(s.Element(7))
	b.BenefitPercent = decimal(s.Element(8))
	b.QuantityQualifierCode, b.QuantityQualifier = codeAndNameAt(s, 9, quantityQualifierNames)
	b.BenefitQuantity = decimal(s.Element(10))
	b.AuthOrCertIndicator = s.Element(11)
	b.InPlanNetworkIndicatorCode, b.InPlanNetworkIndicator = codeAndNameAt(s, 12, yesNoNames)
	if len(s.ElementBytes(13)) > 0 {
		b.CompositeMedicalProcedureIdentifier = procedure(s)
	}
	if code := b.Code; len(code) == 1 && code[0] >= '1' && code[0] <= '8' {
		m.resp.PlanStatus = append(m.resp.PlanStatus, PlanStatus{
			StatusCode: code, Status: b.Name, PlanDetails: b.PlanCoverage, ServiceTypeCodes: b.ServiceTypeCodes,
		})
	}
}

// serviceTypeCodes splits EB03. Service type codes are never composites, so
// a component separator inside EB03 is a repetition written with the wrong
// delimiter (OopFactory samples use "^" for both).
// They are appended to out, which has room for serviceTypeCount of them.
func serviceTypeCodes(s segment, out []string) []string {
	e := s.ElementBytes(3)
	if len(e) == 0 {
		return nil
	}
	d := s.Delimiters()
	start := 0
	for i := 0; i <= len(e); i++ {
		if i == len(e) || e[i] == d.Component || d.Repetition != 0 && e[i] == d.Repetition {
			if i > start {
				out = append(out, code(e[start:i]))
			}
			start = i + 1
		}
	}
	return out
}

// serviceTypeCount is at least the number of codes serviceTypeCodes finds.
func serviceTypeCount(s segment) int {
	e := s.ElementBytes(3)
	if len(e) == 0 {
		return 0
	}
	// One pass for both separators (EB03 is a few bytes: two calls of
	// bytes.Count cost more than the loop).
	d := s.Delimiters()
	n := 1
	for _, c := range e {
		if c == d.Repetition || c == d.Component {
			n++
		}
	}
	return n
}

// procedure reads EB13 (C003) and EB14 (C004).
func procedure(s segment) *CompositeMedicalProcedureIdentifier {
	p := &CompositeMedicalProcedureIdentifier{ProcedureCode: s.Component(13, 2), ProductOrServiceID: s.Component(13, 8)}
	p.ProductOrServiceIDQualifierCode, p.ProductOrServiceIDQualifier = codeAndName(code(s.ComponentBytes(13, 1)), productQualifierNames)
	for c := 3; c <= 6; c++ {
		if mod := s.Component(13, c); mod != "" {
			p.ProcedureModifiers = append(p.ProcedureModifiers, mod)
		}
	}
	for c := 1; c <= 4; c++ {
		if ptr := s.Component(14, c); ptr != "" {
			p.DiagnosisCodePointer = append(p.DiagnosisCodePointer, ptr)
		}
	}
	return p
}

func serviceDelivery(s segment) BenefitsServiceDelivery {
	d := BenefitsServiceDelivery{Quantity: decimal(s.Element(2)), SampleSelectionModulus: s.Element(4), NumOfPeriods: s.Element(6)}
	d.QuantityQualifierCode, d.QuantityQualifier = codeAndNameAt(s, 1, deliveryQuantityNames)
	d.UnitForMeasurementQualifierCode, d.UnitForMeasurementQualifier = codeAndNameAt(s, 3, measurementUnitNames)
	d.UnitForMeasurementCode = d.UnitForMeasurementQualifier
	d.TimePeriodQualifierCode, d.TimePeriodQualifier = codeAndNameAt(s, 5, timePeriodNames)
	d.DeliveryOrCalendarPatternQualifierCode, d.DeliveryOrCalendarPatternQualifier = codeAndNameAt(s, 7, deliveryFrequencyNames)
	d.DeliveryOrCalendarPatternCode = d.DeliveryOrCalendarPatternQualifier
	d.DeliveryPatternTimeQualifierCode, d.DeliveryPatternTimeQualifier = codeAndNameAt(s, 8, deliveryTimeNames)
	d.DeliveryPatternTimeCode = d.DeliveryPatternTimeQualifier
	return d
}

func additionalInformation(s segment) EligibilityAdditionalInformation {
	a := EligibilityAdditionalInformation{IndustryCode: s.Element(2), CodeCategory: s.Element(3), InjuredBodyPartName: s.Element(4)}
	a.CodeListQualifierCode, a.CodeListQualifier = codeAndNameAt(s, 1, codeListQualifierNames)
	if a.CodeListQualifierCode == "ZZ" && a.IndustryCode != "" {
		a.Industry = placeOfServiceNames.name(a.IndustryCode)
	}
	return a
}

func traceNumber(s segment) TraceNumber {
	t := TraceNumber{
		TraceTypeCode:                    s.Element(1),
		ReferenceIdentification:          s.Element(2),
		OriginatingCompanyIdentifier:     s.Element(3),
		SecondaryReferenceIdentification: s.Element(4),
	}
	switch t.TraceTypeCode {
	case "1":
		t.TraceType = "Current Transaction Trace Numbers"
	case "2":
		t.TraceType = "Referenced Transaction Trace Numbers"
	}
	return t
}

// code is b as a string: the code lists' own copy when b is one of their
// codes, so mapping a 271's codes allocates nothing for the usual ones.
func code(b []byte) string {
	if id := codeIDOf(b); id != 0 {
		return codeStrings[id]
	}
	return string(b)
}

// codeAndNameAt returns element n of s as a code (code) with its name in
// t, or two empty strings: the code is looked up once for both.
func codeAndNameAt(s segment, n int, t *codeTable) (string, string) {
	b := s.ElementBytes(n)
	if len(b) == 0 {
		return "", ""
	}
	if id := codeIDOf(b); id != 0 {
		c := codeStrings[id]
		if cols := t.colsByID(id); len(cols) > 0 {
			return c, cols[0]
		}
		return c, c
	}
	// No table has it: the name is the code, as codeTable.name has it.
	c := s.str(b)
	return c, c
}

// codeAndName returns a code with its name, or two empty strings.
func codeAndName(code string, t *codeTable) (string, string) {
	if code == "" {
		return "", ""
	}
	return code, t.name(code)
}

// decimal writes an X12 decimal the way the contract does: a leading zero
// before the point (".2" → "0.2", "-.5" → "-0.5"), otherwise as sent.
func decimal(v string) string {
	switch {
	case strings.HasPrefix(v, "."):
		return "0" + v
	case strings.HasPrefix(v, "-."):
		return "-0" + v[1:]
	}
	return v
}

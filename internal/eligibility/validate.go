package eligibility

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// FieldError is one problem with one request field. Path is a JSON pointer
// into the request ("/provider/npi", "/dependents/0/dateOfBirth"); Message
// says what is wrong and how to fix it, echoing only what the caller sent.
type FieldError = problem.Field

// ValidationError lists every problem found in a request, in field order
// (problem.Invalid, which the API renders as 400 VALIDATION_ERROR).
type ValidationError = problem.Invalid

// invalid is the ValidationError of fields and more problems past them.
func invalid(fields []FieldError, more int) *ValidationError {
	return problem.NewInvalid("invalid eligibility request", fields, more)
}

// listed is the answer's fieldList: the problems kept, then one entry
// counting the rest.
func listed(e *ValidationError) []FieldError {
	if e.More == 0 {
		return e.Fields
	}
	return append(e.Fields[:len(e.Fields):len(e.Fields)], FieldError{Path: "", Message: findings.MoreMessage(e.More)})
}

// checker collects field errors while the rules run.
type checker struct{ errs findings.List[FieldError] }

func (c *checker) add(path, format string, args ...any) {
	if c.errs.Full() { // past the cap only the count is kept: no message is built
		c.errs.More++
		return
	}
	c.errs.Add(FieldError{Path: path, Message: findings.Clip(fmt.Sprintf(format, args...))})
}

// The field checks take the field's place as the path of its object
// (base, "" at the top) and its name, joined only when a problem is
// reported: a valid request builds no paths.

// length checks an optional string's length in characters.
func (c *checker) length(base, name, v string, min, max int) {
	if v == "" {
		return
	}
	if n := utf8.RuneCountInString(v); n < min || n > max {
		if min == max {
			c.add(base+"/"+name, "must be exactly %d characters; got %d", min, n)
		} else {
			c.add(base+"/"+name, "must be %d–%d characters; got %d", min, max, n)
		}
	}
}

// digits checks an optional value of exactly n digits.
func (c *checker) digits(base, name, v string, n int, what string) {
	if v != "" && (len(v) != n || !allDigits(v)) {
		c.add(base+"/"+name, "%s must be exactly %d digits with no dashes or spaces; got %q", what, n, v)
	}
}

// date checks an optional CCYYMMDD date.
func (c *checker) date(base, name, v string) {
	if v != "" && !validDate(v) {
		c.add(base+"/"+name, "must be a real date written YYYYMMDD (for example 19800131); got %q", v)
	}
}

// dateRange checks an optional begin/end pair: both or neither, begin ≤ end.
func (c *checker) dateRange(base, beginField, begin, endField, end string) {
	c.date(base, beginField, begin)
	c.date(base, endField, end)
	switch {
	case begin != "" && end == "":
		c.add(base+"/"+endField, "is required when %s is given; send both ends of the range", beginField)
	case begin == "" && end != "":
		c.add(base+"/"+beginField, "is required when %s is given; send both ends of the range", endField)
	case begin != "" && validDate(begin) && validDate(end) && begin > end:
		c.add(base+"/"+endField, "must not be before %s (%s > %s); swap them", beginField, begin, end)
	}
}

// oneOf checks an optional code against a fixed list.
func (c *checker) oneOf(base, name, v string, allowed ...string) {
	if v == "" {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	c.add(base+"/"+name, "must be one of %s; got %q", strings.Join(allowed, ", "), v)
}

// Validate applies the request rules of api-contract.md §1.1 and §3. payer
// is the directory entry tradingPartnerServiceId resolved to, or nil when
// unknown; the Medicare (memberIdFormat "mbi") and MBI-lookup rules depend
// on it. It returns a *ValidationError listing every problem.
func Validate(r *Request, payer *payers.Payer) error {
	c := &checker{}
	rules := payerRules{id: strings.ToUpper(strings.TrimSpace(r.TradingPartnerServiceID))}
	if payer != nil {
		rules = payerRules{id: payer.ID, mbi: payer.MemberIDFormat == payers.MemberIDFormatMBI}
	}
	rules.mbi = rules.mbi || rules.id == PayerMedicare

	if r.TradingPartnerServiceID == "" {
		c.add("/tradingPartnerServiceId", "is required: the payer id from the payer list (for example 87726 for UnitedHealthcare)")
	}
	c.length("", "tradingPartnerServiceId", r.TradingPartnerServiceID, 1, 80)
	c.length("", "tradingPartnerName", r.TradingPartnerName, 1, 60)
	c.digits("", "controlNumber", r.ControlNumber, 9, "controlNumber")
	c.length("", "externalPatientId", r.ExternalPatientID, 1, 36)
	c.length("", "portalUsername", r.PortalUsername, 1, 50)
	c.length("", "portalPassword", r.PortalPassword, 1, 50)

	checkProvider(c, r)
	checkSubscriber(c, r.Subscriber, rules)
	checkDependents(c, r.Dependents, rules)
	checkEncounter(c, r.Encounter)
	checkX12Safe(c, r)

	if c.errs.Len() > 0 {
		return invalid(c.errs.Items, c.errs.More)
	}
	return nil
}

var providerTypes = []string{"payer", "third-party administrator", "employer", "hospital", "facility",
	"gateway provider", "plan sponsor", "provider"}

func checkProvider(c *checker, r *Request) {
	const base = "/provider"
	p := r.provider()
	if p == nil {
		c.add(base, "is required: the requesting provider, with a name (organizationName, or firstName and lastName) and an identifier such as npi")
		return
	}
	if p.OrganizationName == "" && p.LastName == "" {
		c.add(base+"/organizationName", "a provider name is required: send organizationName, or lastName (and firstName) for an individual provider")
	}
	if p.NPI == "" && p.TaxID == "" && p.SSN == "" && p.ServiceProviderNumber == "" &&
		p.PharmacyProcessorNumber == "" && p.ServicesPlanID == "" && p.PayorID == "" {
		c.add(base+"/npi", "a provider identifier is required: send npi (preferred), or taxId, serviceProviderNumber, pharmacyProcessorNumber, servicesPlanID or payorId")
	}
	c.length(base, "organizationName", p.OrganizationName, 1, 60)
	c.length(base, "firstName", p.FirstName, 1, 35)
	c.length(base, "lastName", p.LastName, 1, 60)
	if p.NPI != "" {
		switch {
		case len(p.NPI) != 10 || !allDigits(p.NPI):
			c.add(base+"/npi", "must be the provider's 10-digit NPI; got %q", p.NPI)
		case !guide.ValidNPI(p.NPI):
			c.add(base+"/npi", "%q is not a valid NPI: it must start with 1 or 2 and its last digit must match the NPI check digit (Luhn with prefix 80840); check for a typo", p.NPI)
		}
	}
	c.digits(base, "taxId", p.TaxID, 9, "taxId")
	c.digits(base, "ssn", p.SSN, 9, "ssn")
	for _, f := range []struct{ name, v string }{
		{"serviceProviderNumber", p.ServiceProviderNumber}, {"pharmacyProcessorNumber", p.PharmacyProcessorNumber},
		{"servicesPlanID", p.ServicesPlanID}, {"payorId", p.PayorID},
	} {
		c.length(base, f.name, f.v, 2, 80)
	}
	for _, f := range []struct{ name, v string }{
		{"stateLicenceNumber", p.StateLicenceNumber}, {"medicareProviderNumber", p.MedicareProviderNumber},
		{"medicaidProviderNumber", p.MedicaidProviderNumber}, {"facilityIdNumber", p.FacilityIDNumber},
		{"contractNumber", p.ContractNumber}, {"contactNumber", p.ContactNumber}, {"devicePinNumber", p.DevicePinNumber},
		{"submitterIdNumber", p.SubmitterIDNumber}, {"providerPlanNetworkIdNumber", p.ProviderPlanNetworkIDNumber},
		{"facilityNetworkIdNumber", p.FacilityNetworkIDNumber}, {"priorIdentifierNumber", p.PriorIdentifierNumber},
	} {
		c.length(base, f.name, f.v, 1, 50)
	}
	checkProviderCode(c, base+"/providerCode", p.ProviderCode)
	if p.ReferenceIdentification != "" && p.ProviderCode == "" {
		c.add(base+"/providerCode", "is required when referenceIdentification (the taxonomy code) is given; for the requesting provider this is usually PE (performing) or BI (billing)")
	}
	c.length(base, "referenceIdentification", p.ReferenceIdentification, 1, 50)
	c.oneOf(base, "providerType", p.ProviderType, providerTypes...)
	checkAddress(c, base+"/address", p.Address, true)
}

func checkProviderCode(c *checker, path, code string) {
	if code != "" && !providerCodeNames.has(code) {
		c.add(path, "%q is not a provider code; use one of AD AT BI CO CV H HH LA OT P1 P2 PC PE R RF SB SK SU", code)
	}
}

func checkAddress(c *checker, path string, a *Address, streetRequired bool) {
	if a == nil {
		return
	}
	if streetRequired {
		if a.Address1 == "" {
			c.add(path+"/address1", "is required when an address is sent")
		}
		if a.City == "" {
			c.add(path+"/city", "is required when an address is sent")
		}
	}
	c.length(path, "address1", a.Address1, 1, 55)
	c.length(path, "address2", a.Address2, 1, 55)
	c.length(path, "city", a.City, 2, 30)
	if a.State != "" && (len(a.State) != 2 || strings.ToUpper(a.State) != a.State) {
		c.add(path+"/state", "must be a two-letter uppercase state or province code (for example TX); got %q", a.State)
	}
	if a.PostalCode != "" && (!allDigits(a.PostalCode) || (len(a.PostalCode) != 5 && len(a.PostalCode) != 9)) &&
		(a.CountryCode == "" || a.CountryCode == "US") {
		c.add(path+"/postalCode", "must be a 5- or 9-digit ZIP code without a dash; got %q", a.PostalCode)
	}
	c.length(path, "countryCode", a.CountryCode, 2, 2)
	c.length(path, "countrySubDivisionCode", a.CountrySubDivisionCode, 1, 3)
}

// payerRules is what the payer-specific rules need to know about the payer.
type payerRules struct {
	id  string
	mbi bool // member ids are Medicare Beneficiary Identifiers
}

// mbiLookup reports whether the payer is one of the MBI lookup services.
func (p payerRules) mbiLookup() bool { return p.id == PayerMBILookup || p.id == PayerMBILookupNoSSN }

func checkSubscriber(c *checker, s *Subscriber, payer payerRules) {
	const base = "/subscriber"
	if s == nil {
		c.add(base, "is required: the insured person, with at least one of memberId, dateOfBirth or lastName (payers must answer when memberId, firstName, lastName and dateOfBirth are all sent)")
		return
	}
	if s.MemberID == "" && s.DateOfBirth == "" && s.LastName == "" {
		c.add(base, "needs at least one of memberId, dateOfBirth or lastName; payers must answer when memberId, firstName, lastName and dateOfBirth are all sent")
	}
	if s.MemberID != "" {
		c.length(base, "memberId", s.MemberID, 2, 80)
		if strings.Trim(s.MemberID, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789- ") != "" {
			c.add(base+"/memberId", "may contain only letters, digits, dashes and spaces; got %q", s.MemberID)
		}
	}
	checkPatient(c, base, &s.Patient, payer.id != PayerMBILookupNoSSN)
	for _, f := range []struct{ name, v string }{
		{"spendDownAmount", s.SpendDownAmount}, {"spendDownTotalBilledAmount", s.SpendDownTotalBilledAmount},
	} {
		if f.v == "" {
			continue
		}
		if _, err := strconv.ParseFloat(f.v, 64); err != nil || len(f.v) > 15 || strings.HasPrefix(f.v, "+") {
			c.add(base+"/"+f.name, "must be a decimal amount such as 125.50 (at most 15 characters); got %q", f.v)
		}
	}

	switch {
	case payer.id == PayerMBILookup:
		if s.LastName == "" {
			c.add(base+"/lastName", "is required for an MBI lookup (payer MBILU): send lastName, dateOfBirth and ssn")
		}
		if s.DateOfBirth == "" {
			c.add(base+"/dateOfBirth", "is required for an MBI lookup (payer MBILU): send lastName, dateOfBirth and ssn")
		}
		if s.SSN == "" {
			c.add(base+"/ssn", "is required for an MBI lookup with payer MBILU; without an SSN use payer MBILUNOSSN with firstName, lastName, dateOfBirth and address.state")
		}
		mbiLookupNoMemberID(c, base, s)
	case payer.id == PayerMBILookupNoSSN:
		for _, f := range []struct{ path, v string }{
			{"/firstName", s.FirstName}, {"/lastName", s.LastName}, {"/dateOfBirth", s.DateOfBirth},
		} {
			if f.v == "" {
				c.add(base+f.path, "is required for an MBI lookup without SSN (payer MBILUNOSSN): send firstName, lastName, dateOfBirth and address.state")
			}
		}
		if s.Address == nil || s.Address.State == "" {
			c.add(base+"/address/state", "is required for an MBI lookup without SSN (payer MBILUNOSSN)")
		}
		mbiLookupNoMemberID(c, base, s)
	case payer.mbi:
		switch {
		case s.MemberID == "":
			c.add(base+"/memberId", "is required for Medicare (payer %s): send the patient's 11-character MBI; if it is unknown, run an MBI lookup with payer MBILU first", payer.id)
		case !ValidMBI(s.MemberID):
			c.add(base+"/memberId", "%q is not a Medicare Beneficiary Identifier: an MBI has 11 uppercase characters without dashes in the pattern C A AN N A AN N A A N N (C = 1–9, N = digit, A = letter except S, L, O, I, B, Z), for example 1EG4TE5MK73; if it is unknown, run an MBI lookup with payer MBILU", s.MemberID)
		}
	}
}

func mbiLookupNoMemberID(c *checker, base string, s *Subscriber) {
	if s.MemberID != "" {
		c.add(base+"/memberId", "must be empty for an MBI lookup: the lookup finds the MBI from name, date of birth and SSN; if you already have the MBI, send the check to payer CMS instead")
	}
}

// checkPatient checks the fields subscribers and dependents share.
func checkPatient(c *checker, base string, p *Patient, streetRequired bool) {
	c.length(base, "firstName", p.FirstName, 1, 35)
	c.length(base, "lastName", p.LastName, 1, 60)
	c.length(base, "middleName", p.MiddleName, 1, 25)
	c.length(base, "suffix", p.Suffix, 1, 10)
	c.date(base, "dateOfBirth", p.DateOfBirth)
	c.oneOf(base, "gender", p.Gender, "M", "F")
	c.digits(base, "ssn", p.SSN, 9, "ssn")
	c.length(base, "groupNumber", p.GroupNumber, 1, 50)
	c.length(base, "idCard", p.IDCard, 1, 50)
	c.length(base, "medicaidRecipientIdentificationNumber", p.MedicaidRecipientIdentificationNumber, 1, 50)
	c.length(base, "caseNumber", p.CaseNumber, 1, 50)
	if p.BirthSequenceNumber != "" && (!allDigits(p.BirthSequenceNumber) || len(p.BirthSequenceNumber) > 9) {
		c.add(base+"/birthSequenceNumber", "must be 1–9 digits (1 for the first-born of a multiple birth); got %q", p.BirthSequenceNumber)
	}
	// The paths are made only for what was sent: each costs an allocation.
	if p.Address != nil {
		checkAddress(c, base+"/address", p.Address, streetRequired)
	}
	if len(p.HealthCareCodeInformation) > 0 {
		checkDiagnoses(c, base+"/healthCareCodeInformation", p.HealthCareCodeInformation)
	}
	if p.ProviderCode != "" {
		checkProviderCode(c, base+"/providerCode", p.ProviderCode)
	}
	c.oneOf(base, "referenceIdentificationQualifier", p.ReferenceIdentificationQualifier, "9K", "D3", "EI", "HPI", "PXC", "SY", "TJ")
	if p.ReferenceIdentificationQualifier != "" && p.ProviderIdentifier == "" {
		c.add(base+"/providerIdentifier", "is required when referenceIdentificationQualifier is given")
	}
	c.date(base, "idCardIssueDate", p.IDCardIssueDate)
	c.date(base, "planIssueDate", p.PlanIssueDate)
	c.dateRange(base, "beginningCardIssueDate", p.BeginningCardIssueDate, "endCardIssueDate", p.EndCardIssueDate)
	c.dateRange(base, "beginningPlanIssueDate", p.BeginningPlanIssueDate, "endPlanIssueDate", p.EndPlanIssueDate)
}

func checkDiagnoses(c *checker, base string, dx []DiagnosisCode) {
	if len(dx) > 8 {
		c.add(base, "may hold at most 8 diagnosis codes; got %d", len(dx))
	}
	for i, d := range dx {
		path := fmt.Sprintf("%s/%d", base, i)
		principal, other := "ABK", "ABF" // ICD-10; BK/BF are the ICD-9 equivalents
		if d.DiagnosisTypeCode == "BK" || d.DiagnosisTypeCode == "BF" {
			principal, other = "BK", "BF"
		}
		want := other
		if i == 0 {
			want = principal
		}
		if d.DiagnosisTypeCode != want {
			c.add(path+"/diagnosisTypeCode", "must be %s for the %s diagnosis (ABK/BK = principal, ABF/BF = other); got %q",
				want, map[bool]string{true: "first", false: "second and later"}[i == 0], d.DiagnosisTypeCode)
		}
		switch {
		case d.DiagnosisCode == "":
			c.add(path+"/diagnosisCode", "is required")
		case strings.Contains(d.DiagnosisCode, "."):
			c.add(path+"/diagnosisCode", "must be sent without the dot (for example E119, not E11.9); got %q", d.DiagnosisCode)
		case !alphanumeric(d.DiagnosisCode):
			c.add(path+"/diagnosisCode", "may contain only letters and digits; got %q", d.DiagnosisCode)
		}
	}
}

func checkDependents(c *checker, deps []Dependent, payer payerRules) {
	if len(deps) == 0 {
		return
	}
	if len(deps) > 1 {
		c.add("/dependents", "may hold at most one dependent (the patient); send one check per dependent; got %d", len(deps))
	}
	if payer.mbi || payer.mbiLookup() {
		c.add("/dependents", "must be empty for Medicare: every beneficiary has their own MBI, so send the patient in subscriber")
	}
	for i := range deps {
		d := &deps[i]
		base := fmt.Sprintf("/dependents/%d", i)
		if d.FirstName == "" && d.LastName == "" && d.DateOfBirth == "" {
			c.add(base, "needs the dependent's firstName, lastName and (strongly recommended) dateOfBirth")
		}
		checkPatient(c, base, &d.Patient, true)
		c.oneOf(base, "individualRelationshipCode", d.IndividualRelationshipCode, "01", "19", "34")
		if d.BirthSequenceNumber != "" && d.IndividualRelationshipCode == "" {
			c.add(base+"/individualRelationshipCode", "is required with birthSequenceNumber: 01 spouse, 19 child, 34 other adult")
		}
		c.length(base, "eligibilityCategory", d.EligibilityCategory, 1, 50)
		c.length(base, "issueNumber", d.IssueNumber, 1, 50)
	}
}

var productQualifiers = []string{"AD", "CJ", "HC", "ID", "IV", "N4", "ZZ"}

func checkEncounter(c *checker, e *Encounter) {
	const base = "/encounter"
	if e == nil {
		return
	}
	if len(e.ServiceTypeCodes) > 99 {
		c.add(base+"/serviceTypeCodes", "may hold at most 99 codes (most payers answer only one); got %d", len(e.ServiceTypeCodes))
	}
	for i, code := range e.ServiceTypeCodes {
		if !requestableServiceType(code) {
			c.add(fmt.Sprintf("%s/serviceTypeCodes/%d", base, i),
				"%q is not an X12 005010 service type code; use for example 30 (Health Benefit Plan Coverage) or 35 (Dental Care)", code)
		}
	}
	checkProcedure(c, base, e.ProcedureCode, e.ProductOrServiceIDQualifier, e.ProcedureModifiers, e.DiagnosisCodePointer, false)
	for i, p := range e.MedicalProcedures {
		checkProcedure(c, fmt.Sprintf("%s/medicalProcedures/%d", base, i), p.ProcedureCode, p.ProductOrServiceIDQualifier,
			p.ProcedureModifiers, p.DiagnosisCodePointer, true)
	}
	c.date(base, "dateOfService", e.DateOfService)
	c.dateRange(base, "beginningDateOfService", e.BeginningDateOfService, "endDateOfService", e.EndDateOfService)
	if e.DateOfService != "" && (e.BeginningDateOfService != "" || e.EndDateOfService != "") {
		c.add(base+"/dateOfService", "send either dateOfService or beginningDateOfService and endDateOfService, not both")
	}
	if e.IndustryCode != "" && (len(e.IndustryCode) != 2 || !allDigits(e.IndustryCode)) {
		c.add(base+"/industryCode", "must be a two-digit place of service code (for example 11 for Office); got %q", e.IndustryCode)
	}
	c.length(base, "priorAuthorizationOrReferralNumber", e.PriorAuthorizationOrReferralNumber, 1, 50)
	c.oneOf(base, "referenceIdentificationQualifier", e.ReferenceIdentificationQualifier, "9F", "G1")
	switch {
	case e.PriorAuthorizationOrReferralNumber != "" && e.ReferenceIdentificationQualifier == "":
		c.add(base+"/referenceIdentificationQualifier", "is required with priorAuthorizationOrReferralNumber: G1 for a prior authorization, 9F for a referral")
	case e.PriorAuthorizationOrReferralNumber == "" && e.ReferenceIdentificationQualifier != "":
		c.add(base+"/priorAuthorizationOrReferralNumber", "is required when referenceIdentificationQualifier is given")
	}
}

func checkProcedure(c *checker, base, code, qualifier string, modifiers, pointers []string, required bool) {
	switch {
	case code == "" && qualifier == "":
		if required {
			c.add(base+"/procedureCode", "is required, with productOrServiceIDQualifier")
		}
	case code == "":
		c.add(base+"/procedureCode", "is required when productOrServiceIDQualifier is given")
	case qualifier == "":
		c.add(base+"/productOrServiceIDQualifier", "is required with procedureCode: AD for CDT (dental), CJ for CPT, HC for HCPCS, N4 for NDC")
	}
	c.length(base, "procedureCode", code, 1, 48)
	c.oneOf(base, "productOrServiceIDQualifier", qualifier, productQualifiers...)
	if len(modifiers) > 4 {
		c.add(base+"/procedureModifiers", "may hold at most 4 modifiers; got %d", len(modifiers))
	}
	for i, m := range modifiers {
		if len(m) != 2 || !alphanumeric(m) {
			c.add(fmt.Sprintf("%s/procedureModifiers/%d", base, i), "must be a two-character modifier (for example 25); got %q", m)
		}
	}
	if len(pointers) > 4 {
		c.add(base+"/diagnosisCodePointer", "may hold at most 4 pointers; got %d", len(pointers))
	}
	for i, p := range pointers {
		if len(p) != 1 || p[0] < '1' || p[0] > '8' {
			c.add(fmt.Sprintf("%s/diagnosisCodePointer/%d", base, i), "must be \"1\" to \"8\", the position of a diagnosis in healthCareCodeInformation; got %q", p)
		}
	}
}

func alphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return s != ""
}

package claims

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/x12/guide"
)

// MaxServiceLines is the 837D's limit of service lines per claim (loop 2400).
const MaxServiceLines = 50

// FieldError is one problem with one request field. Path is a JSON pointer
// ("/claimInformation/serviceLines/0/dentalService/procedureCode");
// Message says what is wrong and how to fix it, echoing only what the
// caller sent.
type FieldError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// ValidationError lists every problem of a request, in field order. The API
// renders it as 400 VALIDATION_ERROR with fieldList = Fields.
type ValidationError struct {
	Fields []FieldError
}

func (e *ValidationError) Error() string {
	var b strings.Builder
	b.WriteString("invalid dental claim")
	for i, f := range e.Fields {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(f.Path + ": " + f.Message)
	}
	return b.String()
}

type checker struct{ errs []FieldError }

func (c *checker) add(path, format string, args ...any) {
	c.errs = append(c.errs, FieldError{Path: path, Message: fmt.Sprintf(format, args...)})
}

func (c *checker) required(path, v, what string) bool {
	if strings.TrimSpace(v) == "" {
		c.add(path, "is required: %s", what)
		return false
	}
	return true
}

func (c *checker) length(path, v string, min, max int) {
	if v == "" {
		return
	}
	if n := len(v); n < min || n > max {
		if min == max {
			c.add(path, "must be exactly %d characters; got %d", min, n)
		} else {
			c.add(path, "must be %d to %d characters; got %d", min, max, n)
		}
	}
}

func (c *checker) oneOf(path, v string, list []string, meaning string) {
	if v != "" && !in(list, v) {
		c.add(path, "%q is not allowed; use one of %s (%s)", v, strings.Join(list, ", "), meaning)
	}
}

func (c *checker) date(path, v string) {
	if v != "" && !validDate(v) {
		c.add(path, "must be a real date written YYYYMMDD (for example 20240131); got %q", v)
	}
}

// amount checks a decimal amount with at most two decimals; it returns
// the amount in cents.
func (c *checker) amount(path, v string) (int64, bool) {
	if v == "" {
		return 0, false
	}
	cents, ok := parseCents(v)
	if !ok {
		c.add(path, "must be an amount in dollars with at most two decimals, such as 125 or 125.50 (no currency sign or commas); got %q", v)
	}
	return cents, ok
}

func (c *checker) npi(path, v string) {
	switch {
	case v == "":
	case len(v) != 10 || !allDigits(v):
		c.add(path, "must be a 10-digit NPI; got %q", v)
	case !guide.ValidNPI(v):
		c.add(path, "%q is not a valid NPI: its last digit does not match the NPI check digit (Luhn with prefix 80840); check for a typo", v)
	}
}

func (c *checker) digits(path, v string, n int, what string) {
	if v != "" && (len(v) != n || !allDigits(v)) {
		c.add(path, "%s must be exactly %d digits without dashes or spaces; got %q", what, n, v)
	}
}

// Validate applies the rules to a request, after bringing its text into the
// X12 character set (which it may rewrite, see x12text.go). It returns a
// *ValidationError listing every problem, or nil.
func Validate(r *Request) error {
	c := &checker{}
	normalizeText(c, r)
	c.required("/tradingPartnerServiceId", r.TradingPartnerServiceID, "the payer id (for example 52133 for UnitedHealthcare Dental)")
	c.length("/tradingPartnerServiceId", r.TradingPartnerServiceID, 1, 80)
	c.length("/tradingPartnerName", r.TradingPartnerName, 1, 60)
	c.oneOf("/usageIndicator", r.UsageIndicator, usageIndicatorCodes, "P production, T test")
	c.oneOf("/claimIdentifier", r.ClaimIdentifier, claimIdentifierCodes, "CH chargeable, RP reporting, 31 subrogation demand")
	if len(r.TradingPartnerSecondaryIdentifiers) > 3 {
		c.add("/tradingPartnerSecondaryIdentifiers", "may hold at most 3 identifiers; got %d", len(r.TradingPartnerSecondaryIdentifiers))
	}
	for i, s := range r.TradingPartnerSecondaryIdentifiers {
		checkSecondary(c, fmt.Sprintf("/tradingPartnerSecondaryIdentifiers/%d", i), s, payerSecondaryIDCodes)
	}
	checkSubmitter(c, r.Submitter)
	if r.Receiver == nil {
		c.add("/receiver", "is required: the payer receiving the claim, with organizationName")
	} else {
		c.required("/receiver/organizationName", r.Receiver.OrganizationName, "the receiving payer's name")
		c.length("/receiver/organizationName", r.Receiver.OrganizationName, 1, 60)
	}
	checkSubscriber(c, r.Subscriber, r.Dependent == nil)
	checkDependent(c, r.Dependent)
	checkBilling(c, r.Billing)
	checkAddress(c, "/payToAddress", r.PayToAddress, true)
	checkPayToPlan(c, r.PayToPlan)
	checkAddress(c, "/payerAddress", r.PayerAddress, true)
	checkProvider(c, "/rendering", r.Rendering)
	checkProvider(c, "/referring", r.Referring)
	checkProvider(c, "/supervising", r.Supervising)
	checkProvider(c, "/assistantSurgeon", r.AssistantSurgeon)
	checkClaim(c, r.ClaimInformation)
	if len(c.errs) > 0 {
		return &ValidationError{Fields: c.errs}
	}
	return nil
}

func checkSecondary(c *checker, path string, s SecondaryIdentifier, codes []string) {
	c.required(path+"/qualifier", s.Qualifier, "the kind of identifier ("+strings.Join(codes, ", ")+")")
	c.oneOf(path+"/qualifier", s.Qualifier, codes, "X12 reference identification qualifier")
	c.required(path+"/identifier", s.Identifier, "the identifier itself")
	c.length(path+"/identifier", s.Identifier, 1, 50)
}

func checkContact(c *checker, path string, ci *ContactInformation, required bool) {
	if ci == nil {
		if required {
			c.add(path, "is required: a contact name and a phoneNumber (or email or faxNumber)")
		}
		return
	}
	if ci.PhoneNumber == "" && ci.Email == "" && ci.FaxNumber == "" {
		c.add(path+"/phoneNumber", "a phoneNumber, email or faxNumber is required")
	}
	c.length(path+"/name", ci.Name, 1, 60)
	c.digits(path+"/phoneNumber", ci.PhoneNumber, 10, "phoneNumber")
	c.digits(path+"/faxNumber", ci.FaxNumber, 10, "faxNumber")
	if ci.PhoneExtension != "" && (len(ci.PhoneExtension) > 6 || !allDigits(ci.PhoneExtension)) {
		c.add(path+"/phoneExtension", "must be 1 to 6 digits; got %q", ci.PhoneExtension)
	}
	if ci.PhoneExtension != "" && ci.PhoneNumber == "" {
		c.add(path+"/phoneNumber", "is required with phoneExtension")
	}
	if ci.Email != "" && (!strings.Contains(ci.Email, "@") || len(ci.Email) > 256) {
		c.add(path+"/email", "must be an email address; got %q", ci.Email)
	}
}

func checkSubmitter(c *checker, s *Submitter) {
	const base = "/submitter"
	if s == nil {
		c.add(base, "is required: who sends the claim, with organizationName (or lastName) and contactInformation")
		return
	}
	if s.OrganizationName == "" && s.LastName == "" {
		c.add(base+"/organizationName", "a submitter name is required: organizationName, or lastName (and firstName) for a person")
	}
	c.length(base+"/organizationName", s.OrganizationName, 1, 60)
	c.length(base+"/lastName", s.LastName, 1, 60)
	c.length(base+"/firstName", s.FirstName, 1, 35)
	c.length(base+"/middleName", s.MiddleName, 1, 25)
	c.length(base+"/submitterIdentification", s.SubmitterIdentification, 2, 80)
	checkContact(c, base+"/contactInformation", s.ContactInformation, true)
}

func checkAddress(c *checker, path string, a *Address, streetRequired bool) {
	if a == nil {
		return
	}
	if streetRequired {
		c.required(path+"/address1", a.Address1, "the street address")
		c.required(path+"/city", a.City, "the city")
	}
	c.length(path+"/address1", a.Address1, 1, 55)
	c.length(path+"/address2", a.Address2, 1, 55)
	c.length(path+"/city", a.City, 2, 30)
	us := a.CountryCode == "" || a.CountryCode == "US"
	if us {
		if a.State == "" && streetRequired {
			c.add(path+"/state", "is required for a US address: the two-letter state code (for example TX)")
		}
		if a.PostalCode == "" && streetRequired {
			c.add(path+"/postalCode", "is required for a US address: the 5- or 9-digit ZIP code")
		}
	}
	if a.State != "" && (len(a.State) != 2 || strings.ToUpper(a.State) != a.State) {
		c.add(path+"/state", "must be a two-letter uppercase state code (for example TX); got %q", a.State)
	}
	if a.PostalCode != "" && us && (!allDigits(a.PostalCode) || (len(a.PostalCode) != 5 && len(a.PostalCode) != 9)) {
		c.add(path+"/postalCode", "must be a 5- or 9-digit ZIP code without a dash; got %q", a.PostalCode)
	}
	if a.PostalCode != "" && !us {
		c.length(path+"/postalCode", a.PostalCode, 3, 15)
	}
	c.length(path+"/countryCode", a.CountryCode, 2, 3)
	c.length(path+"/countrySubDivisionCode", a.CountrySubDivisionCode, 1, 3)
	if a.CountrySubDivisionCode != "" && us {
		c.add(path+"/countrySubDivisionCode", "is only for addresses outside the US; send countryCode too")
	}
}

func checkSubscriber(c *checker, s *Subscriber, isPatient bool) {
	const base = "/subscriber"
	if s == nil {
		c.add(base, "is required: the insured person, with memberId, firstName, lastName and (when the subscriber is the patient) dateOfBirth, gender and address")
		return
	}
	c.required(base+"/memberId", s.MemberID, "the member id from the insurance card")
	c.length(base+"/memberId", s.MemberID, 2, 80)
	if s.LastName == "" && s.OrganizationName == "" {
		c.add(base+"/lastName", "is required: the subscriber's last name as on the insurance card")
	}
	c.length(base+"/lastName", s.LastName, 1, 60)
	c.length(base+"/organizationName", s.OrganizationName, 1, 60)
	c.length(base+"/firstName", s.FirstName, 1, 35)
	c.length(base+"/middleName", s.MiddleName, 1, 25)
	c.length(base+"/suffix", s.Suffix, 1, 10)
	c.oneOf(base+"/paymentResponsibilityLevelCode", s.PaymentResponsibilityLevelCode, responsibilityCodes, "P primary, S secondary, T tertiary, A–H payer 4–11, U unknown")
	c.oneOf(base+"/insuranceTypeCode", s.InsuranceTypeCode, insuranceTypeCodes, "Medicare secondary type, only when Medicare is not primary")
	c.oneOf(base+"/gender", s.Gender, genderCodes, "M male, F female, U unknown")
	c.date(base+"/dateOfBirth", s.DateOfBirth)
	c.digits(base+"/ssn", s.SSN, 9, "ssn")
	c.length(base+"/groupNumber", s.GroupNumber, 1, 50)
	c.length(base+"/policyNumber", s.PolicyNumber, 1, 50)
	c.length(base+"/subscriberGroupName", s.SubscriberGroupName, 1, 60)
	if s.GroupNumber != "" && s.PolicyNumber != "" {
		c.add(base+"/policyNumber", "send groupNumber or policyNumber, not both (the 837D has one place for it)")
	}
	if isPatient {
		c.required(base+"/dateOfBirth", s.DateOfBirth, "the subscriber is the patient (no dependent), so the 837D needs their date of birth")
		c.required(base+"/gender", s.Gender, "the subscriber is the patient (no dependent), so the 837D needs their gender (M, F or U)")
		if s.Address == nil {
			c.add(base+"/address", "is required when the subscriber is the patient (no dependent): address1, city, state and postalCode")
		}
	}
	checkAddress(c, base+"/address", s.Address, true)
}

func checkDependent(c *checker, d *Dependent) {
	const base = "/dependent"
	if d == nil {
		return
	}
	c.required(base+"/firstName", d.FirstName, "the patient's first name")
	c.required(base+"/lastName", d.LastName, "the patient's last name")
	c.required(base+"/dateOfBirth", d.DateOfBirth, "the patient's date of birth (YYYYMMDD)")
	c.required(base+"/gender", d.Gender, "the patient's gender (M, F or U)")
	c.required(base+"/relationshipToSubscriberCode", d.RelationshipToSubscriberCode, "19 child, 01 spouse, 20 employee, 21 unknown, 39 organ donor, 40 cadaver donor, 53 life partner, G8 other")
	c.length(base+"/firstName", d.FirstName, 1, 35)
	c.length(base+"/lastName", d.LastName, 1, 60)
	c.length(base+"/middleName", d.MiddleName, 1, 25)
	c.length(base+"/suffix", d.Suffix, 1, 10)
	c.date(base+"/dateOfBirth", d.DateOfBirth)
	c.oneOf(base+"/gender", d.Gender, genderCodes, "M male, F female, U unknown")
	c.oneOf(base+"/relationshipToSubscriberCode", d.RelationshipToSubscriberCode, relationshipCodes, "19 child, 01 spouse, 20 employee, 21 unknown, 39 organ donor, 40 cadaver donor, 53 life partner, G8 other")
	c.digits(base+"/ssn", d.SSN, 9, "ssn")
	c.length(base+"/memberId", d.MemberID, 2, 80)
	if d.Address == nil {
		c.add(base+"/address", "is required: the patient's address1, city, state and postalCode")
	}
	checkAddress(c, base+"/address", d.Address, true)
}

func checkBilling(c *checker, b *Provider) {
	const base = "/billing"
	if b == nil {
		c.add(base, "is required: the billing provider, with npi, employerId (or ssn), a name and a street address")
		return
	}
	if b.NPI == "" && b.CommercialNumber == "" && b.LocationNumber == "" {
		c.add(base+"/npi", "is required: the billing provider's NPI (a provider without one sends commercialNumber or locationNumber)")
	}
	switch {
	case b.EmployerID == "" && b.SSN == "":
		c.add(base+"/employerId", "a tax id is required: employerId (the 9-digit EIN) or, for a person billing under their own name, ssn")
	case b.EmployerID != "" && b.SSN != "":
		c.add(base+"/ssn", "send employerId or ssn, not both")
	}
	c.digits(base+"/employerId", b.EmployerID, 9, "employerId (EIN)")
	if b.Address == nil {
		c.add(base+"/address", "is required: the billing provider's street address (not a PO box) with a 9-digit ZIP code")
	} else if pc := b.Address.PostalCode; pc != "" && len(pc) == 5 && (b.Address.CountryCode == "" || b.Address.CountryCode == "US") {
		c.add(base+"/address/postalCode", "the billing provider needs the 9-digit ZIP+4 (for example 802383000); got %q", pc)
	}
	checkProviderFields(c, base, b, true)
	checkContact(c, base+"/contactInformation", b.ContactInformation, false)
}

func checkPayToPlan(c *checker, p *PayToPlan) {
	const base = "/payToPlan"
	if p == nil {
		return
	}
	c.required(base+"/organizationName", p.OrganizationName, "the pay-to plan's name")
	c.required(base+"/primaryIdentifierTypeCode", p.PrimaryIdentifierTypeCode, "PI (payer id) or XV (CMS plan id)")
	c.oneOf(base+"/primaryIdentifierTypeCode", p.PrimaryIdentifierTypeCode, payerIDTypeCodes, "PI payer id, XV CMS plan id")
	c.required(base+"/primaryIdentifier", p.PrimaryIdentifier, "the plan's identifier")
	c.required(base+"/taxIdentificationNumber", p.TaxIdentificationNumber, "the plan's 9-digit EIN")
	c.digits(base+"/taxIdentificationNumber", p.TaxIdentificationNumber, 9, "taxIdentificationNumber")
	c.oneOf(base+"/secondaryIdentifierTypeCode", p.SecondaryIdentifierTypeCode, paySecondaryIDCodes, "2U payer id, FY claim office, NF NAIC")
	if (p.SecondaryIdentifier == "") != (p.SecondaryIdentifierTypeCode == "") {
		c.add(base+"/secondaryIdentifier", "send secondaryIdentifier and secondaryIdentifierTypeCode together")
	}
	if p.Address == nil {
		c.add(base+"/address", "is required: the plan's address")
	}
	checkAddress(c, base+"/address", p.Address, true)
}

func checkProvider(c *checker, base string, p *Provider) {
	if p == nil {
		return
	}
	checkProviderFields(c, base, p, false)
}

// checkProviderFields checks what every provider object shares.
func checkProviderFields(c *checker, base string, p *Provider, organization bool) {
	if p.OrganizationName == "" && p.LastName == "" {
		if organization {
			c.add(base+"/organizationName", "a name is required: organizationName, or lastName (and firstName) for a person")
		} else {
			c.add(base+"/lastName", "is required: the provider's last name (or organizationName)")
		}
	}
	c.length(base+"/organizationName", p.OrganizationName, 1, 60)
	c.length(base+"/lastName", p.LastName, 1, 60)
	c.length(base+"/firstName", p.FirstName, 1, 35)
	c.length(base+"/middleName", p.MiddleName, 1, 25)
	c.length(base+"/suffix", p.Suffix, 1, 10)
	c.npi(base+"/npi", p.NPI)
	c.digits(base+"/ssn", p.SSN, 9, "ssn")
	if p.TaxonomyCode != "" && (len(p.TaxonomyCode) != 10 || !alphanumeric(p.TaxonomyCode)) {
		c.add(base+"/taxonomyCode", "must be a 10-character provider taxonomy code (for example 1223G0001X); got %q", p.TaxonomyCode)
	}
	for _, f := range []struct{ name, v string }{
		{"stateLicenseNumber", p.StateLicenseNumber}, {"commercialNumber", p.CommercialNumber},
		{"locationNumber", p.LocationNumber}, {"claimOfficeNumber", p.ClaimOfficeNumber}, {"naic", p.NAIC},
		{"payerIdentificationNumber", p.PayerIdentificationNumber},
	} {
		c.length(base+"/"+f.name, f.v, 1, 50)
	}
	checkAddress(c, base+"/address", p.Address, true)
}

func checkClaim(c *checker, ci *ClaimInformation) {
	const base = "/claimInformation"
	if ci == nil {
		c.add(base, "is required: the claim, with patientControlNumber, claimChargeAmount, placeOfServiceCode, claimFrequencyCode, signatureIndicator, releaseInformationCode, benefitsAssignmentCertificationIndicator and serviceLines")
		return
	}
	c.required(base+"/patientControlNumber", ci.PatientControlNumber, "your own id for this claim (1–20 characters; 17 or fewer keeps it whole in every payer's answers)")
	c.length(base+"/patientControlNumber", ci.PatientControlNumber, 1, 20)
	c.required(base+"/claimChargeAmount", ci.ClaimChargeAmount, "the total charge, equal to the sum of the service lines' lineItemChargeAmount")
	total, totalOK := c.amount(base+"/claimChargeAmount", ci.ClaimChargeAmount)
	if c.required(base+"/placeOfServiceCode", ci.PlaceOfServiceCode, "the two-digit CMS place of service (11 office, 12 home, 22 outpatient hospital…)") &&
		!in(placeOfServiceCodes, ci.PlaceOfServiceCode) {
		c.add(base+"/placeOfServiceCode", "%q is not a CMS place of service code; use two digits such as 11 (office)", ci.PlaceOfServiceCode)
	}
	c.required(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, "1 for a new claim, 7 to replace a processed claim, 8 to void one")
	c.oneOf(base+"/claimFrequencyCode", ci.ClaimFrequencyCode, frequencyCodes, "1 original, 7 replacement, 8 void")
	c.required(base+"/signatureIndicator", ci.SignatureIndicator, "Y when the provider's signature is on file, else N")
	c.oneOf(base+"/signatureIndicator", ci.SignatureIndicator, signatureCodes, "Y yes, N no")
	c.required(base+"/releaseInformationCode", ci.ReleaseInformationCode, "Y signed release on file, I informed consent")
	c.oneOf(base+"/releaseInformationCode", ci.ReleaseInformationCode, releaseCodes, "Y signed statement, I informed consent")
	c.required(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, "Y when the patient assigned benefits to the provider, N when not, W not applicable")
	c.oneOf(base+"/benefitsAssignmentCertificationIndicator", ci.BenefitsAssignmentCertificationIndicator, assignmentCodes, "Y yes, N no, W not applicable")
	c.oneOf(base+"/planParticipationCode", ci.PlanParticipationCode, planParticipationCodes, "A assigned, B assignment for lab services only, C not assigned")
	c.oneOf(base+"/claimFilingCode", ci.ClaimFilingCode, claimFilingCodes, "X12 claim filing indicator; CI commercial, FI federal employees, MC Medicaid, HM HMO…")
	c.oneOf(base+"/delayReasonCode", ci.DelayReasonCode, delayReasonCodes, "X12 delay reason code")
	c.oneOf(base+"/specialProgramCode", ci.SpecialProgramCode, specialProgramCodes, "02 physically handicapped children, 03 special federal funding, 05 disability, 09 second opinion")
	if len(ci.RelatedCausesCode) > 2 {
		c.add(base+"/relatedCausesCode", "may hold at most 2 codes; got %d", len(ci.RelatedCausesCode))
	}
	auto := false
	for i, rc := range ci.RelatedCausesCode {
		c.oneOf(fmt.Sprintf("%s/relatedCausesCode/%d", base, i), rc, relatedCausesCodes, "AA auto accident, EM employment, OA other accident")
		auto = auto || rc == "AA"
	}
	if auto && ci.AutoAccidentStateCode == "" && ci.AutoAccidentCountryCode == "" {
		c.add(base+"/autoAccidentStateCode", "is required with relatedCausesCode AA: the two-letter state or province of the accident")
	}
	c.length(base+"/autoAccidentStateCode", ci.AutoAccidentStateCode, 2, 2)
	c.length(base+"/autoAccidentCountryCode", ci.AutoAccidentCountryCode, 2, 3)
	if cents, ok := c.amount(base+"/patientAmountPaid", ci.PatientAmountPaid); ok && cents == 0 {
		c.add(base+"/patientAmountPaid", "must not be 0; leave it out when the patient paid nothing")
	}
	c.length(base+"/propertyCasualtyClaimNumber", ci.PropertyCasualtyClaimNumber, 1, 50)
	if len(ci.ClaimNotes) > 5 {
		c.add(base+"/claimNotes", "may hold at most 5 notes; got %d", len(ci.ClaimNotes))
	} else if n := len(strings.Join(ci.ClaimNotes, "; ")); n > 80 {
		c.add(base+"/claimNotes", "the 837D carries one claim note of at most 80 characters (notes are joined with \"; \"); these are %d", n)
	}
	if len(ci.FileInformationList) > 10 {
		c.add(base+"/fileInformationList", "may hold at most 10 items; got %d", len(ci.FileInformationList))
	}
	for i, f := range ci.FileInformationList {
		c.length(fmt.Sprintf("%s/fileInformationList/%d", base, i), f, 1, 80)
	}

	dx := checkDiagnoses(c, base+"/healthCareCodeInformation", ci.HealthCareCodeInformation)
	claimServiceDate := checkClaimDates(c, base+"/claimDateInformation", ci.ClaimDateInformation)
	checkToothStatus(c, base+"/toothStatus", ci.ToothStatus)
	checkOrthodontics(c, base+"/orthodonticTotalMonthsOfTreatment", ci.OrthodonticTotalMonthsOfTreatment)
	checkSupplemental(c, base+"/claimSupplementalInformation", ci)
	checkContract(c, base+"/claimContractInformation", ci.ClaimContractInformation)
	checkFacility(c, base+"/serviceFacilityLocation", ci.ServiceFacilityLocation)
	if len(ci.OtherSubscriberInformation) > 10 {
		c.add(base+"/otherSubscriberInformation", "may hold at most 10 other payers; got %d", len(ci.OtherSubscriberInformation))
	}
	for i := range ci.OtherSubscriberInformation {
		checkOtherSubscriber(c, fmt.Sprintf("%s/otherSubscriberInformation/%d", base, i), &ci.OtherSubscriberInformation[i])
	}

	switch n := len(ci.ServiceLines); {
	case n == 0:
		c.add(base+"/serviceLines", "is required: at least one service line, each with dentalService.procedureCode and lineItemChargeAmount")
	case n > MaxServiceLines:
		c.add(base+"/serviceLines", "may hold at most %d service lines (the 837D's limit); got %d; split the claim", MaxServiceLines, n)
	}
	var sum int64
	sumOK := true
	for i := range ci.ServiceLines {
		cents, ok := checkLine(c, fmt.Sprintf("%s/serviceLines/%d", base, i), &ci.ServiceLines[i], dx,
			claimServiceDate || ci.PredeterminationOfBenefits)
		sum += cents
		sumOK = sumOK && ok
	}
	if totalOK && sumOK && len(ci.ServiceLines) > 0 && sum != total {
		c.add(base+"/claimChargeAmount", "must equal the sum of the service lines' lineItemChargeAmount: %s was sent, the lines add up to %s",
			ci.ClaimChargeAmount, formatCents(sum))
	}
}

// checkDiagnoses returns the number of diagnoses the pointers may name.
func checkDiagnoses(c *checker, base string, dx []Diagnosis) int {
	if len(dx) > 4 {
		c.add(base, "may hold at most 4 diagnosis codes (one ABK, then up to 3 ABF); got %d; send another claim for the rest", len(dx))
	}
	for i, d := range dx {
		path := fmt.Sprintf("%s/%d", base, i)
		want := "ABF"
		if i == 0 {
			want = "ABK"
		}
		if d.DiagnosisTypeCode != want {
			c.add(path+"/diagnosisTypeCode", "must be %s here: the first diagnosis is the principal one (ABK), the others ABF; got %q", want, d.DiagnosisTypeCode)
		}
		switch {
		case d.DiagnosisCode == "":
			c.add(path+"/diagnosisCode", "is required: an ICD-10-CM code such as K081")
		case strings.Contains(d.DiagnosisCode, "."):
			c.add(path+"/diagnosisCode", "must be sent without the dot (K081, not K08.1); got %q", d.DiagnosisCode)
		case !alphanumeric(d.DiagnosisCode) || len(d.DiagnosisCode) < 3 || len(d.DiagnosisCode) > 7:
			c.add(path+"/diagnosisCode", "must be an ICD-10-CM code of 3 to 7 letters and digits; got %q", d.DiagnosisCode)
		}
	}
	return len(dx)
}

// checkClaimDates reports whether the claim carries a service date.
func checkClaimDates(c *checker, base string, d *ClaimDateInformation) bool {
	if d == nil {
		return false
	}
	if d.ServiceDate != "" {
		if from, to, ok := dateRange(d.ServiceDate); !ok {
			c.add(base+"/serviceDate", "must be a real date YYYYMMDD or a range YYYYMMDD-YYYYMMDD; got %q", d.ServiceDate)
		} else if to != "" && to < from {
			c.add(base+"/serviceDate", "the range ends before it starts; got %q", d.ServiceDate)
		}
	}
	c.date(base+"/accidentDate", d.AccidentDate)
	c.date(base+"/appliancePlacementDate", d.AppliancePlacementDate)
	c.date(base+"/repricerReceivedDate", d.RepricerReceivedDate)
	return d.ServiceDate != ""
}

func checkToothStatus(c *checker, base string, ts []ToothStatus) {
	if len(ts) > 35 {
		c.add(base, "may hold at most 35 teeth; got %d", len(ts))
	}
	for i, t := range ts {
		path := fmt.Sprintf("%s/%d", base, i)
		if c.required(path+"/toothNumber", t.ToothNumber, "the tooth (Universal numbering: 1–32, A–T)") && !validTooth(t.ToothNumber) {
			c.add(path+"/toothNumber", toothMessage, t.ToothNumber)
		}
		c.required(path+"/toothStatusCode", t.ToothStatusCode, "E to be extracted, M missing")
		c.oneOf(path+"/toothStatusCode", t.ToothStatusCode, toothStatusCodes, "E to be extracted, M missing")
	}
}

const toothMessage = "%q is not a tooth of the Universal numbering system: use 1–32 (permanent), A–T (primary), 51–82 or AS–TS (supernumerary)"

func checkOrthodontics(c *checker, base string, o *Orthodontics) {
	if o == nil {
		return
	}
	if o.MonthsCount == "" && o.MonthsRemaining == "" && o.TreatmentIndicator == "" {
		c.add(base, "needs at least one of monthsCount, monthsRemaining or treatmentIndicator")
	}
	for _, f := range []struct {
		name string
		v    Count
	}{{"monthsCount", o.MonthsCount}, {"monthsRemaining", o.MonthsRemaining}} {
		if f.v != "" && !wholeNumber(string(f.v), 0, 999) {
			c.add(base+"/"+f.name, "must be a whole number of months from 0 to 999; got %q", string(f.v))
		}
	}
	c.oneOf(base+"/treatmentIndicator", o.TreatmentIndicator, []string{"Y"}, "Y when the treatment is for orthodontic purposes")
}

func checkSupplemental(c *checker, base string, ci *ClaimInformation) {
	s := ci.ClaimSupplementalInformation
	if (ci.ClaimFrequencyCode == "7" || ci.ClaimFrequencyCode == "8") && (s == nil || s.ClaimControlNumber == "") {
		c.add(base+"/claimControlNumber", "is required when claimFrequencyCode is %s: the payer's claim control number of the claim being replaced or voided", ci.ClaimFrequencyCode)
	}
	if s == nil {
		return
	}
	for _, f := range []struct{ name, v string }{
		{"priorAuthorizationNumber", s.PriorAuthorizationNumber}, {"referralNumber", s.ReferralNumber},
		{"claimControlNumber", s.ClaimControlNumber}, {"claimNumber", s.ClaimNumber},
		{"predeterminationOfBenefitsIdentifier", s.PredeterminationOfBenefitsIdentifier},
		{"repricedClaimNumber", s.RepricedClaimNumber}, {"adjustedRepricedClaimNumber", s.AdjustedRepricedClaimNumber},
	} {
		c.length(base+"/"+f.name, f.v, 1, 50)
	}
	c.oneOf(base+"/serviceAuthorizationExceptionCode", s.ServiceAuthorizationExceptionCode, exceptionCodes, "X12 service authorization exception code 1–7")
	reports := s.ReportInformations
	if s.ReportInformation != nil {
		checkReport(c, base+"/reportInformation", *s.ReportInformation)
		reports = append([]ReportInformation{*s.ReportInformation}, reports...)
	}
	if len(reports) > 10 {
		c.add(base+"/reportInformations", "may hold at most 10 attachments; got %d", len(reports))
	}
	for i, r := range s.ReportInformations {
		checkReport(c, fmt.Sprintf("%s/reportInformations/%d", base, i), r)
	}
}

func checkReport(c *checker, path string, r ReportInformation) {
	c.required(path+"/attachmentReportTypeCode", r.AttachmentReportTypeCode, "the kind of attachment (B4 referral form, DA dental models, DG diagnostic report, EB explanation of benefits, OZ support data, P6 periodontal charts, RB radiology films, RR radiology reports)")
	c.oneOf(path+"/attachmentReportTypeCode", r.AttachmentReportTypeCode, attachmentTypeCodes, "X12 report type code")
	c.required(path+"/attachmentTransmissionCode", r.AttachmentTransmissionCode, "how it is sent (EL electronically, BM by mail, FX by fax, EM by email, FT file transfer, AA available on request)")
	c.oneOf(path+"/attachmentTransmissionCode", r.AttachmentTransmissionCode, attachmentTransmission, "X12 report transmission code")
	if r.AttachmentTransmissionCode != "" && r.AttachmentTransmissionCode != "AA" && r.AttachmentControlNumber == "" {
		c.add(path+"/attachmentControlNumber", "is required unless attachmentTransmissionCode is AA: the id that links the attachment to this claim")
	}
	c.length(path+"/attachmentControlNumber", r.AttachmentControlNumber, 2, 80)
}

func checkContract(c *checker, base string, ci *ContractInformation) {
	if ci == nil {
		return
	}
	c.required(base+"/contractTypeCode", ci.ContractTypeCode, "the X12 contract type (01 diagnosis related group … 09 other)")
	c.oneOf(base+"/contractTypeCode", ci.ContractTypeCode, contractTypeCodes, "X12 contract type code")
	c.amount(base+"/contractAmount", ci.ContractAmount)
	c.length(base+"/contractCode", ci.ContractCode, 1, 50)
	c.length(base+"/contractVersionIdentifier", ci.ContractVersionIdentifier, 1, 30)
}

func checkFacility(c *checker, base string, f *ServiceFacility) {
	if f == nil {
		return
	}
	c.required(base+"/organizationName", f.OrganizationName, "the facility's name")
	c.length(base+"/organizationName", f.OrganizationName, 1, 60)
	c.npi(base+"/npi", f.NPI)
	if f.Address == nil {
		c.add(base+"/address", "is required: the facility's street address")
	}
	checkAddress(c, base+"/address", f.Address, true)
	c.digits(base+"/phoneNumber", f.PhoneNumber, 10, "phoneNumber")
	if len(f.SecondaryIdentifier) > 3 {
		c.add(base+"/secondaryIdentifier", "may hold at most 3 identifiers; got %d", len(f.SecondaryIdentifier))
	}
	for i, s := range f.SecondaryIdentifier {
		checkSecondary(c, fmt.Sprintf("%s/secondaryIdentifier/%d", base, i), s, facilitySecondaryIDCode)
	}
}

func checkOtherSubscriber(c *checker, base string, o *OtherSubscriberInformation) {
	c.required(base+"/paymentResponsibilityLevelCode", o.PaymentResponsibilityLevelCode, "this other payer's place: P primary, S secondary, T tertiary")
	c.oneOf(base+"/paymentResponsibilityLevelCode", o.PaymentResponsibilityLevelCode, responsibilityCodes, "P primary, S secondary, T tertiary, A–H payer 4–11, U unknown")
	c.required(base+"/individualRelationshipCode", o.IndividualRelationshipCode, "the patient's relationship to the other insured (18 self, 01 spouse, 19 child…)")
	c.oneOf(base+"/individualRelationshipCode", o.IndividualRelationshipCode, otherRelationshipCodes, "18 self, 01 spouse, 19 child, 20 employee, 21 unknown, 39, 40, 53, G8 other")
	c.required(base+"/benefitsAssignmentCertificationIndicator", o.BenefitsAssignmentCertificationIndicator, "Y, N or W")
	c.oneOf(base+"/benefitsAssignmentCertificationIndicator", o.BenefitsAssignmentCertificationIndicator, assignmentCodes, "Y yes, N no, W not applicable")
	c.required(base+"/releaseOfInformationCode", o.ReleaseOfInformationCode, "Y or I")
	c.oneOf(base+"/releaseOfInformationCode", o.ReleaseOfInformationCode, releaseCodes, "Y signed statement, I informed consent")
	c.oneOf(base+"/insuranceTypeCode", o.InsuranceTypeCode, insuranceTypeCodes, "Medicare secondary type")
	c.oneOf(base+"/claimFilingIndicatorCode", o.ClaimFilingIndicatorCode, claimFilingCodes, "X12 claim filing indicator")
	c.length(base+"/insuranceGroupOrPolicyNumber", o.InsuranceGroupOrPolicyNumber, 1, 50)
	c.length(base+"/otherInsuredGroupName", o.OtherInsuredGroupName, 1, 60)
	c.amount(base+"/payerPaidAmount", o.PayerPaidAmount)
	c.amount(base+"/nonCoveredChargeAmount", o.NonCoveredChargeAmount)
	c.amount(base+"/remainingPatientLiability", o.RemainingPatientLiability)
	checkAdjustments(c, base+"/claimLevelAdjustments", o.ClaimLevelAdjustments)
	if n := o.OtherSubscriberName; n == nil {
		c.add(base+"/otherSubscriberName", "is required: the other insured's otherInsuredQualifier, otherInsuredLastName, otherInsuredIdentifierTypeCode and otherInsuredIdentifier")
	} else {
		p := base + "/otherSubscriberName"
		c.required(p+"/otherInsuredQualifier", n.OtherInsuredQualifier, "1 for a person, 2 for an organization")
		c.oneOf(p+"/otherInsuredQualifier", n.OtherInsuredQualifier, []string{"1", "2"}, "1 person, 2 organization")
		c.required(p+"/otherInsuredLastName", n.OtherInsuredLastName, "the other insured's last name")
		c.length(p+"/otherInsuredLastName", n.OtherInsuredLastName, 1, 60)
		c.length(p+"/otherInsuredFirstName", n.OtherInsuredFirstName, 1, 35)
		c.required(p+"/otherInsuredIdentifierTypeCode", n.OtherInsuredIdentifierTypeCode, "MI member id or II unique health id")
		c.oneOf(p+"/otherInsuredIdentifierTypeCode", n.OtherInsuredIdentifierTypeCode, insuredIDTypeCodes, "MI member id, II unique health id")
		c.required(p+"/otherInsuredIdentifier", n.OtherInsuredIdentifier, "the other insured's member id")
		c.length(p+"/otherInsuredIdentifier", n.OtherInsuredIdentifier, 2, 80)
		if len(n.OtherInsuredAdditionalIdentifiers) > 1 {
			c.add(p+"/otherInsuredAdditionalIdentifiers", "may hold one SSN; got %d", len(n.OtherInsuredAdditionalIdentifiers))
		}
		for i, s := range n.OtherInsuredAdditionalIdentifiers {
			c.digits(fmt.Sprintf("%s/otherInsuredAdditionalIdentifiers/%d", p, i), s, 9, "the SSN")
		}
		checkAddress(c, p+"/otherInsuredAddress", n.OtherInsuredAddress, true)
	}
	if n := o.OtherPayerName; n == nil {
		c.add(base+"/otherPayerName", "is required: the other payer's otherPayerOrganizationName, otherPayerIdentifierTypeCode and otherPayerIdentifier")
	} else {
		p := base + "/otherPayerName"
		c.required(p+"/otherPayerOrganizationName", n.OtherPayerOrganizationName, "the other payer's name")
		c.length(p+"/otherPayerOrganizationName", n.OtherPayerOrganizationName, 1, 60)
		c.required(p+"/otherPayerIdentifierTypeCode", n.OtherPayerIdentifierTypeCode, "PI payer id or XV CMS plan id")
		c.oneOf(p+"/otherPayerIdentifierTypeCode", n.OtherPayerIdentifierTypeCode, payerIDTypeCodes, "PI payer id, XV CMS plan id")
		c.required(p+"/otherPayerIdentifier", n.OtherPayerIdentifier, "the other payer's id")
		c.length(p+"/otherPayerIdentifier", n.OtherPayerIdentifier, 2, 80)
		c.date(p+"/otherPayerAdjudicationOrPaymentDate", n.OtherPayerAdjudicationOrPaymentDate)
		checkAddress(c, p+"/otherPayerAddress", n.OtherPayerAddress, true)
		if len(n.OtherPayerSecondaryIdentifier) > 2 {
			c.add(p+"/otherPayerSecondaryIdentifier", "may hold at most 2 identifiers; got %d", len(n.OtherPayerSecondaryIdentifier))
		}
		for i, s := range n.OtherPayerSecondaryIdentifier {
			checkSecondary(c, fmt.Sprintf("%s/otherPayerSecondaryIdentifier/%d", p, i), s, payerSecondaryIDCodes)
		}
		for _, f := range []struct{ name, v string }{
			{"otherPayerPriorAuthorizationNumber", n.OtherPayerPriorAuthorizationNumber},
			{"otherPayerPriorAuthorizationOrReferralNumber", n.OtherPayerPriorAuthorizationOrReferralNumber},
			{"otherPayerClaimControlNumber", n.OtherPayerClaimControlNumber},
		} {
			c.length(p+"/"+f.name, f.v, 1, 50)
		}
	}
}

func checkAdjustments(c *checker, base string, adj []ClaimAdjustment) {
	if len(adj) > 5 {
		c.add(base, "may hold at most 5 adjustment groups; got %d", len(adj))
	}
	for i, a := range adj {
		p := fmt.Sprintf("%s/%d", base, i)
		c.required(p+"/adjustmentGroupCode", a.AdjustmentGroupCode, "CO, CR, OA, PI or PR")
		c.oneOf(p+"/adjustmentGroupCode", a.AdjustmentGroupCode, adjustmentGroupCodes, "CO contractual, CR correction, OA other, PI payer initiated, PR patient responsibility")
		switch n := len(a.AdjustmentDetails); {
		case n == 0:
			c.add(p+"/adjustmentDetails", "is required: at least one adjustmentReasonCode with its adjustmentAmount")
		case n > 6:
			c.add(p+"/adjustmentDetails", "may hold at most 6 reasons per group; got %d", n)
		}
		for j, d := range a.AdjustmentDetails {
			q := fmt.Sprintf("%s/adjustmentDetails/%d", p, j)
			c.required(q+"/adjustmentReasonCode", d.AdjustmentReasonCode, "the claim adjustment reason code from the prior payer's remittance")
			c.length(q+"/adjustmentReasonCode", d.AdjustmentReasonCode, 1, 5)
			c.required(q+"/adjustmentAmount", d.AdjustmentAmount, "the adjusted amount")
			if d.AdjustmentAmount != "" {
				if _, ok := parseSignedCents(d.AdjustmentAmount); !ok {
					c.add(q+"/adjustmentAmount", "must be an amount with at most two decimals; got %q", d.AdjustmentAmount)
				}
			}
		}
	}
}

// checkLine returns the line's charge in cents and whether it parsed.
func checkLine(c *checker, base string, l *ServiceLine, dx int, claimDated bool) (int64, bool) {
	var cents int64
	ok := false
	if l.DentalService == nil {
		c.add(base+"/dentalService", "is required: procedureCode and lineItemChargeAmount")
	} else {
		cents, ok = checkDentalService(c, base+"/dentalService", l.DentalService, dx)
	}
	if l.ServiceDate == "" && !claimDated {
		c.add(base+"/serviceDate", "is required: the date of service (YYYYMMDD), unless claimInformation.claimDateInformation.serviceDate covers every line or the claim is a predetermination")
	}
	c.date(base+"/serviceDate", l.ServiceDate)
	c.length(base+"/providerControlNumber", l.ProviderControlNumber, 1, 30)
	if len(l.TeethInformation) > 32 {
		c.add(base+"/teethInformation", "may hold at most 32 teeth; got %d", len(l.TeethInformation))
	}
	for i, t := range l.TeethInformation {
		p := fmt.Sprintf("%s/teethInformation/%d", base, i)
		if c.required(p+"/toothCode", t.ToothCode, "the tooth (Universal numbering: 1–32, A–T)") && !validTooth(t.ToothCode) {
			c.add(p+"/toothCode", toothMessage, t.ToothCode)
		}
		if len(t.ToothSurfaceCodes) > 5 {
			c.add(p+"/toothSurfaceCodes", "may hold at most 5 surfaces; got %d", len(t.ToothSurfaceCodes))
		}
		for j, s := range t.ToothSurfaceCodes {
			c.oneOf(fmt.Sprintf("%s/toothSurfaceCodes/%d", p, j), s, surfaceCodes, "B buccal, D distal, F facial, I incisal, L lingual, M mesial, O occlusal")
		}
	}
	if d := l.ServiceLineDateInformation; d != nil {
		p := base + "/serviceLineDateInformation"
		c.date(p+"/priorPlacementDate", d.PriorPlacementDate)
		c.date(p+"/appliancePlacementDate", d.AppliancePlacementDate)
		c.date(p+"/replacementDate", d.ReplacementDate)
		c.date(p+"/treatmentStartDate", d.TreatmentStartDate)
		c.date(p+"/treatmentCompletionDate", d.TreatmentCompletionDate)
		if d.TreatmentStartDate != "" && l.ServiceDate != "" {
			c.add(base+"/serviceDate", "send serviceDate or serviceLineDateInformation.treatmentStartDate, not both")
		}
	}
	if l.DentalService != nil && l.DentalService.ProsthesisCrownOrInlayCode == "R" &&
		(l.ServiceLineDateInformation == nil || l.ServiceLineDateInformation.PriorPlacementDate == "") {
		c.add(base+"/serviceLineDateInformation/priorPlacementDate", "is required when prosthesisCrownOrInlayCode is R (replacement): the date the prior prosthesis was placed")
	}
	if r := l.ServiceLineReferenceInformation; r != nil {
		p := base + "/serviceLineReferenceInformation"
		if len(r.PriorAuthorization) > 5 {
			c.add(p+"/priorAuthorization", "may hold at most 5 numbers; got %d", len(r.PriorAuthorization))
		}
		if len(r.ReferralNumber) > 5 {
			c.add(p+"/referralNumber", "may hold at most 5 numbers; got %d", len(r.ReferralNumber))
		}
		c.length(p+"/predeterminationOfBenefits", r.PredeterminationOfBenefits, 1, 50)
		c.length(p+"/repricedLineItemReferenceNumber", r.RepricedLineItemReferenceNumber, 1, 50)
		c.length(p+"/adjustedRepricedLineItemReferenceNumber", r.AdjustedRepricedLineItemReferenceNumber, 1, 50)
	}
	c.amount(base+"/salesTaxAmount", l.SalesTaxAmount)
	c.amount(base+"/postageTaxAmount", l.PostageTaxAmount)
	checkProvider(c, base+"/renderingProvider", l.RenderingProvider)
	checkProvider(c, base+"/supervisingProvider", l.SupervisingProvider)
	checkProvider(c, base+"/assistantSurgeon", l.AssistantSurgeon)
	checkFacility(c, base+"/serviceFacilityLocation", l.ServiceFacilityLocation)
	if len(l.LineAdjudicationInformation) > 15 {
		c.add(base+"/lineAdjudicationInformation", "may hold at most 15 entries; got %d", len(l.LineAdjudicationInformation))
	}
	for i, a := range l.LineAdjudicationInformation {
		p := fmt.Sprintf("%s/lineAdjudicationInformation/%d", base, i)
		c.required(p+"/otherPayerPrimaryIdentifier", a.OtherPayerPrimaryIdentifier, "the id of the payer that paid this line (as in otherSubscriberInformation.otherPayerName.otherPayerIdentifier)")
		c.required(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount, "what that payer paid for the line (0 is allowed)")
		c.amount(p+"/serviceLinePaidAmount", a.ServiceLinePaidAmount)
		c.required(p+"/procedureCode", a.ProcedureCode, "the procedure code that payer adjudicated")
		c.required(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate, "the date that payer paid or adjudicated the line")
		c.date(p+"/adjudicationOrPaymentDate", a.AdjudicationOrPaymentDate)
		if a.PaidServiceUnitCount != "" && !wholeNumber(string(a.PaidServiceUnitCount), 0, 99999) {
			c.add(p+"/paidServiceUnitCount", "must be a whole number; got %q", string(a.PaidServiceUnitCount))
		}
		checkAdjustments(c, p+"/claimAdjustmentInformation", a.ClaimAdjustmentInformation)
	}
	return cents, ok
}

func checkDentalService(c *checker, base string, d *DentalService, dx int) (int64, bool) {
	if c.required(base+"/procedureCode", d.ProcedureCode, "the CDT procedure code, for example D1110") && !validCDT(d.ProcedureCode) {
		c.add(base+"/procedureCode", "must be a CDT code: D followed by four digits (for example D2150); got %q", d.ProcedureCode)
	}
	if len(d.ProcedureModifiers) > 4 {
		c.add(base+"/procedureModifiers", "may hold at most 4 modifiers; got %d", len(d.ProcedureModifiers))
	}
	for i, m := range d.ProcedureModifiers {
		if len(m) != 2 || !alphanumeric(m) {
			c.add(fmt.Sprintf("%s/procedureModifiers/%d", base, i), "must be a two-character modifier; got %q", m)
		}
	}
	c.length(base+"/description", d.Description, 1, 80)
	c.required(base+"/lineItemChargeAmount", d.LineItemChargeAmount, "the line's charge (0 is allowed)")
	cents, ok := c.amount(base+"/lineItemChargeAmount", d.LineItemChargeAmount)
	if d.PlaceOfServiceCode != "" && !in(placeOfServiceCodes, d.PlaceOfServiceCode) {
		c.add(base+"/placeOfServiceCode", "%q is not a CMS place of service code; use two digits such as 11 (office)", d.PlaceOfServiceCode)
	}
	if len(d.OralCavityDesignation) > 5 {
		c.add(base+"/oralCavityDesignation", "may hold at most 5 areas; got %d", len(d.OralCavityDesignation))
	}
	for i, o := range d.OralCavityDesignation {
		c.oneOf(fmt.Sprintf("%s/oralCavityDesignation/%d", base, i), o, oralCavityCodes,
			"00 entire oral cavity, 01 maxillary arch, 02 mandibular arch, 03–08 sextants, 09 other, 10 upper right, 20 upper left, 30 lower left, 40 lower right quadrant, L left, R right")
	}
	c.oneOf(base+"/prosthesisCrownOrInlayCode", d.ProsthesisCrownOrInlayCode, prosthesisCodes, "I initial placement, R replacement")
	if d.ProcedureCount != "" && !wholeNumber(string(d.ProcedureCount), 1, 99) {
		c.add(base+"/procedureCount", "must be a whole number from 1 to 99; got %q", string(d.ProcedureCount))
	}
	if p := d.CompositeDiagnosisCodePointers; p != nil {
		path := base + "/compositeDiagnosisCodePointers/diagnosisCodePointers"
		if len(p.DiagnosisCodePointers) > 4 {
			c.add(path, "may hold at most 4 pointers; got %d", len(p.DiagnosisCodePointers))
		}
		for i, ptr := range p.DiagnosisCodePointers {
			n, err := strconv.Atoi(ptr)
			if err != nil || n < 1 || n > 4 || strings.TrimSpace(ptr) != ptr {
				c.add(fmt.Sprintf("%s/%d", path, i), "must be \"1\" to \"4\", the position of a diagnosis in claimInformation.healthCareCodeInformation; got %q", ptr)
			} else if n > dx {
				c.add(fmt.Sprintf("%s/%d", path, i), "points at diagnosis %d, but claimInformation.healthCareCodeInformation holds %d; add the diagnosis or fix the pointer", n, dx)
			}
		}
	}
	return cents, ok
}

// validCDT reports whether s has the form of a CDT code (D + 4 digits).
func validCDT(s string) bool { return len(s) == 5 && s[0] == 'D' && allDigits(s[1:]) }

func wholeNumber(s string, min, max int) bool {
	n, err := strconv.Atoi(strings.TrimSuffix(s, ".0"))
	return err == nil && n >= min && n <= max
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func alphanumeric(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < '0' || c > '9') && (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') {
			return false
		}
	}
	return s != ""
}

func validDate(s string) bool {
	if len(s) != 8 || !allDigits(s) {
		return false
	}
	_, err := time.Parse("20060102", s)
	return err == nil
}

// dateRange reads YYYYMMDD or YYYYMMDD-YYYYMMDD.
func dateRange(s string) (from, to string, ok bool) {
	from, to, isRange := strings.Cut(s, "-")
	if !validDate(from) || (isRange && !validDate(to)) {
		return "", "", false
	}
	return from, to, true
}

// parseCents reads a non-negative amount with at most two decimals.
func parseCents(s string) (int64, bool) {
	whole, frac, dot := strings.Cut(s, ".")
	if !allDigits(whole) || len(whole) > 10 || (dot && (len(frac) < 1 || len(frac) > 2 || !allDigits(frac))) {
		return 0, false
	}
	n, _ := strconv.ParseInt(whole, 10, 64)
	f := int64(0)
	if dot {
		f, _ = strconv.ParseInt(frac, 10, 64)
		if len(frac) == 1 {
			f *= 10
		}
	}
	return n*100 + f, true
}

func parseSignedCents(s string) (int64, bool) {
	if strings.HasPrefix(s, "-") {
		n, ok := parseCents(s[1:])
		return -n, ok
	}
	return parseCents(s)
}

// formatCents writes an amount the X12 way: no trailing zeros after the
// point ("832", "125.5").
func formatCents(c int64) string {
	neg := c < 0
	if neg {
		c = -c
	}
	s := strconv.FormatInt(c/100, 10)
	if r := c % 100; r != 0 {
		s += "." + strings.TrimRight(fmt.Sprintf("%02d", r), "0")
	}
	if neg {
		s = "-" + s
	}
	return s
}

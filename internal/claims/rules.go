package claims

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// FieldError is one problem with one request field. Path is a JSON pointer
// ("/claimInformation/serviceLines/0/dentalService/procedureCode");
// Message says what is wrong and how to fix it, echoing only what the
// caller sent.
type FieldError = problem.Field

// ValidationError lists every problem of a request, in field order
// (problem.Invalid, which the API renders as 400 VALIDATION_ERROR).
type ValidationError = problem.Invalid

// invalid is the ValidationError of fields and more problems past them.
func invalid(fields []FieldError, more int) *ValidationError {
	return problem.NewInvalid("invalid claim", fields, more)
}

// checker collects the problems of one request. form names the X12 claim
// the request becomes (837D, 837P, 837I), for messages that explain a rule
// by what the claim can carry.
type checker struct {
	errs findings.List[FieldError]
	form string
}

func (c *checker) add(path, format string, args ...any) {
	if c.errs.Full() { // past the cap only the count is kept: no message is built
		c.errs.More++
		return
	}
	c.errs.Add(FieldError{Path: path, Message: findings.Clip(fmt.Sprintf(format, args...))})
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
	if s.MemberID == "" {
		s.MemberID = s.StandardHealthID // the contract's deprecated name for it
	} else if s.StandardHealthID != "" && s.StandardHealthID != s.MemberID {
		c.add(base+"/standardHealthId", "is the deprecated name of memberId and differs from it: send memberId only")
	}
	checkContact(c, base+"/contactInformation", s.ContactInformation, false)
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
		c.add(base+"/policyNumber", "send groupNumber or policyNumber, not both (the %s has one place for it)", c.form)
	}
	if isPatient {
		c.required(base+"/dateOfBirth", s.DateOfBirth, "the subscriber is the patient (no dependent), so the "+c.form+" needs their date of birth")
		c.required(base+"/gender", s.Gender, "the subscriber is the patient (no dependent), so the "+c.form+" needs their gender (M, F or U)")
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

func checkBilling(c *checker, b *Provider) { checkBillingAt(c, "/billing", b) }

// checkBillingAt checks the billing provider found at base (its own field,
// or an entry of a medical claim's providers[]).
func checkBillingAt(c *checker, base string, b *Provider) {
	if b == nil {
		c.add(base, "is required: the billing provider, with npi, employerId (or ssn), a name and a street address")
		return
	}
	if b.EmployerID == "" {
		b.EmployerID = b.EmployerIdentificationNumber
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
	if p.EmployerID == "" {
		p.EmployerID = p.EmployerIdentificationNumber // the contract's other name for it
	} else if p.EmployerIdentificationNumber != "" && p.EmployerIdentificationNumber != p.EmployerID {
		c.add(base+"/employerIdentificationNumber", "is another name for employerId and differs from it (%q, %q): send one", p.EmployerIdentificationNumber, p.EmployerID)
	}
	if p.OtherIdentifier != "" {
		c.add(base+"/otherIdentifier", "has no place in the 837 (deprecated in the contract): send the id in secondaryIdentifier with its qualifier")
	}
	checkProviderSecondary(c, base, p, providerRefCodes)
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

func checkReport(c *checker, path string, r ReportInformation) {
	checkReportOf(c, path, r, attachmentTypeCodes)
}

// checkReportOf checks an attachment against the claim type's report
// types.
func checkReportOf(c *checker, path string, r ReportInformation, types []string) {
	if r.AttachmentID != "" {
		c.add(path+"/attachmentId", "names an attachment uploaded to the hosted API's attachments service, which this clearinghouse does not have: send attachmentControlNumber (PWK06) and send the attachment the way attachmentTransmissionCode names")
	}
	c.required(path+"/attachmentReportTypeCode", r.AttachmentReportTypeCode, "the kind of attachment (B4 referral form, DA dental models, DG diagnostic report, EB explanation of benefits, OZ support data, P6 periodontal charts, RB radiology films, RR radiology reports)")
	c.oneOf(path+"/attachmentReportTypeCode", r.AttachmentReportTypeCode, types, "X12 report type code")
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

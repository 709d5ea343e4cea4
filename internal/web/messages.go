package web

import (
	"regexp"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

// The eligibility service speaks to developers: JSON paths, loop names,
// check-digit algorithms. The console says the same things the way a front
// desk would, in the words on the form and on the insurance card.

// formRule rewrites one kind of validation message for one form field.
type formRule struct {
	field    string // form field name, "" for any
	contains string // part of the service's message
	say      string
}

// formRules are tried in order; the first that matches wins.
var formRules = []formRule{
	{"payer", "", "Choose the patient's insurance company from the list."},
	{"npi", "is required", "Enter the provider's NPI (10 digits)."},
	{"npi", "is not a valid NPI", "This NPI is not valid: check it for a typo. An NPI has 10 digits and starts with 1 or 2."},
	{"npi", "10-digit", "Enter the provider's NPI: 10 digits, no spaces."},
	{"provider_org", "", "Enter the practice's name as the payer knows it."},
	{"provider_last", "", "Enter the provider's last name."},
	{"provider_first", "", "Check the provider's first name."},
	{"subscriber", "at least one of", "Enter the member ID, the date of birth or the last name. Payers answer best when all four are filled in."},
	{"subscriber", "is required", "Enter the subscriber as printed on the insurance card."},
	{"sub_member_id", "is required for Medicare", "Medicare needs the patient's Medicare number (MBI), 11 letters and digits from the Medicare card. If you don't have it, look it up first: choose the payer \"CMS MBI Lookup\" and enter last name, date of birth and SSN."},
	{"sub_member_id", "is not a Medicare Beneficiary Identifier", "This is not a Medicare number (MBI). It has 11 letters and digits, such as 1EG4TE5MK73, and is on the Medicare card. If you don't have it, look it up with the payer \"CMS MBI Lookup\"."},
	{"sub_member_id", "must be empty for an MBI lookup", "Leave the member ID empty for a Medicare number lookup. If you already have the MBI, choose the payer Medicare instead."},
	{"sub_member_id", "may contain only", "A member ID has only letters, digits, dashes and spaces. Copy it from the insurance card."},
	{"sub_ssn", "is required", "Enter the patient's 9-digit Social Security number: the Medicare number lookup needs it."},
	{"sub_ssn", "digits", "Enter the Social Security number as 9 digits, without dashes."},
	{"", "is required for an MBI lookup", "A Medicare number lookup needs the last name, the date of birth and the SSN."},
	{"", "is required for an MBI lookup without SSN", "A lookup without SSN needs the first and last name, the date of birth and the state."},
	{"dependent", "must be empty for Medicare", "Medicare has no dependents: every patient has their own Medicare number. Enter the patient as the subscriber."},
	{"dependent", "at most one", "Check one dependent at a time."},
	{"dependent", "", "Enter the dependent's first and last name (and the date of birth)."},
	{"dep_rel", "", "Choose how the dependent is related to the subscriber."},
	{"service_type", "", "Choose a service type from the list."},
	{"procedure_code", "is required", "Enter a procedure code, or clear the code set and choose a service type."},
	{"procedure_code", "", "Check the procedure code: letters and digits only, such as D0120."},
	{"procedure_qualifier", "", "Choose the code set of the procedure code."},
	{"", "real date", "Enter a real date."},
	{"", "control character", "Remove the line break or tab from this field."},
	{"", "delimiter", "Remove the special character (such as * ~ ^ or :) from this field: payers cannot receive it."},
	{"", "characters; got", "This is too long for the payer; shorten it."},
	{"", "must be exactly", "This has the wrong length; check it against the insurance card."},
}

// frontDeskFieldMessage says a validation message of the service the
// console's way, for the form field it is shown next to.
func frontDeskFieldMessage(field, msg string) string {
	for _, r := range formRules {
		if (r.field == "" || r.field == field) && strings.Contains(msg, r.contains) {
			return r.say
		}
	}
	return plainWords(msg)
}

// jsonWords are the contract's field names a message may carry.
var jsonWords = strings.NewReplacer(
	"tradingPartnerServiceId", "payer", "subscriber.memberId", "member ID", "memberId", "member ID",
	"dateOfBirth", "date of birth", "firstName", "first name", "lastName", "last name",
	"organizationName", "organization name", "npi", "NPI", "ssn", "SSN", "dependents", "dependent",
	"serviceTypeCodes", "service type", "procedureCode", "procedure code",
	"productOrServiceIDQualifier", "code set", "individualRelationshipCode", "relationship",
)

var (
	gotSuffix = regexp.MustCompile(`;\s*got .*$`)
	jsonPath  = regexp.MustCompile(`(/[a-zA-Z0-9]+)+`)
	// whatCodes strips parenthesised code lists and loop names.
	loopName = regexp.MustCompile(`\s*\(?(Loop|loop) [0-9]{4}[A-Z]?\)?`)
)

// plainWords is the fallback: the message without JSON paths, field
// names, loop names or the echo of the value.
func plainWords(msg string) string {
	msg = gotSuffix.ReplaceAllString(msg, "")
	msg = jsonPath.ReplaceAllString(msg, "")
	msg = loopName.ReplaceAllString(msg, "")
	msg = strings.TrimSpace(jsonWords.Replace(msg))
	if msg == "" {
		return "Check this field."
	}
	msg = strings.ToUpper(msg[:1]) + msg[1:]
	if !strings.HasSuffix(msg, ".") {
		msg += "."
	}
	return msg
}

// aaaAdvice is what to do about each AAA rejection code, said to a front
// desk. Codes from the 271's AAA03 (X12 005010X279A1).
var aaaAdvice = map[string]struct{ Title, Advice string }{
	"15": {"Information is missing", "The payer needs more details about the patient. Fill in the member ID, name and date of birth from the insurance card and try again."},
	"41": {"Not authorized", "The payer does not let this practice check this patient. Call the payer's provider line."},
	"42": {"The payer's system is not answering", "The payer could not answer right now. Try again in a few minutes."},
	"43": {"The payer does not recognize the provider", "Check the NPI. If it is right, the provider may not be enrolled with this payer: call the payer's provider line."},
	"44": {"The provider's name doesn't match", "Enter the practice's or provider's name exactly as enrolled with the payer."},
	"45": {"Provider specialty problem", "The payer could not match the provider's specialty. Call the payer's provider line."},
	"47": {"Provider state problem", "The payer could not match the provider's state. Call the payer's provider line."},
	"48": {"Referring provider problem", "Check the referring provider's NPI."},
	"49": {"Not the patient's primary care provider", "The payer lists a different primary care provider for this patient."},
	"50": {"Provider cannot check eligibility", "The payer does not accept eligibility checks from this provider. Call the payer's provider line."},
	"51": {"Provider not on file", "The payer has no record of this provider. Check the NPI, or ask the payer whether the provider is enrolled."},
	"52": {"Provider not enrolled on that date", "The provider was not enrolled with the plan on the date of service."},
	"56": {"Date problem", "Check the date of service."},
	"57": {"Date of service problem", "Check the date of service; it may be missing or not a real date."},
	"58": {"The date of birth doesn't match", "Check the date of birth against the insurance card or with the patient."},
	"60": {"Date of birth is after the date of service", "Check the date of birth and the date of service."},
	"61": {"Date of death is before the date of service", "The payer's records show the patient died before the date of service. Check the patient and the date."},
	"62": {"Date of service too far back or ahead", "The payer answers only for dates close to today. Check the date of service."},
	"63": {"Date of service is in the future", "Check the date of service."},
	"64": {"The patient's ID doesn't match", "Check the patient's member ID against the insurance card."},
	"65": {"The patient's name doesn't match", "Enter the patient's name exactly as on the insurance card."},
	"66": {"The patient's gender doesn't match", "Check the patient's details with the payer."},
	"67": {"Patient not found", "The payer could not find this patient. Check the name, date of birth and member ID against the insurance card."},
	"68": {"Duplicate patient ID", "The payer has more than one patient with this ID. Add the date of birth and the full name."},
	"71": {"The date of birth doesn't match", "The date of birth doesn't match the payer's records. Check it with the patient."},
	"72": {"The member ID doesn't match", "The member ID doesn't match the payer's records. Check it against the insurance card (some payers need a prefix or suffix)."},
	"73": {"The name doesn't match", "The name doesn't match the payer's records. Enter it exactly as on the insurance card."},
	"74": {"The gender doesn't match", "Check the patient's details with the payer."},
	"75": {"Member not found", "The payer could not find this member. Check the member ID, name and date of birth against the insurance card; if they match, the patient may have other insurance."},
	"76": {"Duplicate member ID", "The payer has more than one member with this ID. Add the date of birth and the full name."},
	"78": {"Not in this plan", "The member is not in the group or plan asked about. Check the insurance card, or ask the patient for their current card."},
	"79": {"The payer could not take this check", "The payer is not set up for eligibility checks, or its system had a problem. Check that the right payer is chosen; if it is, call the payer."},
	"80": {"No answer from the payer", "The payer did not answer. Try again in a few minutes."},
	"97": {"Provider address problem", "Check the provider's address with the payer."},
	"T4": {"Payer missing", "Choose the payer and try again."},
}

// aaaView is a payer rejection as the result page shows it.
type aaaView struct {
	Title    string // what went wrong, in a sentence
	About    string // who it concerns: the subscriber, the provider, ...
	Advice   string // what to do
	Code     string // the AAA code, for a call with the payer
	Resubmit bool
}

// loopAbout names the person or party an AAA error concerns.
var loopAbout = map[string]string{
	"Loop 2100A": "the payer", "Loop 2100B": "the provider", "Loop 2100C": "the subscriber", "Loop 2100D": "the dependent",
	"Loop 2000A": "the payer", "Loop 2000B": "the provider", "Loop 2000C": "the subscriber", "Loop 2000D": "the dependent",
}

func aaaViewOf(e eligibility.AAAError) aaaView {
	v := aaaView{Code: e.Code, About: loopAbout[e.Location], Resubmit: strings.Contains(strings.ToLower(e.FollowupAction), "resubmit")}
	if a, ok := aaaAdvice[e.Code]; ok {
		v.Title, v.Advice = a.Title, a.Advice
	} else {
		v.Title = e.Description
		v.Advice = "Check the details against the insurance card and try again, or call the payer."
	}
	if v.Title == "" {
		v.Title = "The payer turned the check down"
	}
	return v
}

// problemText says why a stored check has no payer answer.
func problemText(p *eligibility.Problem) string {
	switch p.Code {
	case eligibility.CodeForbidden:
		return "Test mode answers only the published mock requests, and this was not one of them, so nothing was sent. On the new check page, pick a mock request in \"Fill with a mock request\" and run it."
	case eligibility.CodeValidation:
		msgs := make([]string, 0, len(p.FieldList))
		for _, f := range p.FieldList {
			msgs = append(msgs, plainWords(f.Message))
		}
		return "The check was not sent because the request had problems: " + strings.Join(msgs, " ")
	}
	return plainWords(p.Message)
}

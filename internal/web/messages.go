package web

import (
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
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
	return summary.PlainWords(msg)
}

package summary

import (
	"slices"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

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

// Rejection is a payer rejection as the result page shows it.
type Rejection struct {
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

func RejectionOf(e eligibility.AAAError) Rejection {
	v := Rejection{Code: e.Code, About: loopAbout[e.Location], Resubmit: strings.Contains(strings.ToLower(e.FollowupAction), "resubmit")}
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

// AdvisedCodes are the AAA codes that have front-desk advice, sorted.
func AdvisedCodes() []string {
	codes := make([]string, 0, len(aaaAdvice))
	for c := range aaaAdvice {
		codes = append(codes, c)
	}
	slices.Sort(codes)
	return codes
}

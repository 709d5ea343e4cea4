package summary

import (
	"regexp"
	"strings"

	"github.com/clearhouse/clearhouse/internal/eligibility"
)

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

// PlainWords is the fallback: the message without JSON paths, field
// names, loop names or the echo of the value.
func PlainWords(msg string) string {
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

// ProblemText says why a stored check has no payer answer.
func ProblemText(p *eligibility.Problem) string {
	switch p.Code {
	case eligibility.CodeForbidden:
		return "Test mode answers only the published mock requests, and this was not one of them, so nothing was sent. On the new check page, pick a mock request in \"Fill with a mock request\" and run it."
	case eligibility.CodeValidation:
		msgs := make([]string, 0, len(p.FieldList))
		for _, f := range p.FieldList {
			msgs = append(msgs, PlainWords(f.Message))
		}
		return "The check was not sent because the request had problems: " + strings.Join(msgs, " ")
	}
	return PlainWords(p.Message)
}

package claimstatus

import "strings"

// The words of STC01 (and STC10, STC11) composites: claim status category
// code (X12 external code source 507), claim status code (source 508) and
// entity identifier code (element 98).
//
// Sources, and why the lists are short: X12 publishes both code lists
// (x12.org/codes), but no copy that may be redistributed was available to
// this project. The category codes A0–A8 (the acknowledgment categories a
// 277CA uses) are in the 005010X214 guide's code-list references (see
// docs/references.md); the status
// codes below are the ones that reference, our own 277CA writer
// (internal/claims/ack277.go) and the mock payer (internal/mockpayer) use.
// Any other code is shown as its number, never guessed.

// categoryWords are the 277CA acknowledgment categories.
var categoryWords = map[string]string{
	"A0": "Forwarded to another entity",
	"A1": "Received",
	"A2": "Accepted for adjudication",
	"A3": "Returned as unprocessable",
	"A4": "Not found",
	"A5": "Split into more claims",
	"A6": "Rejected for missing information",
	"A7": "Rejected for invalid information",
	"A8": "Rejected: fields that disagree with each other",
}

// rejectingCategories are the categories that stop a claim.
var rejectingCategories = map[string]bool{"A3": true, "A4": true, "A6": true, "A7": true, "A8": true}

// statusWords are claim status codes; "Entity's" stands for the entity
// the composite's third component names ("the subscriber's").
var statusWords = map[string]string{
	"19":  "Entity acknowledges receipt of the claim",
	"20":  "Accepted for processing",
	"21":  "Missing or invalid information",
	"164": "Entity's contract/member number",
	"562": "Entity's National Provider Identifier (NPI)",
}

// entityWords name the parties of an 837D and its answers.
var entityWords = map[string]string{
	"03": "dependent", "40": "receiver", "41": "submitter", "77": "service location", "82": "rendering provider",
	"85": "billing provider", "87": "pay-to provider", "AY": "clearinghouse", "IL": "subscriber", "PR": "payer",
	"QC": "patient", "1P": "provider",
}

// Status is one STC composite.
type Status struct {
	Category string `json:"category"`
	Code     string `json:"code"`
	Entity   string `json:"entity,omitempty"`
}

// Rejects reports whether the status stops the claim.
func (s Status) Rejects() bool { return rejectingCategories[s.Category] }

// Codes is the composite as sent: "A7:164:IL".
func (s Status) Codes() string {
	out := s.Category + ":" + s.Code
	if s.Entity != "" {
		out += ":" + s.Entity
	}
	return out
}

// Sentence says the status in words, with its codes: "Rejected for invalid
// information: the subscriber's contract/member number (A7:164:IL)".
func (s Status) Sentence() string {
	head, ok := categoryWords[s.Category]
	if !ok {
		head = "Status category " + s.Category
	}
	detail, ok := statusWords[s.Code]
	if !ok {
		detail = "status code " + s.Code
		if e, ok := entityWords[s.Entity]; ok {
			detail += " about the " + e
		}
	} else if strings.HasPrefix(detail, "Entity") {
		who := "the entity"
		if e, ok := entityWords[s.Entity]; ok {
			who = "the " + e
		}
		detail = who + strings.TrimPrefix(detail, "Entity")
	} else {
		detail = strings.ToLower(detail[:1]) + detail[1:]
	}
	return head + ": " + detail + " (" + s.Codes() + ")"
}

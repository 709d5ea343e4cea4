package web

import (
	"regexp"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/internal/claimstatus"
)

// x12Element is an X12 element name as a page must never show it
// ("CLP02", "IK5", "STC01").
var x12Element = regexp.MustCompile(`\b(CLP|IK|AK|STC|SVC|CAS|BPR|TRN)[0-9]{1,2}\b`)

// TestClaimAnswerWords: what each answer did with the claim, in the words
// of a front desk: paid in full, partly paid or nothing paid, in which
// role the payer processed it, and never an X12 element name.
func TestClaimAnswerWords(t *testing.T) {
	tests := []struct {
		name    string
		outcome string
		detail  claimstatus.Detail
		label   string
		words   string
	}{
		{"paid in full", claimstatus.Paid, claimstatus.Detail{ClaimStatus: "1", Charge: "245", Paid: "245"},
			"Paid", "The payer processed the claim and paid $245.00 of $245.00 charged."},
		{"partly paid", claimstatus.Paid, claimstatus.Detail{ClaimStatus: "1", Charge: "800", Paid: "450", PatientShare: "300"},
			"Partly paid", "The payer processed the claim and paid $450.00 of $800.00 charged. The patient owes $300.00."},
		{"as the secondary payer", claimstatus.Paid, claimstatus.Detail{ClaimStatus: "2", Charge: "100", Paid: "20"},
			"Partly paid", "The payer processed the claim as the secondary payer and paid $20.00 of $100.00 charged."},
		{"nothing paid", claimstatus.Paid, claimstatus.Detail{ClaimStatus: "1", Charge: "100", Paid: "0", PatientShare: "100"},
			"Processed, nothing paid", "The payer processed the claim and paid $0.00 of $100.00 charged. The patient owes $100.00."},
		{"denied", claimstatus.Denied, claimstatus.Detail{ClaimStatus: "4", Charge: "100", Paid: "0"},
			"Denied", "The payer denied the claim."},
		{"reversed", claimstatus.Reversed, claimstatus.Detail{ClaimStatus: "22", Charge: "-100", Paid: "-100"},
			"Payment reversed", "The payer took back an earlier payment."},
		{"file accepted", claimstatus.Acknowledged, claimstatus.Detail{AckStatus: "A"},
			"File accepted", "The payer received the file and it passed their checks."},
		{"file accepted with warnings", claimstatus.Acknowledged, claimstatus.Detail{AckStatus: "E"},
			"File accepted", "The payer received the file and it passed their checks, with warnings."},
		{"file rejected", claimstatus.Rejected, claimstatus.Detail{AckStatus: "R"},
			"Rejected", "The payer rejected the file the claim was in: it did not pass their checks."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := answerView{Detail: tt.detail}
			a.Outcome = tt.outcome
			if got := a.OutcomeLabel(); got != tt.label {
				t.Errorf("label %q, want %q", got, tt.label)
			}
			words := strings.Join(answerWords(tt.outcome, tt.detail), " ")
			if words != tt.words {
				t.Errorf("words %q\nwant  %q", words, tt.words)
			}
			if m := x12Element.FindString(words + " " + rejectionReason(tt.detail)); m != "" {
				t.Errorf("the words name the X12 element %s", m)
			}
		})
	}
}

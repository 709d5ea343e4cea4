package web

import (
	"context"
	"html/template"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/store"
)

// claimStatusView is where a claim is in its life, in words.
type claimStatusView struct {
	Label, Class string
	// Reason says why, for a rejection or a failed delivery.
	Reason string
	// NextAttempt is when the next delivery attempt runs, while retrying.
	NextAttempt time.Time
	// Final: nothing more is expected without someone acting (the page
	// stops following it).
	Final bool
	// Waiting: the payer has the claim and its decision (payment or
	// denial) takes days, not seconds: the page keeps following it, every
	// Config.DecisionPoll instead of every 2 s (browsers slow it further
	// in a hidden tab).
	Waiting bool
	// Poll is how often a page showing the claim asks again, as htmx
	// reads it ("2s"); "" when final.
	Poll string
}

// paidStatus names what an 835 did with the claim, from its last payment:
// paid in full, partly paid, or processed with nothing paid (all of it
// left to the patient, say a deductible).
func paidStatus(d claimstatus.Detail) (label, class string) {
	paid, charge := claimstatus.Cents(d.Paid), claimstatus.Cents(d.Charge)
	switch {
	case d.Paid == "" || paid >= charge:
		return "Paid", "ok"
	case paid > 0:
		return "Partly paid", "warn"
	}
	return "Processed, nothing paid", "warn"
}

// claimStatus works out a claim's status from its answer and its file,
// and how often a page showing it asks again: briskly while the claim's
// file moves, gently while the payer decides.
func (c *Console) claimStatus(ctx context.Context, v *viewer, cl store.DentalClaim, fileStatus string) (claimStatusView, error) {
	st, err := c.claimStatusOf(ctx, v, cl, fileStatus)
	switch {
	case st.Waiting:
		st.Poll = htmxInterval(c.cfg.DecisionPoll)
	case !st.Final:
		st.Poll = "2s"
	}
	return st, err
}

// htmxInterval writes d as htmx reads an interval ("60s", "1500ms").
func htmxInterval(d time.Duration) string {
	if d%time.Second == 0 {
		return strconv.FormatInt(int64(d/time.Second), 10) + "s"
	}
	return strconv.FormatInt(d.Milliseconds(), 10) + "ms"
}

func (c *Console) claimStatusOf(ctx context.Context, v *viewer, cl store.DentalClaim, fileStatus string) (claimStatusView, error) {
	switch cl.Answer {
	case claimstatus.Accepted:
		return claimStatusView{Label: "Accepted", Class: "ok", Waiting: true,
			Reason: "The payer accepted the claim. Its payment or denial usually takes days; this page shows it when it comes."}, nil
	case claimstatus.Paid:
		st := claimStatusView{Label: "Paid", Class: "ok", Final: true}
		answers, err := c.tenant(v).ClaimAnswers(ctx, cl.ID)
		if err != nil {
			return st, err
		}
		for i := len(answers) - 1; i >= 0; i-- {
			if answers[i].Outcome == claimstatus.Paid {
				d := claimstatus.ParseDetail(answers[i].Detail)
				st.Label, st.Class = paidStatus(d)
				if st.Class != "ok" {
					st.Reason = paidWords(d)
				}
				break
			}
		}
		return st, nil
	case claimstatus.Denied:
		return claimStatusView{Label: "Denied", Class: "bad", Final: true}, nil
	case claimstatus.Reversed:
		return claimStatusView{Label: "Payment reversed", Class: "warn", Final: true}, nil
	case claimstatus.Rejected:
		st := claimStatusView{Label: "Rejected", Class: "bad", Final: true}
		answers, err := c.tenant(v).ClaimAnswers(ctx, cl.ID)
		if err != nil {
			return st, err
		}
		for i := len(answers) - 1; i >= 0 && st.Reason == ""; i-- {
			if answers[i].Outcome == claimstatus.Rejected {
				st.Reason = rejectionReason(claimstatus.ParseDetail(answers[i].Detail))
			}
		}
		return st, nil
	}
	switch fileStatus {
	case store.ExecutionDelivered:
		if cl.Answer == claimstatus.Acknowledged {
			return claimStatusView{Label: "Delivered", Class: "ok", Reason: "The payer received the file and it passed their checks; their answer about the claim itself comes next."}, nil
		}
		return claimStatusView{Label: "Delivered", Class: "ok", Reason: "Waiting for the payer's acknowledgment."}, nil
	case store.ExecutionFailed:
		return claimStatusView{Label: "Not delivered", Class: "bad", Final: true,
			Reason: "Every delivery attempt failed. Check the payer's connection, then send the claim again."}, nil
	}
	st := claimStatusView{Label: "Submitted", Class: "warn"}
	job, err := c.deliveryJob(ctx, cl.ExecutionID)
	if err != nil || job == nil {
		return st, err
	}
	if job.Attempt > 0 && job.LastError != "" && job.State == store.JobAvailable {
		st.Label, st.NextAttempt = "Delivery failed, retrying", job.RunAt
		st.Reason = "Attempt " + strconv.Itoa(job.Attempt) + " of " + strconv.Itoa(job.MaxAttempts) + " failed: " + job.LastError
	}
	return st, nil
}

// rejectionReason says why the payer rejected a claim.
func rejectionReason(d claimstatus.Detail) string {
	for _, s := range d.Statuses {
		if s.Rejects() {
			return s.Sentence()
		}
	}
	if d.AckStatus != "" {
		return "The payer rejected the file the claim was in: the file did not pass the payer's checks."
	}
	if len(d.Statuses) > 0 {
		return d.Statuses[0].Sentence()
	}
	return ""
}

// answerLabel names an answer's kind.
func answerLabel(kind string) string {
	switch kind {
	case store.ClaimAnswer999:
		return "File acknowledgment (999)"
	case store.ClaimAnswer277CA:
		return "Claim acknowledgment (277CA)"
	case store.ClaimAnswer835:
		return "Payment (835)"
	}
	return kind
}

// answerWords says what an answer told about the claim, one sentence each.
func answerWords(outcome string, d claimstatus.Detail) []string {
	var out []string
	switch {
	case d.AckStatus != "":
		switch {
		case outcome == claimstatus.Rejected:
			out = append(out, "The payer rejected the file the claim was in: it did not pass their checks.")
		case d.AckStatus == "E":
			out = append(out, "The payer received the file and it passed their checks, with warnings.")
		case d.AckStatus == "P":
			out = append(out, "The payer received the file and took part of it.")
		default:
			out = append(out, "The payer received the file and it passed their checks.")
		}
	case d.ClaimStatus != "":
		switch outcome {
		case claimstatus.Denied:
			out = append(out, "The payer denied the claim.")
			if claimstatus.Cents(d.PatientShare) != 0 {
				out = append(out, "The patient owes $"+formatCents(claimstatus.Cents(d.PatientShare))+".")
			}
		case claimstatus.Reversed:
			out = append(out, "The payer took back an earlier payment.")
		default:
			out = append(out, paidWords(d))
		}
	}
	for _, s := range d.Statuses {
		out = append(out, s.Sentence()+".")
	}
	if d.PayerClaimNumber != "" {
		out = append(out, "The payer's claim number is "+d.PayerClaimNumber+".")
	}
	return out
}

// paidWords says what a payment did with the claim, in words: how much of
// the charge was paid, in which role the payer processed it (a secondary
// payer pays after the primary), and what the patient owes.
func paidWords(d claimstatus.Detail) string {
	s := "The payer processed the claim" + payerRole[d.ClaimStatus] + " and paid $" + formatCents(claimstatus.Cents(d.Paid)) +
		" of $" + formatCents(claimstatus.Cents(d.Charge)) + " charged."
	if d.PatientShare != "" && claimstatus.Cents(d.PatientShare) != 0 {
		s += " The patient owes $" + formatCents(claimstatus.Cents(d.PatientShare)) + "."
	}
	return s
}

// payerRole words the claim status codes of a payment (X12 code list
// 1025's processed-as values); the common primary case says nothing.
var payerRole = map[string]string{
	"2":  " as the secondary payer",
	"3":  " as the tertiary payer",
	"19": " and sent it on to the next payer",
	"20": " as the secondary payer and sent it on to the next payer",
	"21": " as the tertiary payer and sent it on to the next payer",
	"23": ", said it is not theirs, and sent it on to another payer",
}

// claimPages and claimFuncs are the claims pages and their template
// functions (templates.go gathers every family's).
var (
	claimPages = []string{"claims", "claim", "claim_new"}
	claimFuncs = template.FuncMap{
		"cents": func(c int64) string {
			if c < 0 {
				return "−$" + formatCents(-c) // a reversal takes money back
			}
			return "$" + formatCents(c)
		},
		"outcomeLabel": outcomeLabel,
		// pointerLetter shows an 837P diagnosis pointer ("2") as the
		// CMS-1500's letter (B).
		"pointerLetter": func(p string) string {
			if n, err := strconv.Atoi(p); err == nil && n >= 1 && n <= professionalDiagnoses {
				return dxLetter(n)
			}
			return p
		},
		"answerClass": answerClass,
		// clause is a sentence to go on inside another ("…: it came; …").
		"clause": func(s string) string { return strings.TrimSuffix(s, ".") },
	}
)

// answerClass is an answer outcome's badge colour.
func answerClass(outcome string) string {
	switch outcome {
	case claimstatus.Rejected, claimstatus.Denied:
		return "bad"
	case claimstatus.Reversed:
		return "warn"
	}
	return "ok"
}

// outcomeLabel names an answer's outcome.
func outcomeLabel(outcome string) string {
	switch outcome {
	case claimstatus.Acknowledged:
		return "File accepted"
	case claimstatus.Accepted:
		return "Accepted"
	case claimstatus.Rejected:
		return "Rejected"
	case claimstatus.Paid:
		return "Paid"
	case claimstatus.Denied:
		return "Denied"
	case claimstatus.Reversed:
		return "Payment reversed"
	}
	return outcome
}

package web

import (
	"context"
	"html/template"
	"strconv"
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
	// stops following it). An accepted claim may still be paid, but that
	// takes the payer days, not seconds.
	Final bool
}

// claimStatus works out a claim's status from its answer and its file.
func (c *Console) claimStatus(ctx context.Context, v *viewer, cl store.DentalClaim, fileStatus string) (claimStatusView, error) {
	switch cl.Answer {
	case claimstatus.Accepted:
		return claimStatusView{Label: "Accepted", Class: "ok", Final: true}, nil
	case claimstatus.Paid:
		return claimStatusView{Label: "Paid", Class: "ok", Final: true}, nil
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
			return claimStatusView{Label: "Delivered", Class: "ok", Reason: "The payer's 999 accepted the file; its claim acknowledgment (277CA) comes next."}, nil
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
		return "The payer's 999 rejected the claim's file (IK5 " + d.AckStatus + "): the file did not pass the payer's checks."
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
		if outcome == claimstatus.Rejected {
			out = append(out, "The payer rejected the file the claim was in (IK5 "+d.AckStatus+").")
		} else {
			out = append(out, "The payer received the file and it passed their checks (IK5 "+d.AckStatus+").")
		}
	case d.ClaimStatus != "":
		switch outcome {
		case claimstatus.Denied:
			out = append(out, "The payer denied the claim (CLP02 4).")
		case claimstatus.Reversed:
			out = append(out, "The payer reversed an earlier payment (CLP02 22).")
		default:
			out = append(out, "The payer processed the claim and paid $"+formatCents(claimstatus.Cents(d.Paid))+" of $"+
				formatCents(claimstatus.Cents(d.Charge))+" charged (CLP02 "+d.ClaimStatus+").")
		}
		if d.PatientShare != "" && d.PatientShare != "0" {
			out = append(out, "The patient owes $"+formatCents(claimstatus.Cents(d.PatientShare))+".")
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
		"answerClass": func(outcome string) string {
			switch outcome {
			case claimstatus.Rejected, claimstatus.Denied:
				return "bad"
			case claimstatus.Reversed:
				return "warn"
			}
			return "ok"
		},
	}
)

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

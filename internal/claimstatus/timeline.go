package claimstatus

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A claim's timeline (GET /2025-03-07/claims/{id}/timeline), newest first.
// Each entry has exactly one property set, named for its kind: the hosted
// API's submission (dentalClaimSubmission, professionalClaimSubmission,
// institutionalClaimSubmission), claimAcknowledgment (a 277CA) and
// claimPaymentInformation (an 835's claim payment), and ours where it has
// none: deliveryAttempt (each attempt to send the claim's file),
// fileAcknowledgment (the payer's 999 of that file), upstreamSubmission
// and claimStatusInquiry (a payer's real-time 277 about the claim, asked
// with a 276). docs/decisions.md describes the extensions.

// Entry is one timeline entry.
type Entry struct {
	DentalClaimSubmission        *Submission      `json:"dentalClaimSubmission,omitempty"`
	ProfessionalClaimSubmission  *Submission      `json:"professionalClaimSubmission,omitempty"`
	InstitutionalClaimSubmission *Submission      `json:"institutionalClaimSubmission,omitempty"`
	ClaimAcknowledgment          *Acknowledgment  `json:"claimAcknowledgment,omitempty"`
	ClaimPaymentInformation      *PaymentInfo     `json:"claimPaymentInformation,omitempty"`
	DeliveryAttempt              *DeliveryAttempt `json:"deliveryAttempt,omitempty"`
	FileAcknowledgment           *FileAck         `json:"fileAcknowledgment,omitempty"`
	UpstreamSubmission           *UpstreamRoute   `json:"upstreamSubmission,omitempty"`
	ClaimStatusInquiry           *StatusInquiry   `json:"claimStatusInquiry,omitempty"`

	at  time.Time
	seq int // the order of entries of one instant: the life's order
}

// Submission is the hosted API's ClaimSubmissionSummary.
type Submission struct {
	ID                     string       `json:"id"`
	StediPayerID           string       `json:"stediPayerId,omitempty"`
	PatientControlNumber   string       `json:"patientControlNumber"`
	PatientName            *PatientName `json:"patientName,omitempty"`
	TotalClaimChargeAmount string       `json:"totalClaimChargeAmount"`
	DatesOfService         *DateRange   `json:"datesOfService,omitempty"`
	ProcessedAt            string       `json:"processedAt"`
}

// Acknowledgment is the hosted API's ClaimAcknowledgmentSummary: a 277CA's
// word on the claim. ID is the 277CA's transaction id (its report:
// GET /2024-04-01/change/medicalnetwork/reports/v2/{id}/277).
type Acknowledgment struct {
	ID          string `json:"id"`
	Status      string `json:"status"` // ACCEPTED, REJECTED, RECEIVED, INVALID
	ReportedBy  string `json:"reportedBy"`
	SourceName  string `json:"sourceName"`
	ProcessedAt string `json:"processedAt"`
}

// PaymentInfo is the hosted API's ClaimPaymentInformationSummary: one CLP
// of an 835 about the claim. ID is the 835's transaction id (its report
// and ERA PDF), with ".n" when the 835 pays the claim in several CLPs.
type PaymentInfo struct {
	ID                          string `json:"id"`
	StatusCode                  string `json:"statusCode"`
	TotalClaimChargeAmount      string `json:"totalClaimChargeAmount"`
	ClaimPaymentAmount          string `json:"claimPaymentAmount"`
	PatientResponsibilityAmount string `json:"patientResponsibilityAmount,omitempty"`
	CheckOrEftTraceNumber       string `json:"checkOrEftTraceNumber,omitempty"`
	ProcessedAt                 string `json:"processedAt"`
}

// DeliveryAttempt is one attempt to deliver the claim's file (ours).
type DeliveryAttempt struct {
	ID          string `json:"id"` // the file execution's id, "/" and the attempt
	Attempt     int    `json:"attempt"`
	Status      string `json:"status"` // DELIVERED, FAILED, RUNNING
	Message     string `json:"message,omitempty"`
	ProcessedAt string `json:"processedAt"`
}

// FileAck is the payer's 999 about the claim's file (ours). ID is the
// 999's transaction id.
type FileAck struct {
	ID          string `json:"id"`
	Status      string `json:"status"` // ACCEPTED, REJECTED
	Code        string `json:"code"`   // IK5-01: A, E, R, M, W, X
	ProcessedAt string `json:"processedAt"`
}

// UpstreamRoute is one CLEARINGHOUSE_API upstream's part in delivering the
// claim's file (ours): the route tried, whether it took the file
// (ACCEPTED), certainly did not (NOT_ACCEPTED) or may have (UNKNOWN,
// SENDING: the file then goes nowhere else), with the upstream's words.
type UpstreamRoute struct {
	ID           string `json:"id"` // the file execution's id, "/" and the connection's
	ConnectionID string `json:"connectionId"`
	Status       string `json:"status"`
	Tries        int    `json:"tries"`
	Message      string `json:"message,omitempty"`
	ProcessedAt  string `json:"processedAt"`
}

// StatusInquiry is a payer's real-time answer (a 277 to a 276 sent with
// POST /2024-04-01/change/medicalnetwork/claimstatus/v2 or its raw-x12
// twin) about the claim (ours): its first status as the claim status
// answer's claimStatus names it, and what it says of the payment.
type StatusInquiry struct {
	ID                        string `json:"id"`
	PayerID                   string `json:"payerId"`
	StatusCategoryCode        string `json:"statusCategoryCode,omitempty"`
	StatusCode                string `json:"statusCode,omitempty"`
	EntityCode                string `json:"entityCode,omitempty"`
	EffectiveDate             string `json:"effectiveDate,omitempty"`
	SubmittedAmount           string `json:"submittedAmount,omitempty"`
	AmountPaid                string `json:"amountPaid,omitempty"`
	PaidDate                  string `json:"paidDate,omitempty"`
	CheckNumber               string `json:"checkNumber,omitempty"`
	TradingPartnerClaimNumber string `json:"tradingPartnerClaimNumber,omitempty"`
	ProcessedAt               string `json:"processedAt"`
}

// Route is the upstream connection that accepted the claim's file, "" when
// none has (yet) or the file went another way.
func Route(routes []store.UpstreamSubmission) string {
	for _, r := range routes {
		if r.State == store.UpstreamAccepted {
			return r.ConnectionID
		}
	}
	return ""
}

// Timeline is a claim's entries, newest first: its submission, each
// delivery attempt of its file, each upstream route it was offered to, its
// answers (oldest first as stored) and the payers' real-time answers about
// it.
func Timeline(c store.DentalClaim, attempts []store.JobAttempt, answers []store.ClaimAnswer, routes []store.UpstreamSubmission,
	inquiries []store.ClaimStatusInquiry) []Entry {
	r := NewRecord(c)
	sub := &Submission{ID: c.TransactionID, StediPayerID: r.StediPayerID, PatientControlNumber: r.PatientControlNumber,
		PatientName: r.PatientName, TotalClaimChargeAmount: r.TotalClaimChargeAmount, DatesOfService: r.DatesOfService,
		ProcessedAt: r.SubmittedAt}
	first := Entry{at: c.CreatedAt}
	switch r.Type {
	case "PROFESSIONAL":
		first.ProfessionalClaimSubmission = sub
	case "INSTITUTIONAL":
		first.InstitutionalClaimSubmission = sub
	default:
		first.DentalClaimSubmission = sub
	}
	out := []Entry{first}
	for _, a := range attempts {
		d := &DeliveryAttempt{ID: c.ExecutionID + "/" + strconv.Itoa(a.Attempt), Attempt: a.Attempt, Message: a.Error}
		at := a.FinishedAt
		switch a.Outcome {
		case store.AttemptSucceeded:
			d.Status = "DELIVERED"
		case store.AttemptRunning:
			d.Status, at = "RUNNING", a.StartedAt
		default:
			d.Status = "FAILED"
		}
		if at.IsZero() {
			at = a.StartedAt
		}
		d.ProcessedAt = timestamp(at)
		out = append(out, Entry{DeliveryAttempt: d, at: at})
	}
	for _, r := range routes {
		out = append(out, Entry{UpstreamSubmission: &UpstreamRoute{ID: c.ExecutionID + "/" + r.ConnectionID, ConnectionID: r.ConnectionID, Status: r.State, Tries: r.Tries,
			Message: r.Message, ProcessedAt: timestamp(r.UpdatedAt)}, at: r.UpdatedAt})
	}
	for _, a := range answers {
		out = append(out, answerEntries(a)...)
	}
	for _, q := range inquiries {
		out = append(out, Entry{ClaimStatusInquiry: &StatusInquiry{ID: q.ID, PayerID: q.PayerID, StatusCategoryCode: q.CategoryCode,
			StatusCode: q.StatusCode, EntityCode: q.EntityCode, EffectiveDate: q.EffectiveDate, SubmittedAmount: q.SubmittedAmount,
			AmountPaid: q.AmountPaid, PaidDate: q.PaidDate, CheckNumber: q.CheckNumber, TradingPartnerClaimNumber: q.PayerClaimNumber,
			ProcessedAt: timestamp(q.CreatedAt)}, at: q.CreatedAt})
	}
	for i := range out {
		out[i].seq = i
	}
	sort.SliceStable(out, func(i, j int) bool {
		if !out[i].at.Equal(out[j].at) {
			return out[i].at.After(out[j].at)
		}
		return out[i].seq > out[j].seq
	})
	return out
}

func answerEntries(a store.ClaimAnswer) []Entry {
	d := ParseDetail(a.Detail)
	at := timestamp(a.CreatedAt)
	switch a.Kind {
	case store.ClaimAnswer999:
		st := "ACCEPTED"
		if a.Outcome == Rejected {
			st = "REJECTED"
		}
		return []Entry{{FileAcknowledgment: &FileAck{ID: a.TransactionID, Status: st, Code: d.AckStatus, ProcessedAt: at}, at: a.CreatedAt}}
	case store.ClaimAnswer277CA:
		return []Entry{{ClaimAcknowledgment: &Acknowledgment{ID: a.TransactionID, Status: AcknowledgmentStatus(d.Statuses),
			ReportedBy: ReportedBy(d.SourceEntity), SourceName: d.SourceName, ProcessedAt: at}, at: a.CreatedAt}}
	}
	payments := d.Payments
	if len(payments) == 0 { // answers recorded before payments were kept
		payments = []Payment{{ClaimStatus: d.ClaimStatus, Charge: d.Charge, Paid: d.Paid, PatientShare: d.PatientShare}}
	}
	var out []Entry
	for i, p := range payments {
		id := a.TransactionID
		if len(payments) > 1 {
			id += "." + strconv.Itoa(i+1)
		}
		out = append(out, Entry{ClaimPaymentInformation: &PaymentInfo{ID: id, StatusCode: PaymentStatusCode(p.ClaimStatus),
			TotalClaimChargeAmount: amountText(p.Charge), ClaimPaymentAmount: amountText(p.Paid),
			PatientResponsibilityAmount: amountText(p.PatientShare), CheckOrEftTraceNumber: p.CheckOrEFT, ProcessedAt: at},
			at: a.CreatedAt})
	}
	return out
}

// amountText normalises an X12 amount ("200.50" → "200.5"); "" stays "".
func amountText(s string) string {
	if strings.TrimSpace(s) == "" {
		return ""
	}
	return Amount(Cents(s))
}

// PaymentStatusCode names an 835's CLP02 as the hosted API does; a code
// it has no name for is passed through.
func PaymentStatusCode(clp02 string) string {
	if name, ok := paymentStatusCodes[clp02]; ok {
		return name
	}
	return clp02
}

var paymentStatusCodes = map[string]string{
	"1":  "PROCESSED_AS_PRIMARY",
	"2":  "PROCESSED_AS_SECONDARY",
	"3":  "PROCESSED_AS_TERTIARY",
	"4":  "DENIED",
	"19": "PROCESSED_AS_PRIMARY_FORWARDED_TO_ADDITIONAL_PAYERS",
	"20": "PROCESSED_AS_SECONDARY_FORWARDED_TO_ADDITIONAL_PAYERS",
	"21": "PROCESSED_AS_TERTIARY_FORWARDED_TO_ADDITIONAL_PAYERS",
	"22": "REVERSAL_OF_PREVIOUS_PAYMENT",
	"23": "NOT_OUR_CLAIM_FORWARDED_TO_ADDITIONAL_PAYERS",
	"25": "PREDETERMINATION_PRICING_ONLY",
}

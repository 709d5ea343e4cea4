package claimstatus

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
)

// StatusChanged is the event of a claim whose status changed (its detail:
// StatusChange).
const StatusChanged = events.ClaimStatusChanged

// APIVersion is the date version of the claims lifecycle API's paths.
const APIVersion = "2025-03-07"

// IDPrefix starts a claim id as the claims lifecycle API shows it.
const IDPrefix = "clm_"

// PublicID is a claim's id as the claims lifecycle API shows it: the
// prefix and the id in upper case, as the hosted API writes ULIDs (ours
// are stored in lower case, store.NewID).
func PublicID(id string) string { return IDPrefix + strings.ToUpper(id) }

// ParseID reads a claim id given with or without its prefix, in either
// case, as stored; ok is false when it is not a claim id (the hosted
// pattern ^(clm_)?[0-7][0-9A-HJKMNP-TV-Z]{25}$, case aside).
func ParseID(s string) (string, bool) {
	id := strings.ToUpper(strings.TrimPrefix(s, IDPrefix))
	if len(id) != 26 || id[0] < '0' || id[0] > '7' {
		return "", false
	}
	for _, r := range id {
		if !strings.ContainsRune("0123456789ABCDEFGHJKMNPQRSTVWXYZ", r) {
			return "", false
		}
	}
	return strings.ToLower(id), true
}

// ClaimURL is the public URL of a claim in the claims lifecycle API, under
// em's public base URL.
func ClaimURL(em *events.Emitter, id string) string {
	return em.URL(APIVersion, "claims", PublicID(id))
}

// State is the claim status an answer reports, in the hosted API's words.
// A 999 acknowledges the file: the payer received the claim (or rejected
// it). A 277CA's claim-level categories: any rejecting one (A3, A4, A6–A8)
// rejects, A2 accepts, A0 and A1 acknowledge receipt, others are unknown.
// An 835 processes the claim (CLP02 4 denies it; a reversal alone, CLP02
// 22 as its last word, leaves no clear outcome: UNKNOWN).
func State(kind, outcome string, d Detail) store.ClaimState {
	payer := store.ClaimState{ReportedBy: store.ReportedByPayer}
	switch kind {
	case store.ClaimAnswer999:
		payer.Status = store.ClaimStatusReceived
		if outcome == Rejected {
			payer.Status = store.ClaimStatusRejected
		}
		return payer
	case store.ClaimAnswer835:
		switch outcome {
		case Denied:
			payer.Status = store.ClaimStatusDenied
		case Reversed:
			payer.Status = store.ClaimStatusUnknown
		default:
			payer.Status = store.ClaimStatusProcessed
		}
		return payer
	}
	st := store.ClaimState{Status: AcknowledgmentStatus(d.Statuses), ReportedBy: ReportedBy(d.SourceEntity)}
	if st.Status == "INVALID" {
		st.Status = store.ClaimStatusUnknown
	}
	return st
}

// AcknowledgmentStatus is a 277CA's word on a claim as the hosted API's
// claim acknowledgment says it: REJECTED, ACCEPTED, RECEIVED or INVALID
// (a category it does not know).
func AcknowledgmentStatus(statuses []Status) string {
	out := "INVALID"
	for _, s := range statuses {
		switch {
		case s.Rejects():
			return store.ClaimStatusRejected
		case s.Category == "A2":
			out = store.ClaimStatusAccepted
		case (s.Category == "A0" || s.Category == "A1") && out == "INVALID":
			out = store.ClaimStatusReceived
		}
	}
	return out
}

// ReportedBy names a 277CA's information source: a clearinghouse (AY, or
// 41 the submitter's side) or, by default, the payer.
func ReportedBy(entity string) string {
	if entity == "AY" || entity == "41" {
		return store.ReportedByClearinghouse
	}
	return store.ReportedByPayer
}

// PaidCents is what the 835's claims about the claim paid, in cents (a
// reversal's negative amount subtracts; a predetermination, CLP02 25,
// priced the claim without paying it and counts nothing).
func (d Detail) PaidCents() int64 {
	var sum int64
	for _, p := range d.Payments {
		if p.ClaimStatus != "25" {
			sum += Cents(p.Paid)
		}
	}
	return sum
}

// Cents reads an X12 amount ("200", "-45.5") as cents; 0 when it is not
// one.
func Cents(amount string) int64 {
	f, err := strconv.ParseFloat(amount, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e13 {
		return 0
	}
	return int64(math.Round(f * 100))
}

// StatusChange is the detail of a claim.status.changed.v2 event.
type StatusChange struct {
	ClaimID              string `json:"claimId"`
	PatientControlNumber string `json:"patientControlNumber"`
	Type                 string `json:"type"`
	Status               string `json:"status"`
	PreviousStatus       string `json:"previousStatus"`
	StatusReportedBy     string `json:"statusReportedBy"`
	// Source is what changed it: "999", "277CA", "835" or "DELIVERY" (every
	// delivery attempt failed); TransactionID the inbound answer, if any.
	Source        string `json:"source"`
	TransactionID string `json:"transactionId,omitempty"`
	Mode          string `json:"mode"`
	ChangedAt     string `json:"changedAt"`
}

// emitChange records the claim.status.changed.v2 event of ch through tx.
func emitChange(ctx context.Context, tx store.Queries, em *events.Emitter, c store.DentalClaim, ch store.ClaimStatusChange,
	executionID, transactionID, source string, at time.Time) error {
	resources := []string{ClaimURL(em, c.ID)}
	if transactionID != "" {
		resources = append(resources, em.TransactionURL(transactionID))
	}
	_, err := em.Emit(ctx, tx, events.Event{AccountID: c.AccountID, Mode: c.Mode, DetailType: StatusChanged,
		ExecutionID: executionID, TransactionID: transactionID, Resources: resources, Time: at,
		Detail: StatusChange{ClaimID: PublicID(c.ID), PatientControlNumber: c.PatientControlNumber, Type: c.Lifecycle.Type,
			Status: ch.After.Status, PreviousStatus: ch.Before.Status, StatusReportedBy: ch.After.ReportedBy,
			Source: source, TransactionID: transactionID, Mode: c.Mode, ChangedAt: at.UTC().Format(time.RFC3339)}})
	return err
}

// DeliveryFailed marks the claims of an outbound file whose every delivery
// attempt failed: a claim still SUBMITTED becomes REJECTED, reported by the
// clearinghouse (it never reached the payer), with its event. Call it in
// the transaction that records the failure; em records the event.
func DeliveryFailed(ctx context.Context, tx store.Queries, em *events.Emitter, accountID, executionID, claimID string, at time.Time) error {
	c, err := tx.GetDentalClaim(ctx, accountID, claimID)
	if err != nil || c.ExecutionID != executionID {
		return nil // not a claim's file
	}
	ch, err := tx.SetClaimState(ctx, accountID, claimID,
		store.ClaimState{Status: store.ClaimStatusRejected, ReportedBy: store.ReportedByClearinghouse}, store.ClaimStatusSubmitted)
	if err != nil || !ch.Changed() {
		return err
	}
	return emitChange(ctx, tx, em, c, ch, executionID, "", "DELIVERY", at)
}

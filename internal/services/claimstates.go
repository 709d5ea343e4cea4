package services

import (
	"context"
	"encoding/json"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/store"
)

// storeClaimStates lets the in-process mock payer answer a 276 with the
// real state of the caller's own test claim: found by the claim id
// (REF*D9, the submission's correlationId) or the patient control number
// (REF*EJ), within the caller's account and mode only.
func storeClaimStates(st store.Store) mockpayer.ClaimStates {
	return func(ctx context.Context, q mockpayer.ClaimQuery) (mockpayer.ClaimState, bool) {
		if q.Caller.AccountID == "" || (q.ClearinghouseClaimID == "" && q.PatientAccountNumber == "") {
			return mockpayer.ClaimState{}, false
		}
		var ids, pcns []string
		if q.ClearinghouseClaimID != "" {
			ids = []string{q.ClearinghouseClaimID}
		}
		if q.PatientAccountNumber != "" {
			pcns = []string{q.PatientAccountNumber}
		}
		claims, err := st.FindClaimsForAnswer(ctx, q.Caller.AccountID, string(q.Caller.Mode), ids, pcns)
		if err != nil || len(claims) == 0 {
			return mockpayer.ClaimState{}, false
		}
		c := claims[0]
		for _, o := range claims[1:] { // the newest claim of that number
			if o.CreatedAt.After(c.CreatedAt) {
				c = o
			}
		}
		state := mockpayer.ClaimState{PatientAccountNumber: c.PatientControlNumber, Charge: centsText(c.ChargeCents)}
		answers, _ := store.ForTenant(st, store.Scope{AccountID: q.Caller.AccountID, Mode: string(q.Caller.Mode)}).ClaimAnswers(ctx, c.ID)
		var d claimstatus.Detail
		var answeredAt string
		for _, a := range answers { // oldest first: the last of the claim's kind wins
			if a.Outcome == c.Answer {
				d, answeredAt = claimstatus.ParseDetail(a.Detail), a.CreatedAt.UTC().Format("20060102")
			}
		}
		state.PayerClaimNumber = d.PayerClaimNumber
		switch c.Answer {
		case claimstatus.Paid:
			state.Category, state.Code, state.Paid, state.PaidDate = "F1", "65", d.Paid, answeredAt
		case claimstatus.Denied:
			state.Category, state.Code, state.Paid, state.PaidDate = "F2", "1", "0", answeredAt
		case claimstatus.Reversed:
			state.Category, state.Code = "F3", "1"
		case claimstatus.Rejected:
			state.Category, state.Code = "A3", "21"
			if len(d.Statuses) > 0 {
				state.Category, state.Code, state.Entity = d.Statuses[0].Category, d.Statuses[0].Code, d.Statuses[0].Entity
			}
		case claimstatus.Accepted:
			state.Category, state.Code = "P1", "20" // in adjudication
		default: // delivered, or acknowledged by a 999 only
			state.Category, state.Code = "A1", "19"
		}
		return state, true
	}
}

func centsText(c int64) string { return strconv.FormatFloat(float64(c)/100, 'f', -1, 64) }

// claimDeliveryFailed is delivery's Failed hook: the claim an outbound
// claim file carries (its execution's detail names it) is rejected by the
// clearinghouse when every delivery attempt failed; em records its event.
func claimDeliveryFailed(em *events.Emitter) func(ctx context.Context, tx store.Queries, e store.Execution, at time.Time) error {
	return func(ctx context.Context, tx store.Queries, e store.Execution, at time.Time) error {
		var d struct {
			ClaimID string `json:"claimId"`
		}
		if json.Unmarshal(e.Detail, &d) != nil || d.ClaimID == "" {
			return nil
		}
		return claimstatus.DeliveryFailed(ctx, tx, em, e.AccountID, e.ID, d.ClaimID, at)
	}
}

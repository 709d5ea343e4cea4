package api

import (
	"context"
	"errors"
	"net/http"
	"strconv"

	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
)

// statusHandlers serve real-time claim status (276/277): the contract's
// JSON and its raw-X12 sibling.
type statusHandlers struct{ svc *statusinquiry.Service }

func statusCaller(r *http.Request) payers.Caller {
	p := PrincipalFrom(r.Context())
	return payers.Caller{AccountID: p.AccountID, Mode: payers.Mode(p.Mode)}
}

// check is POST /2024-04-01/change/medicalnetwork/claimstatus/v2.
func (h statusHandlers) check(w http.ResponseWriter, r *http.Request) {
	var req statusinquiry.Request
	if err := DecodeJSON(r, &req); err != nil {
		WriteError(w, r, err)
		return
	}
	resp, err := h.svc.Check(r.Context(), statusCaller(r), &req)
	writeStatus(w, r, resp, err)
}

// checkRaw is POST …/claimstatus/v2/raw-x12 with {"x12": "…"}.
func (h statusHandlers) checkRaw(w http.ResponseWriter, r *http.Request) {
	var req struct {
		X12 string `json:"x12"`
	}
	if err := DecodeJSON(r, &req); err != nil {
		WriteError(w, r, err)
		return
	}
	resp, err := h.svc.CheckRaw(r.Context(), statusCaller(r), req.X12)
	writeStatus(w, r, resp, err)
}

func writeStatus(w http.ResponseWriter, r *http.Request, resp *statusinquiry.Response, err error) {
	var ve *statusinquiry.ValidationError
	var pe *statusinquiry.Problem
	switch {
	case errors.As(err, &ve):
		fields := make([]FieldError, len(ve.Fields))
		for i, f := range ve.Fields {
			fields[i] = FieldError{Path: f.Path, Message: f.Message}
		}
		WriteError(w, r, ValidationMore(fields, ve.More))
	case errors.As(err, &pe):
		WriteError(w, r, Errorf(pe.Status, pe.Code, "%s", pe.Message))
	case err != nil:
		WriteError(w, r, err)
	default:
		WriteJSON(w, http.StatusOK, resp)
	}
}

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

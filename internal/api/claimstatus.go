package api

import (
	"errors"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
)

// statusHandlers serve real-time claim status (276/277): the contract's
// JSON and its raw-X12 sibling.
type statusHandlers struct{ svc *statusinquiry.Service }

func statusCaller(r *http.Request) payers.Caller {
	p := httpkit.PrincipalFrom(r.Context())
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
	var pe *statusinquiry.Problem
	switch {
	case errors.As(err, &pe):
		WriteError(w, r, Errorf(pe.Status, pe.Code, "%s", pe.Message))
	case err != nil:
		WriteError(w, r, err)
	default:
		WriteJSON(w, http.StatusOK, resp)
	}
}

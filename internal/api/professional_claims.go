package api

import (
	"net/http"
	"reflect"

	"github.com/clearhouse/clearhouse/internal/claims"
)

// Professional claim routes (837P, api-contract.md §4.3): the Professional
// Claims v3 JSON submission, its validation (every check, nothing sent)
// and the raw-X12 submission. Same headers and answers as dental.

// submitProfessional is POST …/professionalclaims/v3/submission.
func (h *claimHandlers) submitProfessional(w http.ResponseWriter, r *http.Request) {
	var req claims.ProfessionalRequest
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.SubmitProfessional(r.Context(), claimSubmission(r, body, claims.ProfessionalRoute), &req)
	writeClaimResult(w, r, res, err, unknownFields(body, reflect.TypeFor[claims.ProfessionalRequest]())...)
}

// validateProfessional is POST …/professionalclaims/v3/validation.
func (h *claimHandlers) validateProfessional(w http.ResponseWriter, r *http.Request) {
	var req claims.ProfessionalRequest
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.ValidateProfessionalClaim(r.Context(), claimSubmission(r, body, "professionalclaims/v3/validation"), &req)
	writeClaimResult(w, r, res, err, unknownFields(body, reflect.TypeFor[claims.ProfessionalRequest]())...)
}

// submitProfessionalRaw is POST …/professionalclaims/v3/raw-x12-submission.
func (h *claimHandlers) submitProfessionalRaw(w http.ResponseWriter, r *http.Request) {
	var req claims.RawRequest
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.SubmitProfessionalRaw(r.Context(), rawSubmission(r, body, req))
	writeClaimResult(w, r, res, err)
}

// claimSubmission is a JSON claim call: its caller, body and headers.
func claimSubmission(r *http.Request, body []byte, route string) claims.Submission {
	return claims.Submission{Caller: claimCaller(r), Body: body, Route: route, IdempotencyKey: r.Header.Get("Idempotency-Key"),
		TransactionSettingID: r.Header.Get("Service-Transaction-Setting-Id")}
}

// rawSubmission is a raw-X12 claim call.
func rawSubmission(r *http.Request, body []byte, req claims.RawRequest) claims.RawSubmission {
	return claims.RawSubmission{Caller: claimCaller(r), X12: req.X12, Body: body,
		IdempotencyKey: r.Header.Get("Idempotency-Key"), TransactionSettingID: r.Header.Get("Service-Transaction-Setting-Id")}
}

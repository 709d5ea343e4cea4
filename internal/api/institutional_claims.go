package api

import (
	"net/http"
	"reflect"

	"github.com/clearhouse/clearhouse/internal/claims"
)

// Institutional claim routes (837I, api-contract.md §4.3): the
// Institutional Claims v1 JSON submission and the raw-X12 submission. Same
// headers and answers as dental.

// submitInstitutional is POST …/institutionalclaims/v1/submission.
func (h *claimHandlers) submitInstitutional(w http.ResponseWriter, r *http.Request) {
	var req claims.InstitutionalRequest
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.SubmitInstitutional(r.Context(), claimSubmission(r, body, claims.InstitutionalRoute), &req)
	writeClaimResult(w, r, res, err, unknownFields(body, reflect.TypeFor[claims.InstitutionalRequest]())...)
}

// submitInstitutionalRaw is POST …/institutionalclaims/v1/raw-x12-submission.
func (h *claimHandlers) submitInstitutionalRaw(w http.ResponseWriter, r *http.Request) {
	var req claims.RawRequest
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.SubmitInstitutionalRaw(r.Context(), rawSubmission(r, body, req))
	writeClaimResult(w, r, res, err)
}

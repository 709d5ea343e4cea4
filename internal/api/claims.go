package api

import (
	"errors"
	"net/http"
	"reflect"
	"strconv"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/httpkit"
)

// claimHandlers serve the dental claim routes (api-contract.md §4): the
// JSON submission and its raw-X12 sibling.
type claimHandlers struct{ svc *claims.Service }

func claimCaller(r *http.Request) claims.Caller {
	p := httpkit.PrincipalFrom(r.Context())
	return claims.Caller{AccountID: p.AccountID, KeyID: p.KeyID, Mode: p.Mode}
}

// readJSONBody keeps the body's bytes (the Idempotency-Key's request
// hash; the fields no part of v reads) and decodes it into v.
func readJSONBody(r *http.Request, v any) ([]byte, error) {
	body, _, err := readJSONBodyPlain(r, v)
	return body, err
}

// readJSONBodyPlain is readJSONBody, also saying whether the body was
// plain (decodeJSONBody): then it has no unknown fields. The body is read
// once; a body that cannot be read is refused before its Content-Type.
func readJSONBodyPlain(r *http.Request, v any) (body []byte, plain bool, err error) {
	body, err = readBody(r)
	if err != nil {
		return nil, false, decodeError(err)
	}
	if err := jsonContentType(r); err != nil {
		return body, false, err
	}
	plain, err = decodeJSONBody(body, v)
	return body, plain, err
}

// submit is POST /2024-04-01/dental-claims/submission.
func (h *claimHandlers) submit(w http.ResponseWriter, r *http.Request) {
	var req claims.Request
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	sub := claimSubmission(r, body, "dental-claims/submission")
	sub.Request = &req
	res, err := h.svc.Submit(r.Context(), sub)
	writeClaimResult(w, r, res, err, unknownFields(body, reflect.TypeFor[claims.Request]())...)
}

// submitRaw is POST /2024-04-01/dental-claims/raw-x12-submission.
func (h *claimHandlers) submitRaw(w http.ResponseWriter, r *http.Request) {
	var req claims.RawRequest
	body, err := readJSONBody(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.SubmitRaw(r.Context(), rawSubmission(r, body, req))
	writeClaimResult(w, r, res, err)
}

// writeClaimResult writes the claims service's answer, naming the request's
// unknown fields: in the fieldList of a validation error, or as warnings.
func writeClaimResult(w http.ResponseWriter, r *http.Request, res *claims.Result, err error, unknown ...unknownField) {
	if err != nil {
		WriteError(w, r, withUnknownFieldProblems(claimError(err), unknown))
		return
	}
	res.Body = withUnknownFields(res.Body, unknown)
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Content-Length", strconv.Itoa(len(res.Body)))
	if res.Replayed {
		w.Header().Set("Idempotent-Replayed", "true")
	}
	w.WriteHeader(res.Status)
	w.Write(res.Body)
}

// withField names the request field an error is about in its fieldList.
func withField(e *Error, path string) *Error {
	if path != "" {
		e.FieldList = []FieldError{{Path: path, Message: e.Message}}
	}
	return e
}

// claimError maps the claims service's errors to the contract's statuses.
func claimError(err error) error {
	var (
		fe  *claims.ForbiddenError
		ne  *claims.NotConfiguredError
		ife *claims.InFlightError
		kre *claims.KeyReusedError
	)
	switch {
	case errors.As(err, &fe):
		return withField(Errorf(http.StatusForbidden, CodeForbidden, "%s", fe.Message), fe.Field)
	case errors.As(err, &ne):
		return withField(Errorf(http.StatusBadRequest, CodeBadRequest, "%s", ne.Message), ne.Field)
	case errors.As(err, &ife):
		e := Errorf(http.StatusConflict, CodeConflict, "%s", ife.Error())
		e.RetryAfter = int(ife.RetryAfter.Seconds() + 0.999)
		return e
	case errors.As(err, &kre):
		return Errorf(http.StatusUnprocessableEntity, "REQUEST_CHANGED", "%s", kre.Error())
	}
	return err
}

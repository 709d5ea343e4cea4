package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Error codes of the contract's error body {"code", "message"}.
const (
	CodeBadRequest         = "BAD_REQUEST"
	CodeValidation         = "VALIDATION_ERROR"
	CodeUnauthorized       = "UNAUTHORIZED"
	CodeForbidden          = "FORBIDDEN"
	CodeNotFound           = "NOT_FOUND"
	CodeMethodNotAllowed   = "METHOD_NOT_ALLOWED"
	CodeConflict           = "CONFLICT"
	CodePayloadTooLarge    = "PAYLOAD_TOO_LARGE"
	CodeUnsupportedMedia   = "UNSUPPORTED_MEDIA_TYPE"
	CodeTooManyRequests    = "TOO_MANY_REQUESTS"
	CodeInternal           = "INTERNAL_ERROR"
	CodeServiceUnavailable = "SERVICE_UNAVAILABLE"
	CodeGatewayTimeout     = "GATEWAY_TIMEOUT"
)

// FieldError names one invalid field of a request body by JSON Pointer
// ("/provider/npi") and says what is wrong and how to fix it.
type FieldError struct {
	Path    string `json:"path"`
	Message string `json:"message"`
}

// Error is an error with its HTTP status and the contract's body. Handlers
// return or write it; any other error becomes a 500 whose text is logged
// but not sent.
type Error struct {
	Status    int          `json:"-"`
	Code      string       `json:"code"`
	Message   string       `json:"message"`
	FieldList []FieldError `json:"fieldList,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Errorf builds an *Error. The message may echo what the caller sent, never
// other data.
func Errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Validation builds the 400 VALIDATION_ERROR with one entry per problem.
func Validation(fields ...FieldError) *Error {
	msg := "The request is invalid: 1 problem; see fieldList."
	if len(fields) != 1 {
		msg = fmt.Sprintf("The request is invalid: %d problems; see fieldList.", len(fields))
	}
	return &Error{Status: http.StatusBadRequest, Code: CodeValidation, Message: msg, FieldList: fields}
}

// WriteJSON writes v as the JSON response body with the given status.
func WriteJSON(w http.ResponseWriter, status int, v any) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <api-key> readable; this is not HTML
	if err := enc.Encode(v); err != nil {
		status = http.StatusInternalServerError
		buf.Reset()
		buf.WriteString(`{"code":"INTERNAL_ERROR","message":"The response could not be encoded."}` + "\n")
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(buf.Bytes())
}

// WriteError writes err in the contract's error format. *Error keeps its
// status; store.ErrNotFound is a 404; a store that cannot serve
// (store.IsUnavailable) is a 503; anything else is logged with the
// request id and answered with a generic 500.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var e *Error
	switch {
	case errors.As(err, &e):
	case errors.Is(err, store.ErrNotFound):
		e = Errorf(http.StatusNotFound, CodeNotFound, "Not found.")
	case errors.Is(err, store.ErrBadCursor):
		e = Errorf(http.StatusBadRequest, CodeBadRequest, "The cursor is not valid; pass the nextCursor of a previous page unchanged.")
	case store.IsUnavailable(err):
		// The database is down, full, read-only or too slow: the client's
		// request was fine and may be retried.
		Logger(r.Context()).Warn("store unavailable", "error", err.Error())
		w.Header().Set("Retry-After", "1")
		e = Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable,
			"Storage is unavailable, so nothing was read or changed; retry shortly (request id %s).", RequestID(r.Context()))
	default:
		Logger(r.Context()).Error("internal error", "error", err.Error())
		e = Errorf(http.StatusInternalServerError, CodeInternal,
			"Internal error; quote request id %s when reporting it.", RequestID(r.Context()))
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Key realm="clearhouse"`)
	}
	WriteJSON(w, e.Status, e)
}

// DecodeJSON reads the request body as one JSON value into v. Failures are
// *Error values ready for WriteError: 415 for a non-JSON content type, 413
// past the server's body limit, 400 for malformed JSON or trailing data.
func DecodeJSON(r *http.Request, v any) error {
	if ct := r.Header.Get("Content-Type"); ct != "" {
		mt, _, err := mime.ParseMediaType(ct)
		if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
			return Errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMedia,
				"Content-Type must be application/json, not %q.", ct)
		}
	}
	dec := json.NewDecoder(r.Body)
	if err := dec.Decode(v); err != nil {
		return decodeError(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		if err != nil {
			return decodeError(err)
		}
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body must hold one JSON value; found more after it.")
	}
	return nil
}

func decodeError(err error) *Error {
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &tooBig):
		return tooLarge(tooBig.Limit)
	case errors.Is(err, io.EOF):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body is empty; send a JSON object.")
	case errors.As(err, &syntax):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body is not valid JSON at byte %d: %v.", syntax.Offset, err)
	case errors.As(err, &typ):
		path := "/" + strings.ReplaceAll(typ.Field, ".", "/")
		return &Error{Status: http.StatusBadRequest, Code: CodeValidation,
			Message:   "The request is invalid: 1 problem; see fieldList.",
			FieldList: []FieldError{{Path: path, Message: fmt.Sprintf("must be a JSON %s, not %s", typ.Type.Kind(), typ.Value)}}}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body ends in the middle of a JSON value.")
	}
	return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body could not be read as JSON: %v.", err)
}

func tooLarge(limit int64) *Error {
	return Errorf(http.StatusRequestEntityTooLarge, CodePayloadTooLarge,
		"The request body is larger than the limit of %d bytes.", limit)
}

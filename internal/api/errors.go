package api

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net"
	"net/http"
	"os"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/problem"
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
	CodeRequestTimeout     = "REQUEST_TIMEOUT"
)

// FieldError names one invalid field of a request body by JSON Pointer
// ("/provider/npi") and says what is wrong and how to fix it.
type FieldError = problem.Field

// Error is an error with its HTTP status and the contract's body. Handlers
// return or write it; any other error becomes a 500 whose text is logged
// but not sent.
type Error struct {
	Status    int          `json:"-"`
	Code      string       `json:"code"`
	Message   string       `json:"message"`
	FieldList []FieldError `json:"fieldList,omitempty"`
	// RetryAfter, in seconds, is sent as the Retry-After header (409, 429).
	RetryAfter int `json:"-"`
}

func (e *Error) Error() string { return fmt.Sprintf("%d %s: %s", e.Status, e.Code, e.Message) }

// Errorf builds an *Error. The message may echo what the caller sent, never
// other data.
func Errorf(status int, code, format string, args ...any) *Error {
	return &Error{Status: status, Code: code, Message: fmt.Sprintf(format, args...)}
}

// Validation builds the 400 VALIDATION_ERROR with one entry per problem,
// at most findings.Max of them (see ValidationMore).
func Validation(fields ...FieldError) *Error { return ValidationMore(fields, 0) }

// ValidationMore builds the 400 VALIDATION_ERROR of fields and more
// problems found but not kept. The answer is bounded whatever was sent:
// at most findings.Max entries, each path and message cut to
// findings.MaxMessageBytes (messages echo what the caller sent), then one
// final entry counting the rest ("and 599,900 more problems").
func ValidationMore(fields []FieldError, more int) *Error {
	total := len(fields) + more
	if len(fields) > findings.Max {
		more += len(fields) - findings.Max
		fields = fields[:findings.Max]
	}
	list := make([]FieldError, 0, len(fields)+1)
	for _, f := range fields {
		list = append(list, FieldError{Path: findings.Clip(f.Path), Message: findings.Clip(f.Message)})
	}
	if more > 0 {
		list = append(list, FieldError{Path: "", Message: findings.MoreMessage(more)})
	}
	return &Error{Status: http.StatusBadRequest, Code: CodeValidation, Message: findings.Summary(total), FieldList: list}
}

// kindStatus is the status and code of each problem.Kind.
var kindStatus = map[problem.Kind]struct {
	status int
	code   string
}{
	problem.Forbidden:   {http.StatusForbidden, CodeForbidden},
	problem.Unavailable: {http.StatusServiceUnavailable, CodeServiceUnavailable},
}

// maxErrorMessage bounds an error's message; a fieldList entry is bounded
// by findings.MaxMessageBytes.
const maxErrorMessage = 2048

// clip cuts s to at most n bytes, at a character boundary, marking the cut
// with "…".
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return truncate(s, n-len("…"))
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

// WriteError writes err in the contract's error format, the one place
// errors become answers. *Error keeps its status; a *problem.Invalid (any
// package's validation error) is the 400 VALIDATION_ERROR of its fields; a
// *problem.Error is its Kind's status with its Message; store.ErrNotFound
// is a 404; a store that cannot serve
// (store.IsUnavailable) is a 503; anything else is logged with the
// request id and answered with a generic 500.
func WriteError(w http.ResponseWriter, r *http.Request, err error) {
	var (
		e       *Error
		invalid *problem.Invalid
		known   *problem.Error
	)
	switch {
	case errors.As(err, &e):
	case errors.As(err, &invalid):
		e = ValidationMore(invalid.Fields, invalid.More)
	case errors.As(err, &known) && kindStatus[known.Kind].status != 0:
		k := kindStatus[known.Kind]
		e = Errorf(k.status, k.code, "%s", known.Message)
	case errors.Is(err, store.ErrNotFound):
		e = Errorf(http.StatusNotFound, CodeNotFound, "Not found.")
	case errors.Is(err, store.ErrBadCursor):
		e = Errorf(http.StatusBadRequest, CodeBadRequest, "The cursor is not valid; pass the nextCursor of a previous page unchanged.")
	case store.IsInvalidInput(err):
		// Validation should have refused it before the database did:
		// logged so that it gets a rule of its own.
		httpkit.Logger(r.Context()).Warn("input refused by the store, not by validation", "error", err.Error())
		e = invalidInput()
	case store.IsUnavailable(err):
		// The database is down, full, read-only or too slow: the client's
		// request was fine and may be retried.
		httpkit.Logger(r.Context()).Warn("store unavailable", "error", err.Error())
		w.Header().Set("Retry-After", "1")
		e = Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable,
			"Storage is unavailable, so nothing was read or changed; retry shortly (request id %s).", httpkit.RequestID(r.Context()))
	default:
		httpkit.Logger(r.Context()).Error("internal error", "error", err.Error())
		e = Errorf(http.StatusInternalServerError, CodeInternal,
			"Internal error; quote request id %s when reporting it.", httpkit.RequestID(r.Context()))
	}
	if len(e.Message) > maxErrorMessage {
		// Messages echo what the caller sent (an id in the path may be
		// most of a megabyte): the answer stays small whatever was sent.
		cut := *e
		cut.Message = clip(e.Message, maxErrorMessage)
		e = &cut
	}
	if e.RetryAfter > 0 {
		w.Header().Set("Retry-After", strconv.Itoa(e.RetryAfter))
	}
	if e.Status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Key realm="clearhouse"`)
	}
	WriteJSON(w, e.Status, e)
}

// DecodeJSON reads the request body as one JSON value into v. Failures are
// *Error values ready for WriteError: 415 for a non-JSON content type, 413
// past the server's body limit, 408 for a body that does not arrive in
// time, 400 for malformed JSON or trailing data; a wrong type is a 400
// whose fieldList names the field by its JSON Pointer.
//
// The body is read whole into a buffer of its own size and decoded from
// there, so values that decode in place (eligibility.RawX12) may keep views
// of it: a large body costs itself and little more, where json.Decoder's
// doubling buffer and a string copy cost three times that.
func DecodeJSON(r *http.Request, v any) error {
	if err := jsonContentType(r); err != nil {
		return err
	}
	body, err := readBody(r)
	if err != nil {
		return decodeError(err)
	}
	_, err = decodeJSONBody(body, v)
	return err
}

// jsonContentType refuses a request whose Content-Type is set and is not
// JSON (415).
func jsonContentType(r *http.Request) error {
	ct := r.Header.Get("Content-Type")
	if ct == "" || ct == "application/json" { // what nearly every client sends: no parse
		return nil
	}
	mt, _, err := mime.ParseMediaType(ct)
	if err != nil || (mt != "application/json" && !strings.HasSuffix(mt, "+json")) {
		return Errorf(http.StatusUnsupportedMediaType, CodeUnsupportedMedia,
			"Content-Type must be application/json, not %q.", ct)
	}
	return nil
}

// decodeJSONBody decodes a request body read whole into v (DecodeJSON's
// errors). plain says decodeFast did it: the body then has no member v's
// type does not name (unknownFields would find none).
func decodeJSONBody(body []byte, v any) (plain bool, err error) {
	if len(bytes.TrimSpace(body)) == 0 {
		return false, decodeError(io.EOF)
	}
	if err := checkJSONBody(body); err != nil {
		return false, err
	}
	if decodeFast(body, v) {
		return true, nil
	}
	if err := json.Unmarshal(body, v); err != nil {
		var syntax *json.SyntaxError
		var typ *json.UnmarshalTypeError
		switch {
		case errors.As(err, &syntax) && strings.HasSuffix(syntax.Error(), "after top-level value"):
			return false, Errorf(http.StatusBadRequest, CodeBadRequest, "The request body must hold one JSON value; found more after it.")
		case errors.As(err, &syntax) && syntax.Error() == "unexpected end of JSON input":
			return false, decodeError(io.ErrUnexpectedEOF)
		case errors.As(err, &syntax):
			return false, syntaxError(body, syntax)
		case errors.As(err, &typ):
			typ.Field = jsonPointer(reflect.TypeOf(v), typ.Field)
		}
		return false, decodeError(err)
	}
	return false, nil
}

// syntaxError says where the body stops being JSON, by line and column,
// and names the most common mistake, a comma after the last field or item.
func syntaxError(body []byte, syntax *json.SyntaxError) *Error {
	at := int(min(max(syntax.Offset-1, 0), int64(len(body)))) // the offending byte
	line := 1 + bytes.Count(body[:at], []byte("\n"))
	column := 1 + utf8.RuneCount(body[bytes.LastIndexByte(body[:at], '\n')+1:at])
	problem := syntax.Error()
	if at < len(body) && (body[at] == '}' || body[at] == ']') {
		if before := bytes.TrimRight(body[:at], " \t\r\n"); len(before) > 0 && before[len(before)-1] == ',' {
			problem = fmt.Sprintf("a trailing comma before '%c'; JSON allows no comma after the last item, so remove it", body[at])
		}
	}
	return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body is not valid JSON at line %d, column %d: %s.", line, column, problem)
}

// readBody reads the whole body into a buffer sized by Content-Length (the
// server's MaxBytesReader bounds it either way), and closes a body read to
// its end: net/http, finding it open when the answer's header is written,
// would look for more of it through an io.LimitReader of its own (an
// allocation and a read, for every request with a body).
func readBody(r *http.Request) ([]byte, error) {
	if r.ContentLength < 0 || r.ContentLength > 64<<20 {
		b, err := io.ReadAll(r.Body)
		if err == nil {
			r.Body.Close()
		}
		return b, err
	}
	// One byte more than announced, so that reaching EOF needs no growth.
	buf := make([]byte, 0, r.ContentLength+1)
	for {
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)] // longer than announced
		}
		n, err := r.Body.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			r.Body.Close()
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
	}
}

// jsonPointer turns encoding/json's dotted field path into a JSON Pointer
// of JSON names only: the path names embedded structs by their Go type
// ("subscriber.Patient.dateOfBirth"), whose fields sit at the parent's
// level in the JSON ("/subscriber/dateOfBirth").
func jsonPointer(t reflect.Type, dotted string) string {
	if dotted == "" {
		return "/"
	}
	var b strings.Builder
	for _, name := range strings.Split(dotted, ".") {
		for t != nil && (t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice || t.Kind() == reflect.Array || t.Kind() == reflect.Map) {
			t = t.Elem()
		}
		if t != nil && t.Kind() == reflect.Struct {
			if f, ok := t.FieldByName(name); ok && f.Anonymous && !strings.Contains(string(f.Tag), "json:") {
				t = f.Type
				continue
			}
			t = jsonFieldType(t, name)
		} else {
			t = nil
		}
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(name, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// jsonFieldType is the type of the field of struct t whose JSON name is
// name, or nil.
func jsonFieldType(t reflect.Type, name string) reflect.Type {
	for _, f := range reflect.VisibleFields(t) {
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == name || (tag == "" && f.Name == name) {
			return f.Type
		}
	}
	return nil
}

// jsonKind names a Go type the way the JSON it takes is called.
func jsonKind(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string"
		}
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	case reflect.Pointer:
		return jsonKind(t.Elem())
	}
	return "number"
}

func decodeError(err error) *Error {
	var tooBig *http.MaxBytesError
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	var netErr net.Error
	switch {
	case errors.As(err, &tooBig):
		return tooLarge(tooBig.Limit)
	case errors.Is(err, io.EOF):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body is empty; send a JSON object.")
	case errors.As(err, &syntax):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body is not valid JSON at byte %d: %v.", syntax.Offset, err)
	case errors.As(err, &typ):
		return &Error{Status: http.StatusBadRequest, Code: CodeValidation,
			Message:   "The request is invalid: 1 problem; see fieldList.",
			FieldList: []FieldError{{Path: typ.Field, Message: fmt.Sprintf("must be a JSON %s, not %s", jsonKind(typ.Type), typ.Value)}}}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body ends in the middle of a JSON value.")
	case errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout()):
		// The read deadline passed. The error's text names the sockets;
		// the caller needs only what happened.
		return Errorf(http.StatusRequestTimeout, CodeRequestTimeout,
			"The request body did not arrive in time; send it whole and promptly.")
	case errors.As(err, &netErr):
		return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body could not be read: the connection failed while sending it.")
	}
	return Errorf(http.StatusBadRequest, CodeBadRequest, "The request body could not be read as JSON: %v.", err)
}

// invalidInput is the answer for a value the database cannot hold.
func invalidInput() *Error {
	return Errorf(http.StatusBadRequest, CodeBadRequest,
		"The request holds a value that cannot be stored: text that is not UTF-8 or holds a NUL character, "+
			"a string too long or a number out of range; correct it and send the request again.")
}

func tooLarge(limit int64) *Error {
	return Errorf(http.StatusRequestEntityTooLarge, CodePayloadTooLarge,
		"The request body is larger than the limit of %d bytes.", limit)
}

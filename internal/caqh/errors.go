package caqh

import (
	"fmt"

	"github.com/clearhouse/clearhouse/internal/logsafe"
)

// Envelope error codes (the rule's section 4.4). The field codes follow
// the rule's "<Field>Required" / "<Field>Illegal" pattern. The list is
// open: a server may answer a code not named here, and Client passes it
// through unchanged.
const (
	CodeSuccess                 = "Success"
	CodeUnAuthorized            = "UnAuthorized"
	CodeVersionMismatch         = "VersionMismatch"
	CodePayloadTypeNotSupported = "PayloadTypeNotSupported"
	CodeProcessingModeNotSupp   = "ProcessingModeNotSupported"
	CodeSenderIDNotAuthorized   = "SenderIDNotAuthorized"
	CodeReceiverIDNotAuthorized = "ReceiverIDNotAuthorized"
	CodePayloadIllegal          = "PayloadIllegal"
	CodeServerError             = "ServerError"
	CodeRequestTooLarge         = "PayloadTooLarge"

	// Codes Client reports for failures that never reached an envelope.
	CodeTimeout      = "Timeout"      // no answer within the connection's time limit
	CodeUnreachable  = "Unreachable"  // DNS, TCP or TLS failed
	CodeHTTPStatus   = "HTTPStatus"   // an HTTP error without a CORE envelope
	CodeBadEnvelope  = "BadEnvelope"  // an answer that is not a CORE envelope
	CodeSOAPFault    = "SOAPFault"    // a SOAP 1.2 Fault
	CodeNotPermitted = "NotPermitted" // the SSRF guard refused the address
)

// Required and Illegal build the per-field codes ("PayloadIDRequired").
func Required(field string) string { return field + "Required" }

// Illegal is the code of a field whose value is not allowed.
func Illegal(field string) string { return field + "Illegal" }

// Error is an exchange that brought no X12 answer: the CORE error code
// (from the payer's envelope, or one of Client's own codes), its message,
// and the HTTP status when there was one. It never carries the payload.
type Error struct {
	Code       string
	Message    string
	HTTPStatus int
	// TimedOut is set when the time limit ran out (Code is CodeTimeout).
	TimedOut bool
	Err      error
}

func (e *Error) Error() string {
	msg := "CORE error " + e.Code
	if e.HTTPStatus != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.HTTPStatus)
	}
	if e.Message != "" {
		msg += ": " + e.Message
	}
	return msg
}

// Unwrap returns the underlying network or context error, if any.
func (e *Error) Unwrap() error { return e.Err }

// LogSafe describes the failure for the log (logsafe.Describer): the
// code, the HTTP status and the class of the network error, never
// Message, which can quote the payer's answer.
func (e *Error) LogSafe() string {
	msg := "CORE error " + e.Code
	if e.HTTPStatus != 0 {
		msg += fmt.Sprintf(" (HTTP %d)", e.HTTPStatus)
	}
	if e.Err != nil {
		msg += ": " + logsafe.Describe(e.Err)
	}
	return msg
}

// ErrorCode is the CORE error code (payers.ExchangeError).
func (e *Error) ErrorCode() string { return e.Code }

// Timeout reports whether the time limit ran out (payers.ExchangeError).
func (e *Error) Timeout() bool { return e.TimedOut }

package caqh

import (
	"bytes"
	"fmt"
	"regexp"
	"time"
)

// Namespaces and fixed values of the rule.
const (
	// Namespace is the CORE envelope's XML namespace (the rule's XSD).
	Namespace = "http://www.caqh.org/SOAP/WSDL/CORERule2.2.0.xsd"
	// SOAPNamespace is SOAP 1.2's envelope namespace; the rule requires 1.2.
	SOAPNamespace = "http://www.w3.org/2003/05/soap-envelope"
	// WSSENamespace is WS-Security 1.0's header namespace.
	WSSENamespace = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-wssecurity-secext-1.0.xsd"
	// PasswordText is the UsernameToken password type the rule uses.
	PasswordText = "http://docs.oasis-open.org/wss/2004/01/oasis-200401-wss-username-token-profile-1.0#PasswordText"

	// RuleVersion is the CORERuleVersion this package speaks.
	RuleVersion = "2.2.0"
	// RealTime is the ProcessingMode of a real-time exchange.
	RealTime = "RealTime"
)

// Payload types of real-time eligibility (the rule's PayloadType table).
const (
	PayloadType270   = "X12_270_Request_005010X279A1"
	PayloadType271   = "X12_271_Response_005010X279A1"
	PayloadType276   = "X12_276_Request_005010X212"
	PayloadType277   = "X12_277_Response_005010X212"
	PayloadType999   = "X12_999_Response_005010X231A1"
	PayloadTypeTA1   = "X12_TA1_Response_00501X231A1"
	PayloadTypeError = "CoreEnvelopeError"
)

// Envelope is the CORE metadata and payload of one message, request or
// response. ErrorCode and ErrorMessage are set on responses only; the
// credentials travel beside it (SOAP header or MIME parts), not in it.
type Envelope struct {
	PayloadType     string
	ProcessingMode  string
	PayloadID       string
	TimeStamp       string
	SenderID        string
	ReceiverID      string
	CORERuleVersion string
	Payload         []byte
	ErrorCode       string
	ErrorMessage    string
}

// Credentials are the UsernameToken (SOAP) or UserName/Password parts
// (MIME) of a request.
type Credentials struct {
	Username string
	Password string
}

// Kind names an envelope standard.
type Kind string

// The two envelope standards of the rule.
const (
	SOAP Kind = "SOAP"
	MIME Kind = "MIME"
)

// Request builds the envelope of a real-time 270, or of a 276 when the
// payload is a claim status request.
func Request(payload []byte, payloadID, senderID, receiverID string, now time.Time) *Envelope {
	payloadType := PayloadType270
	if requestSet(payload) == "276" {
		payloadType = PayloadType276
	}
	return &Envelope{
		PayloadType: payloadType, ProcessingMode: RealTime, PayloadID: payloadID,
		TimeStamp: FormatTimeStamp(now), SenderID: senderID, ReceiverID: receiverID,
		CORERuleVersion: RuleVersion, Payload: payload,
	}
}

// FormatTimeStamp writes t as the rule's xsd:dateTime, in UTC.
func FormatTimeStamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05Z") }

// parseTimeStamp accepts xsd:dateTime with or without a zone and
// fractional seconds (senders differ).
func parseTimeStamp(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02T15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not an xsd:dateTime", s)
}

// uuidPattern is RFC 4122's textual form; the rule requires a UUID
// PayloadID.
var uuidPattern = regexp.MustCompile(`^[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}$`)

// payloadTypeOf names the payload type of an X12 answer by its first
// transaction set (ST01), or TA1 for an interchange that has only a TA1.
func payloadTypeOf(x []byte) string {
	x = bytes.TrimLeft(x, " \t\r\n")
	sep := byte('*')
	if len(x) > 3 && bytes.HasPrefix(x, []byte("ISA")) {
		sep = x[3] // the ISA's own element separator
	}
	st := func(id string) []byte { return []byte("ST" + string(sep) + id + string(sep)) }
	switch {
	case bytes.Contains(x, st("271")):
		return PayloadType271
	case bytes.Contains(x, st("277")):
		return PayloadType277
	case bytes.Contains(x, st("999")):
		return PayloadType999
	case bytes.Contains(x, []byte("TA1"+string(sep))):
		return PayloadTypeTA1
	}
	return PayloadType271
}

// requestSet is the ST01 of a request payload ("270", "276"), "" when it
// has none.
func requestSet(x []byte) string {
	x = bytes.TrimLeft(x, " \t\r\n")
	if len(x) < 4 || !bytes.HasPrefix(x, []byte("ISA")) {
		return ""
	}
	sep := x[3]
	i := bytes.Index(x, []byte("ST"+string(sep)))
	if i < 0 || len(x) < i+6 {
		return ""
	}
	return string(x[i+3 : i+6])
}

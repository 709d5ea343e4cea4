package caqh

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/netguard"
)

// DefaultTimeout bounds one exchange: the rule gives a payer 20 seconds
// to answer a real-time 270; we wait a little longer for the network.
const DefaultTimeout = 30 * time.Second

// DefaultMaxResponseBytes bounds an answer. A 271 is tens of kilobytes;
// large plans with many benefits reach a few hundred.
const DefaultMaxResponseBytes = 8 << 20

// Client sends real-time 270s to one CORE endpoint. It implements
// payers.Connection and is safe for concurrent use.
type Client struct {
	// URL is the endpoint (https:// in production).
	URL string
	// Kind picks the envelope: SOAP (default) or MIME.
	Kind Kind
	// Credentials go in the UsernameToken or the MIME parts; empty when
	// the client authenticates with a TLS certificate only.
	Credentials Credentials
	// SenderID and ReceiverID are the trading-partner ids agreed with the
	// payer.
	SenderID, ReceiverID string
	// HTTP sends the request. It must dial through netguard (see
	// connections.Build); nil uses a guarded client that refuses private
	// addresses.
	HTTP *http.Client
	// Timeout bounds one exchange (default DefaultTimeout); the caller's
	// context may end it sooner.
	Timeout time.Duration
	// MaxResponseBytes bounds an answer (default DefaultMaxResponseBytes).
	MaxResponseBytes int64
	// Now dates the envelope (default time.Now).
	Now func() time.Time
}

// Exchange sends one 270 interchange and returns the payer's X12 answer (a
// 271, or a 999 rejecting the 270). Every failure is an *Error whose Code
// says what went wrong: the payer's ErrorCode, or CodeTimeout,
// CodeUnreachable, CodeHTTPStatus, CodeSOAPFault, CodeBadEnvelope.
func (c *Client) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	timeout := c.Timeout
	if timeout <= 0 {
		timeout = DefaultTimeout
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	req, err := c.newRequest(ctx, request)
	if err != nil {
		return nil, err
	}
	resp, err := c.httpClient(timeout).Do(req)
	if err != nil {
		return nil, transportError(ctx, err, timeout)
	}
	defer resp.Body.Close()
	return c.readAnswer(ctx, resp, timeout)
}

// newRequest builds the HTTP request for the configured envelope.
func (c *Client) newRequest(ctx context.Context, x12 []byte) (*http.Request, error) {
	now := time.Now
	if c.Now != nil {
		now = c.Now
	}
	env := Request(x12, NewPayloadID(), c.SenderID, c.ReceiverID, now())
	var body []byte
	var contentType string
	switch c.kind() {
	case MIME:
		var err error
		body, contentType, err = MarshalMIME(env, &c.Credentials, "")
		if err != nil {
			return nil, &Error{Code: CodeBadEnvelope, Message: err.Error(), Err: err}
		}
	default:
		body = MarshalSOAPRequest(env, c.Credentials)
		contentType = SOAPContentType + `; action="RealTimeTransaction"`
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return nil, &Error{Code: CodeUnreachable, Message: "the connection's URL is not usable: " + err.Error(), Err: err}
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("Accept", "application/soap+xml, multipart/form-data, text/xml")
	return req, nil
}

func (c *Client) kind() Kind {
	if strings.EqualFold(string(c.Kind), string(MIME)) {
		return MIME
	}
	return SOAP
}

func (c *Client) httpClient(timeout time.Duration) *http.Client {
	if c.HTTP != nil {
		return c.HTTP
	}
	return netguard.New(netguard.Options{}).Client(timeout)
}

// readAnswer turns the HTTP answer into the payload or an *Error.
func (c *Client) readAnswer(ctx context.Context, resp *http.Response, timeout time.Duration) ([]byte, error) {
	limit := c.MaxResponseBytes
	if limit <= 0 {
		limit = DefaultMaxResponseBytes
	}
	raw, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	if err != nil {
		return nil, transportError(ctx, err, timeout)
	}
	if int64(len(raw)) > limit {
		return nil, &Error{Code: CodeBadEnvelope, HTTPStatus: resp.StatusCode, Message: fmt.Sprintf("the answer is larger than %d bytes", limit)}
	}
	env, fault, perr := parseAnswer(resp.Header.Get("Content-Type"), raw, limit)
	switch {
	case perr != nil && (resp.StatusCode == http.StatusUnauthorized || resp.StatusCode == http.StatusForbidden):
		return nil, &Error{Code: CodeUnAuthorized, HTTPStatus: resp.StatusCode, Message: "the payer refused the credentials"}
	case perr != nil && resp.StatusCode != http.StatusOK:
		return nil, &Error{Code: CodeHTTPStatus, HTTPStatus: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	case perr != nil:
		return nil, &Error{Code: CodeBadEnvelope, HTTPStatus: resp.StatusCode, Message: perr.Error(), Err: perr}
	case fault != nil:
		return nil, &Error{Code: CodeSOAPFault, HTTPStatus: resp.StatusCode, Message: strings.TrimSpace(fault.Code + " " + fault.Subcode + ": " + fault.Reason)}
	case env.ErrorCode != "" && env.ErrorCode != CodeSuccess:
		return nil, &Error{Code: env.ErrorCode, HTTPStatus: resp.StatusCode, Message: env.ErrorMessage}
	case resp.StatusCode != http.StatusOK:
		return nil, &Error{Code: CodeHTTPStatus, HTTPStatus: resp.StatusCode, Message: http.StatusText(resp.StatusCode)}
	case env.PayloadType == PayloadTypeError:
		return nil, &Error{Code: CodeBadEnvelope, HTTPStatus: resp.StatusCode, Message: "a CoreEnvelopeError without an error code: " + env.ErrorMessage}
	case len(env.Payload) == 0:
		return nil, &Error{Code: CodeBadEnvelope, HTTPStatus: resp.StatusCode, Message: "the response envelope has no payload"}
	}
	return env.Payload, nil
}

// parseAnswer reads a SOAP or MIME answer, by its Content-Type.
func parseAnswer(contentType string, raw []byte, limit int64) (*Envelope, *Fault, error) {
	if strings.HasPrefix(strings.ToLower(strings.TrimSpace(contentType)), "multipart/") {
		env, _, err := ParseMIME(bytes.NewReader(raw), contentType, limit)
		return env, nil, err
	}
	return ParseSOAPResponse(bytes.NewReader(raw))
}

// transportError classifies a failed HTTP exchange.
func transportError(ctx context.Context, err error, timeout time.Duration) *Error {
	var ne net.Error
	switch {
	case errors.Is(err, netguard.ErrBlocked):
		return &Error{Code: CodeNotPermitted, Message: "the address is not allowed (private or reserved network)", Err: err}
	case errors.Is(ctx.Err(), context.DeadlineExceeded), errors.Is(err, context.DeadlineExceeded), errors.As(err, &ne) && ne.Timeout():
		return &Error{Code: CodeTimeout, TimedOut: true, Message: fmt.Sprintf("no answer within %s", timeout), Err: err}
	case errors.Is(err, context.Canceled):
		return &Error{Code: "Canceled", Message: "the request was canceled", Err: err}
	}
	// The detail (host, address, TLS failure) goes to logs and to
	// `clearhouse connections test`, not to API callers.
	return &Error{Code: CodeUnreachable, Message: "the payer's endpoint could not be reached", Err: err}
}

// NewPayloadID returns a random (version 4) UUID, the rule's PayloadID.
func NewPayloadID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

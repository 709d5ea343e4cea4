// Package upstream reaches another clearinghouse through its public API
// (the hosted API's contract, which Clearhouse serves too): our own 270 to
// its eligibility raw-x12 endpoint, our own 837 to its raw-x12-submission
// endpoint, and its answers (999, 277CA, 835) back by polling its
// transactions and fetching their input X12. The connection type is
// CLEARINGHOUSE_API (package connections declares it).
package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"strings"
	"sync/atomic"
	"time"

	"github.com/clearhouse/clearhouse/internal/logsafe"
)

// DefaultTimeout bounds one call when the connection sets none.
const DefaultTimeout = 30 * time.Second

// MaxAnswerBytes bounds what one call reads back: a 271 with every
// benefit of a large plan is well under 1 MiB; an 835 a few MiB.
const MaxAnswerBytes = 16 << 20

// Client is one CLEARINGHOUSE_API connection: the upstream's base URLs and
// the API key of the account there. It is safe for concurrent use.
type Client struct {
	// ID names the connection in every error (never the key).
	ID string
	// URL is the upstream's healthcare API base (…/2024-04-01 or the
	// host, see Path), CoreURL its EDI core base (…/2023-08-01).
	URL, CoreURL string
	// APIKey is the opened key; it leaves only in the Authorization
	// header.
	APIKey string
	// HTTP dials through the SSRF guard (netguard.Guard.Client).
	HTTP    *http.Client
	Timeout time.Duration
}

// Error is a call that got no usable answer. It satisfies
// payers.ExchangeError, so the eligibility service answers it as the payer
// being unable to respond (AAA 42), naming the connection.
type Error struct {
	Connection string
	Op         string // "eligibility", "claim", "poll", "fetch", "probe"
	HTTPStatus int    // 0 when no HTTP answer came
	Message    string
	timeout    bool
	// sent: the whole request was written before the call failed, so the
	// upstream may have acted on it (a claim may be accepted there).
	sent bool
	// refused: the connection cannot be used at all (its configuration),
	// so no other route is tried and its breaker is not charged.
	refused bool
	Err     error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("upstream connection %s: %s", e.Connection, e.Op)
	if e.HTTPStatus != 0 {
		s += fmt.Sprintf(": HTTP %d", e.HTTPStatus)
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

func (e *Error) Unwrap() error { return e.Err }

// LogSafe describes the failure for the log (logsafe.Describer): the
// connection, the step, the class and the HTTP status, never Message,
// which can quote the upstream's answer (and a member's name or id in it).
func (e *Error) LogSafe() string {
	s := "upstream connection " + e.Connection + ": " + e.Op + ": " + e.ErrorCode()
	if e.HTTPStatus != 0 {
		s += fmt.Sprintf(" (HTTP %d)", e.HTTPStatus)
	}
	if e.Err != nil {
		s += ": " + logsafe.Describe(e.Err)
	}
	return s
}

// ErrorCode names the failure the way CAQH CORE codes do.
func (e *Error) ErrorCode() string {
	switch {
	case e.refused:
		return "NotConfigured"
	case e.timeout:
		return "Timeout"
	case e.HTTPStatus == http.StatusUnauthorized || e.HTTPStatus == http.StatusForbidden:
		return "UnAuthorized"
	case e.HTTPStatus >= 500:
		return "ServerError"
	case e.HTTPStatus == 0:
		return "Unreachable"
	}
	return fmt.Sprintf("HTTP%d", e.HTTPStatus)
}

// Timeout reports whether the call's time limit ran out.
func (e *Error) Timeout() bool { return e.timeout }

// FailOver reports whether another route may take the request: the
// upstream could not be reached, did not answer in time, or failed on its
// side (5xx, 429). A refused key or a refused request is not an outage
// and must not move to another route (the error names the connection).
func (e *Error) FailOver() bool {
	if e.refused {
		return false
	}
	return e.HTTPStatus == 0 || e.HTTPStatus >= 500 || e.HTTPStatus == http.StatusTooManyRequests
}

// Auth reports whether the upstream refused the API key.
func (e *Error) Auth() bool {
	return e.HTTPStatus == http.StatusUnauthorized || e.HTTPStatus == http.StatusForbidden
}

func (c *Client) timeout() time.Duration {
	if c.Timeout > 0 {
		return c.Timeout
	}
	return DefaultTimeout
}

// do sends one request and returns the answer's status and body (bounded).
// Any answer is returned; transport failures become *Error.
func (c *Client) do(ctx context.Context, op, method, url string, body []byte, header http.Header) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	// Whether the request left in full decides, for a claim, between
	// another route (it did not) and the same one again (it may have).
	var sent atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(i httptrace.WroteRequestInfo) {
		if i.Err == nil {
			sent.Store(true)
		}
	}})
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return 0, nil, &Error{Connection: c.ID, Op: op, Message: "bad URL: " + err.Error(), Err: err}
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Authorization", "Key "+c.APIKey)
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, nil, c.transportError(op, ctx, err, sent.Load())
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswerBytes+1))
	if err != nil {
		return 0, nil, c.transportError(op, ctx, err, true)
	}
	if len(data) > MaxAnswerBytes {
		return resp.StatusCode, nil, &Error{Connection: c.ID, Op: op, HTTPStatus: resp.StatusCode, sent: true,
			Message: fmt.Sprintf("answer larger than %d bytes", MaxAnswerBytes)}
	}
	return resp.StatusCode, data, nil
}

func (c *Client) transportError(op string, ctx context.Context, err error, sent bool) error {
	var ne net.Error
	timeout := errors.Is(ctx.Err(), context.DeadlineExceeded) || (errors.As(err, &ne) && ne.Timeout())
	msg := err.Error()
	if timeout {
		msg = fmt.Sprintf("no answer within %s", c.timeout())
	}
	return &Error{Connection: c.ID, Op: op, Message: msg, timeout: timeout, sent: sent, Err: err}
}

// statusError turns a non-2xx answer into *Error, quoting the upstream's
// message (its error bodies carry no PHI: they name fields).
func (c *Client) statusError(op string, status int, body []byte) error {
	msg := http.StatusText(status)
	var problem struct {
		Message string `json:"message"`
		Code    string `json:"code"`
	}
	if json.Unmarshal(body, &problem) == nil && problem.Message != "" {
		msg = problem.Message
	}
	if status == http.StatusUnauthorized || status == http.StatusForbidden {
		msg = "the upstream refused this connection's API key (" + msg + "); check apiKey of connection " + c.ID
	}
	if len(msg) > 300 {
		msg = msg[:300] + "…"
	}
	return &Error{Connection: c.ID, Op: op, HTTPStatus: status, Message: msg}
}

// join appends path to base without doubling or dropping the slash.
func join(base, path string) string {
	return strings.TrimRight(base, "/") + "/" + strings.TrimLeft(path, "/")
}

// download reads a signed document link: no Authorization header (the
// link is its own credential, and may point at an object store), the same
// guard, time limit and size bound.
func (c *Client) download(ctx context.Context, link string) (int, []byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout())
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, link, nil)
	if err != nil {
		return 0, nil, &Error{Connection: c.ID, Op: "fetch", Message: "bad document link: " + err.Error(), Err: err}
	}
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return 0, nil, c.transportError("fetch", ctx, err, false)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxAnswerBytes+1))
	if err != nil {
		return 0, nil, c.transportError("fetch", ctx, err, true)
	}
	if len(data) > MaxAnswerBytes {
		return resp.StatusCode, nil, &Error{Connection: c.ID, Op: "fetch", HTTPStatus: resp.StatusCode,
			Message: fmt.Sprintf("document larger than %d bytes", MaxAnswerBytes)}
	}
	return resp.StatusCode, data, nil
}

package eligibility

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// History records each check. The store satisfies it.
type History interface {
	InsertEligibilityCheck(ctx context.Context, c store.EligibilityCheck) error
}

// DefaultTimeout bounds one exchange with a payer: payers typically give up
// at about 60 s.
const DefaultTimeout = 60 * time.Second

// Config wires a Service.
type Config struct {
	// Router picks the payer connection for (mode, payer). Required.
	Router *payers.Router
	// Numbers hands out the 270's control numbers. Production needs a
	// source that stays unique across restarts and replicas; nil uses an
	// in-memory counter seeded from the clock.
	Numbers x12.ControlNumbers
	// History records every check; nil records nothing.
	History History
	// Clock dates the 270 and the history records; nil is the system clock.
	Clock clock.Clock
	// Envelope is our identity in the 270 (ISA06, TRN03, ...).
	Envelope Envelope
	// SubmitterID is reported as meta.submitterId (default Envelope.SenderID).
	SubmitterID string
	// Timeout bounds the exchange with the payer (default 60 s).
	Timeout time.Duration
	// CostMicros is recorded for each production check (test checks are free).
	CostMicros int64
	// Logger receives operational events; never PHI.
	Logger *slog.Logger
	// PayerCallsPerKey caps the checks one API key may have waiting on one
	// payer connection at once; more answer 429. 0 is
	// DefaultPayerCallsPerKey; negative turns the cap off.
	PayerCallsPerKey int
}

// Service runs eligibility checks. It is safe for concurrent use.
type Service struct {
	cfg   Config
	calls *payerCalls
}

// Router is the payer router the service sends through (claim status
// shares it: the same connections reach the same payers).
func (s *Service) Router() *payers.Router { return s.cfg.Router }

// NewService checks cfg and fills its defaults.
func NewService(cfg Config) (*Service, error) {
	if cfg.Router == nil {
		return nil, errors.New("eligibility: NewService needs a payer router")
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Numbers == nil {
		// Seeded from the clock so that a restart rarely repeats a recent
		// interchange control number.
		start := cfg.Clock.Now().Unix() % 900_000_000
		cfg.Numbers = &x12.SequentialControlNumbers{Interchange: start, Group: start}
	}
	if cfg.Envelope.SenderID == "" {
		cfg.Envelope.SenderID = DefaultSenderID
	}
	if cfg.SubmitterID == "" {
		cfg.SubmitterID = cfg.Envelope.SenderID
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.DiscardHandler)
	}
	if cfg.PayerCallsPerKey == 0 {
		cfg.PayerCallsPerKey = DefaultPayerCallsPerKey
	}
	return &Service{cfg: cfg, calls: &payerCalls{max: cfg.PayerCallsPerKey}}, nil
}

// Caller is who asks: the authenticated API key.
type Caller struct {
	AccountID string
	KeyID     string
	Mode      payers.Mode
}

// Problem is the contract's generic error body {"code", "message",
// "fieldList"} (the same JSON as api.Error).
type Problem struct {
	Code      string       `json:"code"`
	Message   string       `json:"message"`
	FieldList []FieldError `json:"fieldList,omitempty"`
}

// Error codes of Problem bodies.
const (
	CodeValidation      = "VALIDATION_ERROR"
	CodeForbidden       = "FORBIDDEN"
	CodeBadRequest      = "BAD_REQUEST"
	CodePayerTimeout    = "GATEWAY_TIMEOUT"
	CodePayerUnavail    = "SERVICE_UNAVAILABLE"
	CodeBadPayerAnswer  = "BAD_GATEWAY"
	CodeInternal        = "INTERNAL_ERROR"
	CodeRequestCanceled = "REQUEST_CANCELED"
	CodeTooManyRequests = "TOO_MANY_REQUESTS"
)

// History statuses of a check.
const (
	StatusActive   = "active"   // an EB01 1–5
	StatusInactive = "inactive" // an EB01 6–8 and none of 1–5
	StatusRejected = "rejected" // the payer answered with AAA errors
	StatusInvalid  = "invalid"  // the request failed validation
	StatusError    = "error"    // not configured, not mocked, timeout, unreadable answer
	StatusUnknown  = "unknown"  // a 271 without coverage status
)

// Result is the outcome of a check: the HTTP status and body to answer
// with, and what history keeps.
type Result struct {
	ID         string
	HTTPStatus int
	// Exactly one of Response (an eligibility-shaped body) and Problem is set.
	Response *Response
	Problem  *Problem
	// Status is the history status (StatusActive, ...).
	Status string
	Payer  payers.Payer // zero when the payer is unknown
	// ControlNumber is the ISA13 of the 270 we sent, if one was built.
	ControlNumber string
	// SubmitterControlNumber is the caller's own number: the request's
	// controlNumber (BHT03 of the 270), or the BHT03 of a raw 270.
	SubmitterControlNumber string
	X12Request             []byte // the 270 sent, if any
	X12Answer              []byte // the payer's 271 or 999, if any
	// Route is the production connection that answered (or refused).
	Route     string
	CreatedAt time.Time
	Duration  time.Duration
	// NotRecorded is set when the check could not be stored: the answer is
	// then a 503 Problem and ID is empty.
	NotRecorded bool
	// JSON is Body encoded (HTML characters unescaped, newline-terminated),
	// set when the check is recorded: history keeps these bytes and the API
	// writes them, so the answer is encoded once.
	JSON []byte
	// Simulation names the payer simulator scenario that answered a
	// test-mode check (nil: the published mocks, or a real payer).
	Simulation *payers.Simulation

	keys historyKeys // what history is searched by
	buf  *bodyBuffer // holds JSON until Release
}

// Body is what the API writes with HTTPStatus.
func (r *Result) Body() any {
	if r.Response != nil {
		return r.Response
	}
	return r.Problem
}

// Check runs one eligibility check: validate, route to the payer's
// connection for the caller's mode, build the 270, exchange it within the
// timeout, map the 271, and record the check. Every outcome is a Result
// (api-contract.md §1.6): 200 with benefits or with the payer's AAA
// errors, 400 with a field list for an invalid request, 400 with an
// eligibility-shaped body for an unknown or unconfigured payer, 403 for a
// test key whose request is not a published mock request, 504/503/502 when
// the payer does not answer, cannot be reached, or answers nonsense. The
// error is reserved for failures of our own (the 270 could not be built).
func (s *Service) Check(ctx context.Context, caller Caller, req *Request) (*Result, error) {
	// As json.Marshal writes it (TestRequestJSONIsCurrent), before
	// validation brings its strings into the X12 character set.
	reqJSON := requestJSON(req)
	res, started := s.begin(req.ControlNumber)
	res.keys = keysOf(req, res.CreatedAt)
	err := s.check(ctx, caller, req, res)
	s.finish(ctx, caller, res, reqJSON, started)
	return res, err
}

func (s *Service) check(ctx context.Context, caller Caller, req *Request, res *Result) error {
	var known *payers.Payer
	if p, ok := s.cfg.Router.Directory().Lookup(req.TradingPartnerServiceID); ok {
		known = &p
	}
	if err := Validate(req, known); err != nil {
		var ve *ValidationError
		errors.As(err, &ve)
		res.fail(http.StatusBadRequest, StatusInvalid, &Problem{Code: CodeValidation, Message: validationMessage(len(ve.Fields) + ve.More), FieldList: listed(ve)})
		return nil
	}
	route, ok := s.route(res, caller, req.TradingPartnerServiceID, known)
	if !ok {
		return nil
	}
	trace := strings.ToUpper(store.NewID())
	built, err := Build270(req, route.Payer, Build270Options{
		Envelope: s.cfg.Envelope, Numbers: s.cfg.Numbers, TraceID: trace,
		Now: res.CreatedAt, Test: caller.Mode == payers.ModeTest, SubmitterControlNumber: req.ControlNumber,
	})
	if s.storageFailed(res, err) {
		return nil
	}
	if err != nil {
		res.fail(http.StatusInternalServerError, StatusError, &Problem{Code: CodeInternal, Message: "The 270 could not be built; quote " + res.ID + " when reporting it."})
		return fmt.Errorf("eligibility: check %s: %w", res.ID, err)
	}
	res.X12Request, res.ControlNumber = built.X12, built.Controls.Interchange
	s.exchange(ctx, caller, route, res, trace)
	return nil
}

// begin starts a Result; finish records it.
func (s *Service) begin(submitterControlNumber string) (*Result, time.Time) {
	res := &Result{ID: "ec_" + store.NewID(), CreatedAt: s.cfg.Clock.Now(), SubmitterControlNumber: submitterControlNumber}
	return res, time.Now()
}

// route finds the payer's connection for the caller's mode, or fills res
// with the not-configured answer. known is the directory's entry for
// payerID (nil when it has none), which the caller has looked up already.
func (s *Service) route(res *Result, caller Caller, payerID string, known *payers.Payer) (payers.Route, bool) {
	dir := s.cfg.Router.Directory()
	if p := known; p != nil {
		// Refused before any route is tried, so the answer says what to
		// do about the enrollment whatever the connections are.
		if err := dir.CheckEnrollment(*p, payers.Eligibility, caller.Mode == payers.ModeProduction, caller.AccountID); err != nil {
			res.fail(http.StatusForbidden, StatusError, &Problem{Code: CodeForbidden, Message: err.Error(),
				FieldList: []FieldError{{Path: "/tradingPartnerServiceId", Message: err.Error()}}})
			return payers.Route{}, false
		}
	}
	var route payers.Route
	var err error
	if known != nil {
		route, err = s.cfg.Router.RouteFound(caller.Mode, payerID, *known, payers.Eligibility)
	} else {
		route, err = s.cfg.Router.Route(caller.Mode, payerID, payers.Eligibility)
	}
	if err != nil {
		s.notConfigured(res, payerID, res.SubmitterControlNumber, err)
		return route, false
	}
	res.Payer = route.Payer
	return route, true
}

// exchange sends the 270 in res and fills res from the answer.
func (s *Service) exchange(ctx context.Context, caller Caller, route payers.Route, res *Result, trace string) {
	slot := payerCallKey{caller: caller.KeyID, connection: route.ConnectionName}
	if slot.caller == "" { // the console signs in as an account, not a key
		slot.caller = "account:" + caller.AccountID
	}
	if !s.calls.acquire(slot) {
		res.fail(http.StatusTooManyRequests, StatusError, &Problem{Code: CodeTooManyRequests, Message: fmt.Sprintf(
			"This API key already has %d checks waiting on payer %s; wait for one to finish, then retry (nothing was sent).",
			s.cfg.PayerCallsPerKey, route.Payer.ID)})
		return
	}
	defer s.calls.release(slot)
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	// The in-process mock answers with the account's own simulator
	// scenarios; a route to the account's own stored connection
	// (upstream.AccountRoute) resolves it for the caller. Other connections
	// never read it.
	ctx, rec, sims := payers.WithExchange(ctx, payers.Caller{AccountID: caller.AccountID, Mode: caller.Mode})
	answer, err := route.Connection.Exchange(ctx, res.X12Request)
	if all := sims.All(); len(all) > 0 {
		// Recorded with the check even when the scenario's answer is a
		// timeout or a dropped connection.
		res.Simulation = &all[len(all)-1]
	}
	if caller.Mode == payers.ModeProduction {
		res.Route = route.ConnectionName
		if answered, _ := rec.Answer(); answered != "" {
			res.Route = answered
		}
	}
	if err != nil {
		s.exchangeFailed(ctx, caller, route, res, err)
		return
	}
	res.X12Answer = answer
	text := string(answer) // the answer's X12, whose slices the mapping's strings are
	resp, err := map271(answer, text)
	if err != nil {
		s.cfg.Logger.Warn("eligibility: unreadable payer answer", "check", res.ID, "payer", route.Payer.ID, "connection", route.ConnectionName, logsafe.Error(err))
		res.fail(http.StatusBadGateway, StatusError, &Problem{Code: CodeBadPayerAnswer,
			Message: fmt.Sprintf("Payer %s answered with something that is not a 271; quote %s when reporting it.", route.Payer.ID, res.ID)})
		return
	}
	if resp.Meta == nil {
		resp.Meta = &Meta{}
	}
	meta := resp.Meta
	meta.SenderID, meta.SubmitterID, meta.OutboundTraceID = s.cfg.Envelope.SenderID, s.cfg.SubmitterID, trace
	if meta.ApplicationMode == "" {
		meta.ApplicationMode = string(caller.Mode)
	}
	resp.ID = res.ID
	resp.X12 = text
	res.Response, res.HTTPStatus, res.Status = resp, http.StatusOK, checkStatus(resp)
	if resp.TransactionSetAcknowledgement != "" {
		// The payer rejected the 270 itself with a 999.
		resp.Status = "ERROR"
		res.HTTPStatus, res.Status = http.StatusBadRequest, StatusError
	}
}

// exchangeFailed turns a connection error into the answer.
func (s *Service) exchangeFailed(ctx context.Context, caller Caller, route payers.Route, res *Result, err error) {
	var coded payers.ExchangeError
	var nc *payers.NotConfiguredError
	switch {
	case errors.As(err, &nc):
		// A route to a stored connection this account does not have.
		s.notConfigured(res, route.Payer.ID, res.SubmitterControlNumber, err)
	case caller.Mode == payers.ModeTest && errors.Is(err, payers.ErrNoMockMatch):
		res.fail(http.StatusForbidden, StatusError, &Problem{Code: CodeForbidden, Message: "This is a test API key: " + err.Error()})
	case errors.Is(err, payers.ErrInvalidInquiry):
		res.fail(http.StatusBadRequest, StatusError, &Problem{Code: CodeBadRequest, Message: "The payer could not read the 270: " + err.Error()})
	case caller.Mode == payers.ModeProduction && errors.As(err, &coded) && coded.ErrorCode() == caqhPayloadIllegal:
		// The payer read the 270 and refused its data (the mock payer
		// process refuses a 270 outside its mock set this way). That is
		// no outage: sending it again unchanged is refused again.
		res.fail(http.StatusBadRequest, StatusError, &Problem{Code: CodeBadRequest, Message: fmt.Sprintf(
			"Payer %s refused the 270 built from this request as invalid (%s); correct the request before sending it again.",
			route.Payer.ID, coded.Error())})
	case caller.Mode == payers.ModeProduction && errors.As(err, &coded) && !errors.Is(err, context.Canceled):
		s.cfg.Logger.Warn("eligibility: payer connection gave no answer", "check", res.ID, "payer", route.Payer.ID, "connection", route.ConnectionName, "code", coded.ErrorCode(), logsafe.Error(err))
		s.payerUnavailable(res, route, coded)
	case errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.fail(http.StatusGatewayTimeout, StatusError, &Problem{Code: CodePayerTimeout,
			Message: fmt.Sprintf("Payer %s did not answer within %s; try again later.", route.Payer.ID, s.cfg.Timeout)})
	case errors.Is(err, context.Canceled):
		res.fail(499, StatusError, &Problem{Code: CodeRequestCanceled, Message: "The request was canceled before the payer answered."})
	default:
		s.cfg.Logger.Warn("eligibility: payer exchange failed", "check", res.ID, "payer", route.Payer.ID, "connection", route.ConnectionName, logsafe.Error(err))
		res.fail(http.StatusServiceUnavailable, StatusError, &Problem{Code: CodePayerUnavail,
			Message: fmt.Sprintf("Payer %s could not be reached; try again later (check %s).", route.Payer.ID, res.ID)})
	}
}

// caqhPayloadIllegal is the CAQH CORE envelope's code for a payload the
// payer refuses as invalid (caqh.CodePayloadIllegal).
const caqhPayloadIllegal = "PayloadIllegal"

// storageFailed answers 503 when err says the store is unavailable (the
// control numbers for the 270 could not be reserved): nothing was sent to
// the payer, and the caller may retry.
func (s *Service) storageFailed(res *Result, err error) bool {
	if err == nil || !store.IsUnavailable(err) {
		return false
	}
	s.cfg.Logger.Warn("eligibility: storage unavailable before the exchange", "check", res.ID, "error", err.Error())
	res.fail(http.StatusServiceUnavailable, StatusError, &Problem{Code: CodePayerUnavail,
		Message: "Storage is unavailable, so nothing was sent to the payer. The request can be retried."})
	return true
}

// payerUnavailable answers a connection's coded failure (a CAQH CORE error
// code, or its time limit running out) the way a payer says it cannot
// answer: an eligibility-shaped body with AAA 42 "Unable to Respond at
// Current Time" at the payer loop, the code in the description, status
// ERROR. The HTTP status stays 504 (time limit) or 503, so clients that
// retry on status keep doing so; clients that read errors[] see the AAA
// they already handle.
func (s *Service) payerUnavailable(res *Result, route payers.Route, coded payers.ExchangeError) {
	status := http.StatusServiceUnavailable
	if coded.Timeout() {
		status = http.StatusGatewayTimeout
	}
	res.Response = &Response{
		ID:                      res.ID,
		ControlNumber:           res.ControlNumber,
		TradingPartnerServiceID: route.Payer.ID,
		Errors: []AAAError{{
			Field: "AAA", Code: "42",
			Description:    fmt.Sprintf("%s: payer %s gave no answer (%s).", aaaReasons.name("42"), route.Payer.ID, coded.Error()),
			FollowupAction: followupActionNames.name("P"), Location: "Loop 2100A",
			PossibleResolutions: aaaReasons.column("42", 1),
		}},
		Status: "ERROR",
	}
	res.Problem = nil
	res.HTTPStatus, res.Status = status, StatusError
}

func (r *Result) fail(status int, historyStatus string, p *Problem) {
	r.HTTPStatus, r.Status, r.Problem, r.Response = status, historyStatus, p, nil
}

func validationMessage(n int) string { return findings.Summary(n) }

// notConfigured answers an unknown or unconfigured payer with the
// eligibility-shaped 400 body of the contract: AAA 79 (Invalid Participant
// Identification, the code the troubleshooting docs show) and status ERROR.
func (s *Service) notConfigured(res *Result, payerID, controlNumber string, err error) {
	msg := err.Error()
	var nc *payers.NotConfiguredError
	if errors.As(err, &nc) {
		msg = fmt.Sprintf("Payer %s is not configured: %s. Check the payer id: %s.", nc.PayerID, nc.Reason, payers.WhereToFindPayers)
		if dir := s.cfg.Router.Directory(); !dir.Known(nc.PayerID) {
			msg = fmt.Sprintf("Payer %s is not configured: unknown payer id: tradingPartnerServiceId %q names no payer in this server's directory.%s Check the payer id: %s.",
				nc.PayerID, nc.PayerID, payers.DidYouMean(dir.Suggest(nc.PayerID, 3)), payers.WhereToFindPayers)
		}
	}
	res.Response = &Response{
		ID:                      res.ID,
		ControlNumber:           controlNumber,
		TradingPartnerServiceID: payerID,
		Errors: []AAAError{{
			Field: "AAA", Code: "79", Description: msg,
			FollowupAction: followupActionNames.name("C"), Location: "Loop 2100A",
			PossibleResolutions: aaaReasons.column("79", 1),
		}},
		Status: "ERROR",
	}
	res.HTTPStatus, res.Status = http.StatusBadRequest, StatusError
}

// checkStatus summarises a mapped 271 for history.
func checkStatus(r *Response) string {
	inactive := false
	for _, b := range r.BenefitsInformation {
		switch b.Code {
		case "1", "2", "3", "4", "5":
			return StatusActive
		case "6", "7", "8":
			inactive = true
		}
	}
	switch {
	case inactive:
		return StatusInactive
	case len(r.Errors) > 0:
		return StatusRejected
	}
	return StatusUnknown
}

// finish records the check. A check is answered only once its record (its
// own usage row too) is committed: when recording fails, the answer becomes a 503
// that says nothing was stored (the caller may retry), and res.ID is
// cleared so that no check id is handed out that would answer 404.
func (s *Service) finish(ctx context.Context, caller Caller, res *Result, requestJSON []byte, started time.Time) {
	err := s.record(ctx, caller, res, requestJSON, started)
	if err == nil {
		return
	}
	s.cfg.Logger.Error("eligibility: recording the check failed; answering 503", "check", res.ID, "status", res.HTTPStatus, "error", err.Error())
	res.NotRecorded, res.ID = true, ""
	res.fail(http.StatusServiceUnavailable, StatusError, &Problem{Code: CodePayerUnavail, Message: NotRecordedMessage})
	res.JSON = encodeBody(res.Problem)
}

// NotRecordedMessage answers a check whose record could not be stored.
const NotRecordedMessage = "The eligibility check could not be recorded because storage is unavailable, so nothing was stored " +
	"and no result is returned. The request can be retried."

// record writes the check to history (which the usage sums also read).
func (s *Service) record(ctx context.Context, caller Caller, res *Result, requestJSON []byte, started time.Time) error {
	res.Duration = time.Since(started)
	res.JSON, res.buf = encodeShared(res.Body())
	if s.cfg.History == nil {
		return nil
	}
	body := bytes.TrimSuffix(res.JSON, []byte("\n"))
	cost := int64(0)
	if caller.Mode == payers.ModeProduction && res.X12Answer != nil {
		cost = s.cfg.CostMicros
	}
	c := store.EligibilityCheck{
		ID: res.ID, AccountID: caller.AccountID, KeyID: caller.KeyID, Mode: string(caller.Mode),
		TradingPartnerServiceID: res.Payer.ID, PayerName: res.Payer.Name,
		ControlNumber: res.ControlNumber, SubmitterControlNumber: res.SubmitterControlNumber, Status: res.Status,
		RequestJSON: requestJSON, X12Request: res.X12Request, X12Response: res.X12Answer, ResponseJSON: body,
		HTTPStatus: res.HTTPStatus, CreatedAt: res.CreatedAt, DurationMicros: res.Duration.Microseconds(), CostMicros: cost,
		PatientName: res.keys.patientName, MemberID: res.keys.memberID,
		PatientBirthDate: res.keys.birthDate, ServiceDate: res.keys.serviceDate, Route: res.Route,
	}
	if sim := res.Simulation; sim != nil {
		c.Simulation = &store.SimulatedAnswer{Kind: sim.Kind, Scenario: sim.Scenario, Index: sim.Index, Line: sim.Line}
	}
	if c.TradingPartnerServiceID == "" && res.Response != nil {
		c.TradingPartnerServiceID = res.Response.TradingPartnerServiceID
	}
	// A client that hung up still gets its check recorded.
	wctx := context.WithoutCancel(ctx)
	join := audit.Join(ctx)
	g, grouped := s.cfg.History.(groupedHistory)
	if grouped {
		// The store's writer inserts under SQLite's one write lock (a
		// group commit's round, or the check batcher): pack the payload
		// here, beside the other requests, not there.
		c.Pack()
	}
	if join == nil || !grouped {
		return s.cfg.History.InsertEligibilityCheck(wctx, c)
	}
	// The request's audit entry commits with the check: one commit per
	// check (shared with the checks and entries arriving meanwhile), not
	// the check's and then the entry's.
	err := g.GroupInTx(wctx, func(tx store.Queries) error {
		if err := tx.InsertEligibilityCheck(wctx, c); err != nil {
			return err
		}
		return join.Record(wctx, tx, c.HTTPStatus, c.ID)
	})
	join.Committed(err == nil)
	return err
}

// groupedHistory is a History that also runs shared transactions (the
// store), so a check and its audit entry commit together.
type groupedHistory interface {
	GroupInTx(ctx context.Context, fn func(tx store.Queries) error) error
}

// encodeBody encodes an answer the way the API writes JSON: HTML
// characters unescaped, newline-terminated. nil if it cannot be encoded.
func encodeBody(v any) []byte {
	b, buf := encodeShared(v)
	if buf == nil {
		return nil
	}
	b = bytes.Clone(b)
	bodyBuffers.Put(buf)
	return b
}

// encodeShared is encodeBody into a buffer of bodyBuffers, returned with
// the bytes (nil, nil if v cannot be encoded): Result.Release gives it
// back once the answer is written. A *Response, the answer of nearly every
// check, is written by jsonw (encode.go); anything else by encoding/json.
func encodeShared(v any) ([]byte, *bodyBuffer) {
	buf := bodyBuffers.Get().(*bodyBuffer)
	buf.b = buf.b[:0]
	if r, ok := v.(*Response); ok && r != nil {
		w := jsonw{b: buf.b}
		w.response(r)
		buf.b = append(w.b, '\n')
		return buf.b, buf
	}
	enc := json.NewEncoder(buf)
	enc.SetEscapeHTML(false)
	if enc.Encode(v) != nil {
		bodyBuffers.Put(buf)
		return nil, nil
	}
	return buf.b, buf
}

// bodyBuffer is a pooled buffer an answer is encoded into.
type bodyBuffer struct{ b []byte }

func (b *bodyBuffer) Write(p []byte) (int, error) {
	b.b = append(b.b, p...)
	return len(p), nil
}

// Release gives the buffer that holds JSON back for another check's
// answer (JSON is nil after it). Call it once JSON has been written and is
// no longer used; a Result never released is simply collected.
func (r *Result) Release() {
	if r.buf == nil {
		return
	}
	if cap(r.buf.b) <= maxPooledBody {
		bodyBuffers.Put(r.buf)
	}
	r.JSON, r.buf = nil, nil
}

// maxPooledBody keeps an unusually large answer's buffer out of the pool.
const maxPooledBody = 256 << 10

// bodyBuffers are reused by encodeBody: an answer is 10–20 KB, and growing
// a fresh buffer to that size for every check cost more than the copy.
var bodyBuffers = sync.Pool{New: func() any { return new(bodyBuffer) }}

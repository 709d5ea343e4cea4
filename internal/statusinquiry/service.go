package statusinquiry

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// DefaultTimeout bounds one exchange with a payer.
const DefaultTimeout = 60 * time.Second

// Config wires a Service.
type Config struct {
	// Router picks the payer connection (test keys: the mock payers).
	Router *payers.Router
	// Numbers hands out the 276's interchange and group control numbers.
	Numbers x12.ControlNumbers
	// SenderID is ISA06 of every 276 (ISA08 is the payer's id).
	SenderID string
	Now      func() time.Time
	Timeout  time.Duration
	Logger   *slog.Logger
	// Record, when set, keeps a 277's claims as timeline entries of the
	// caller's own claims they name (package services); pcn is the
	// patient control number the request named, for a 277 that does not
	// echo it. A failure to record is logged; the answer is still given.
	Record func(ctx context.Context, caller payers.Caller, payerID, pcn string, claims []Claim) error
}

// Service answers claim status requests.
type Service struct{ cfg Config }

// New builds the service.
func New(cfg Config) (*Service, error) {
	if cfg.Router == nil || cfg.Numbers == nil {
		return nil, errors.New("statusinquiry: New needs a Router and Numbers")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.SenderID == "" {
		cfg.SenderID = "CLEARHOUSE"
	}
	return &Service{cfg: cfg}, nil
}

// Problem is an answer that is not a 277: its HTTP status, the contract's
// error code and what to do about it.
type Problem struct {
	Status  int
	Code    string
	Message string
}

func (p *Problem) Error() string { return p.Message }

// Check sends the request as a 276 to the payer it names and maps the 277.
// Errors: *ValidationError for a bad request, *Problem for a payer that is
// not configured, unreachable or answers with something else.
func (s *Service) Check(ctx context.Context, caller payers.Caller, req *Request) (*Response, error) {
	if err := req.Validate(); err != nil {
		return nil, err
	}
	route, err := s.route(caller, req.TradingPartnerServiceID)
	if err != nil {
		return nil, err
	}
	usage := "P"
	if caller.Mode == payers.ModeTest {
		usage = "T"
	}
	now := s.cfg.Now().UTC()
	trace := strconv.FormatInt(now.UnixNano()%1e12, 10)
	if req.ControlNumber != "" {
		trace = req.ControlNumber
	}
	x, err := Build(req, Envelope{SenderID: s.cfg.SenderID, ReceiverID: route.Payer.ID, Usage: usage, PayerName: route.Payer.Name}, s.cfg.Numbers, now, trace)
	if err != nil {
		if store.IsUnavailable(err) {
			return nil, &Problem{Status: http.StatusServiceUnavailable, Code: "SERVICE_UNAVAILABLE",
				Message: "Storage is unavailable, so nothing was sent to the payer. The request can be retried."}
		}
		return nil, err
	}
	xctx, cancel := context.WithTimeout(payers.WithCaller(ctx, caller), s.cfg.Timeout)
	defer cancel()
	answer, err := route.Connection.Exchange(xctx, x)
	if err != nil {
		return nil, s.exchangeFailed(ctx, route, err)
	}
	resp, err := Map(answer)
	if err != nil {
		s.cfg.Logger.Warn("statusinquiry: unreadable payer answer", "payer", route.Payer.ID, "connection", route.ConnectionName, logsafe.Error(err))
		return nil, &Problem{Status: http.StatusBadGateway, Code: "BAD_GATEWAY",
			Message: fmt.Sprintf("Payer %s answered the 276 with something that is not a 277.", route.Payer.ID)}
	}
	// The answer echoes who asked and about whom, as sent (the payer's
	// spelling is in the x12).
	resp.Providers = req.Providers
	if sub := req.Subscriber; sub != nil {
		resp.Subscriber = &Person{FirstName: sub.FirstName, LastName: sub.LastName, MemberID: sub.MemberID, Suffix: sub.Suffix}
	}
	if d := req.Dependent; d != nil {
		resp.Dependent = &Person{FirstName: d.FirstName, LastName: d.LastName, Suffix: d.Suffix}
	}
	resp.TradingPartnerServiceID = req.TradingPartnerServiceID
	pcn := ""
	if req.Encounter != nil {
		pcn = req.Encounter.PatientAccountNumber
	}
	s.record(ctx, caller, route, pcn, resp.Claims)
	resp.Meta.ApplicationMode = string(caller.Mode)
	resp.Meta.TraceID = trace
	resp.Meta.SenderID = s.cfg.SenderID
	resp.X12 = string(answer)
	return resp, nil
}

// record keeps the answer on the caller's claims it is about.
func (s *Service) record(ctx context.Context, caller payers.Caller, route payers.Route, pcn string, claims []Claim) {
	if s.cfg.Record == nil || len(claims) == 0 {
		return
	}
	if err := s.cfg.Record(ctx, caller, route.Payer.ID, pcn, claims); err != nil {
		s.cfg.Logger.Warn("statusinquiry: the answer could not be kept on the claim's timeline", "payer", route.Payer.ID,
			"account", caller.AccountID, logsafe.Error(err))
	}
}

// route finds the payer's connection for a 276, or the contract's error.
func (s *Service) route(caller payers.Caller, payerID string) (payers.Route, error) {
	dir := s.cfg.Router.Directory()
	if p, ok := dir.Lookup(payerID); ok {
		if err := dir.CheckEnrollment(p, payers.ClaimStatus, caller.Mode == payers.ModeProduction, caller.AccountID); err != nil {
			return payers.Route{}, &Problem{Status: http.StatusForbidden, Code: "FORBIDDEN", Message: err.Error()}
		}
	}
	route, err := s.cfg.Router.Route(caller.Mode, payerID, payers.ClaimStatus)
	var nc *payers.NotConfiguredError
	var un *payers.UnsupportedTransactionError
	switch {
	case errors.As(err, &nc):
		unknown := ""
		if !dir.Known(nc.PayerID) {
			unknown = " tradingPartnerServiceId names no payer in this server's directory." + payers.DidYouMean(dir.Suggest(nc.PayerID, 3))
		}
		return route, &Problem{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR",
			Message: fmt.Sprintf("Payer %s is not configured: %s.%s The payer directory (clearhouse payers list, or the --payers file) has the ids this server knows.", nc.PayerID, nc.Reason, unknown)}
	case errors.As(err, &un):
		return route, &Problem{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR",
			Message: fmt.Sprintf("Payer %s does not answer real-time claim status (276) electronically.", un.PayerID)}
	}
	return route, err
}

func (s *Service) exchangeFailed(ctx context.Context, route payers.Route, err error) error {
	var coded payers.ExchangeError
	var nc *payers.NotConfiguredError
	switch {
	case errors.As(err, &nc):
		// A route to a stored connection this account does not have.
		return &Problem{Status: http.StatusBadRequest, Code: "VALIDATION_ERROR",
			Message: fmt.Sprintf("Payer %s is not configured: %s.", route.Payer.ID, nc.Reason)}
	case errors.Is(err, context.Canceled) && ctx.Err() != nil:
		return &Problem{Status: 499, Code: "REQUEST_CANCELED", Message: "The request was canceled before the payer answered."}
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &coded) && coded.Timeout():
		return &Problem{Status: http.StatusGatewayTimeout, Code: "GATEWAY_TIMEOUT",
			Message: fmt.Sprintf("Payer %s did not answer within %s; try again later.", route.Payer.ID, s.cfg.Timeout)}
	default:
		s.cfg.Logger.Warn("statusinquiry: payer exchange failed", "payer", route.Payer.ID, "connection", route.ConnectionName, logsafe.Error(err))
		return &Problem{Status: http.StatusServiceUnavailable, Code: "SERVICE_UNAVAILABLE",
			Message: fmt.Sprintf("Payer %s could not be reached; try again later.", route.Payer.ID)}
	}
}

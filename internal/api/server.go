// Package api is Clearhouse's HTTP interface: routing on the standard
// ServeMux, API-key authentication, the contract's error format, request
// ids, access logs, metrics, health checks and the OpenAPI document.
//
// Every route is listed in one table, Server.routes (routes.go), read top to
// bottom; each domain's handlers live in their own file (eligibility.go,
// files.go, ...). Every route must also be described in openapi.json (a
// test enforces it).
package api

import (
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/statusinquiry"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/tenantdir"
	"github.com/clearhouse/clearhouse/internal/upstream"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Services are the finished services the routes serve; app.New builds
// them (the composition root). All are required but Secrets (nil: no
// secrets key, so storing one is refused), Directories and Payers (default
// payers.Default()).
type Services struct {
	Store       store.Store
	Clock       clock.Clock
	Logger      *slog.Logger
	Metrics     *prometheus.Registry // served at /metrics
	Secrets     *secrets.Box
	Core        *core.Service
	Eligibility *eligibility.Service
	// Payers names the payers of a check's printable summary (its PDF).
	Payers *payers.Directory
	// Directories is the operator's directory root (serve
	// --directory-root) DIRECTORY connections' folders live under; nil
	// refuses DIRECTORY connections.
	Directories *tenantdir.Root
	// ConnectionGuard is the SSRF guard connections dial through (serve's
	// --allow-private-connections); a stored SFTP host it refuses is a
	// 400 when the connection is created. Nil: checked only when dialled.
	ConnectionGuard *netguard.Guard
	Claims          *claims.Service
	// StatusInquiry answers real-time claim status (276/277).
	StatusInquiry *statusinquiry.Service
	Webhooks      *webhooks.Service
	// Events builds the public URLs of artifacts and reports (the same
	// Emitter the services record events with).
	Events *events.Emitter
	// UpstreamWebhook receives CLEARINGHOUSE_API upstreams' events (nil:
	// none are received).
	UpstreamWebhook *upstream.Webhook
}

// Route is one endpoint (httpkit.Route, which the console's routes are too).
type Route = httpkit.Route

// Options tune the server.
type Options struct {
	// MaxBodyBytes caps request bodies (413 beyond). Default 10 MiB.
	MaxBodyBytes int64
	// Version is reported in the clearhouse_build_info metric.
	Version string
	// RateLimit is the requests per second each API key may make (token
	// bucket, per process); 0 turns limits off. RateBurst is the bucket.
	RateLimit float64
	RateBurst int
	// Upload paces file uploads' read deadline (tests shorten it).
	Upload UploadPace
	// ExtraRoutes are added after the API's own (the console's pages; tests).
	ExtraRoutes []Route
}

// DefaultMaxBodyBytes is the request body limit unless Options say otherwise.
const DefaultMaxBodyBytes = 10 << 20

// Server is the HTTP handler of the whole API.
type Server struct {
	svc     Services
	mux     *http.ServeMux
	served  []RouteInfo
	auth    auth.Authenticator
	metrics *httpMetrics
	gather  prometheus.Gatherer
	maxBody int64
	limiter *keyLimiter // nil: no rate limits
	keyUse  *keyUse
	// recorder keeps the access audit of the routes in auditRules.
	recorder *audit.Recorder
	// authFailures limits failed authentications per source address.
	authFailures *httpkit.AuthFailures
	// bodyLimits holds the routes' own body limits, by pattern.
	bodyLimits map[string]int64
	upload     UploadPace
}

// RouteInfo describes a registered route.
type RouteInfo struct {
	Pattern string // "GET /healthz"
	Public  bool
}

// New builds the server: the route table (routes.go), then opts.ExtraRoutes.
func New(svc Services, opts Options) (*Server, error) {
	if svc.Store == nil || svc.Clock == nil || svc.Logger == nil || svc.Metrics == nil || svc.Core == nil ||
		svc.Eligibility == nil || svc.Claims == nil || svc.StatusInquiry == nil || svc.Webhooks == nil || svc.Events == nil {
		return nil, errors.New("api: Services need Store, Clock, Logger, Metrics, Core, Events, Eligibility, Claims, StatusInquiry and Webhooks (see app.New)")
	}
	if svc.Payers == nil {
		svc.Payers = payers.Default()
	}
	s := &Server{
		svc:          svc,
		mux:          http.NewServeMux(),
		auth:         auth.Authenticator{Keys: newKeyCache(svc.Store)},
		gather:       svc.Metrics,
		maxBody:      opts.MaxBodyBytes,
		limiter:      newKeyLimiter(opts.RateLimit, opts.RateBurst),
		keyUse:       &keyUse{keys: svc.Store, logger: svc.Logger},
		recorder:     audit.New(svc.Store, svc.Clock),
		authFailures: httpkit.NewAuthFailures(),
		upload:       opts.Upload.withDefaults(),
	}
	if s.maxBody <= 0 {
		s.maxBody = DefaultMaxBodyBytes
	}
	var err error
	if s.metrics, err = newHTTPMetrics(svc.Metrics, opts.Version); err != nil {
		return nil, err
	}
	if err := s.add(s.routes()); err != nil {
		return nil, err
	}
	if err := s.add(opts.ExtraRoutes); err != nil {
		return nil, err
	}
	return s, nil
}

func (s *Server) add(routes []Route) (err error) {
	for _, rt := range routes {
		method, _, ok := strings.Cut(rt.Pattern, " ")
		if !ok || method == "" || strings.HasPrefix(method, "/") {
			return fmt.Errorf("route %q: pattern must start with a method, e.g. \"GET /path\"", rt.Pattern)
		}
		if slices.ContainsFunc(s.served, func(ri RouteInfo) bool { return ri.Pattern == rt.Pattern }) {
			return fmt.Errorf("route %q registered twice", rt.Pattern)
		}
		h := s.audited(rt.Pattern, rt.Handler)
		if !rt.Public {
			h = s.requireKey(h)
		}
		func() {
			defer func() {
				if p := recover(); p != nil { // ServeMux panics on conflicting patterns
					err = fmt.Errorf("route %q: %v", rt.Pattern, p)
				}
			}()
			s.mux.Handle(rt.Pattern, h)
		}()
		if err != nil {
			return err
		}
		s.served = append(s.served, RouteInfo{Pattern: rt.Pattern, Public: rt.Public})
		if rt.MaxBodyBytes > 0 {
			if s.bodyLimits == nil {
				s.bodyLimits = map[string]int64{}
			}
			s.bodyLimits[rt.Pattern] = rt.MaxBodyBytes
		}
	}
	return nil
}

// Routes lists every registered route.
func (s *Server) Routes() []RouteInfo { return slices.Clone(s.served) }

// requireKey authenticates the request and puts the Principal in its
// context, or answers 401.
func (s *Server) requireKey(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		addr := httpkit.SourceOf(r)
		now := time.Now() // one reading for the tables below: a request is one instant to them
		if blocked, wait := s.authFailures.Blocked(addr, now); blocked {
			tooManyFailures(w, r, wait)
			return
		}
		p, err := s.auth.Authenticate(r.Context(), r.Header.Get("Authorization"))
		if err != nil {
			if msg, ok := authMessages[err]; ok {
				s.authFailures.Failed(addr, time.Now())
				WriteError(w, r, Errorf(http.StatusUnauthorized, CodeUnauthorized, "%s", msg))
				return
			}
			httpkit.Logger(r.Context()).Error("authentication failed", "error", err.Error())
			WriteError(w, r, Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable,
				"Authentication is unavailable; retry shortly."))
			return
		}
		s.keyUse.seen(p.KeyID, now)
		if s.limiter != nil {
			if ok, wait := s.limiter.allow(p.KeyID, now); !ok {
				tooManyRequests(w, r.WithContext(httpkit.WithPrincipal(r.Context(), p)), wait)
				return
			}
		}
		next.ServeHTTP(w, r.WithContext(httpkit.WithPrincipal(r.Context(), p)))
	})
}

// authMessages tell the caller what is wrong with the key, and how to fix it.
var authMessages = map[error]string{
	auth.ErrMissingKey:   "Missing API key; send the header 'Authorization: Key <api-key>'.",
	auth.ErrMalformedKey: "Malformed API key; expected a key issued by 'clearhouse keys create' (test_… or live_…).",
	auth.ErrUnknownKey:   "Unknown API key.",
	auth.ErrRevokedKey:   "This API key has been revoked.",
}

// tooManyFailures answers 429 to an address that spent its failures.
func tooManyFailures(w http.ResponseWriter, r *http.Request, wait time.Duration) {
	secs := max(int(math.Ceil(wait.Seconds())), 1)
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	WriteError(w, r, Errorf(http.StatusTooManyRequests, CodeTooManyRequests,
		"Too many requests with a missing, unknown or revoked API key from this address; retry after %d s with a valid key.", secs))
}

// Package httpkit is the request plumbing the API and the console share,
// so that neither imports the other: the route type both hand to the
// composition root, the request's context (its id, logger and
// authenticated caller) and the per-address table of failed
// authentications.
package httpkit

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/clearhouse/clearhouse/internal/auth"
)

// Route is one endpoint. Pattern is a ServeMux pattern with a method:
// "POST /2024-04-01/change/medicalnetwork/eligibility/v3". Routes need an
// API key unless Public.
type Route struct {
	Pattern string
	Handler http.Handler
	Public  bool
	// MaxBodyBytes overrides the server's body limit for this route (file
	// uploads); 0 keeps it.
	MaxBodyBytes int64
}

// Info travels in the request context. The API server fills it before
// routing (WithInfo); the auth wrapper, or the console's session, adds
// the principal so the access log can name the account.
type Info struct {
	ID string
	// Base is the server's logger, without the request id: Logger adds it.
	Base      *slog.Logger
	Principal auth.Principal

	logger atomic.Pointer[slog.Logger] // Base with the request id, made on first use
}

// Logger is Base with the request id attached. It is made when a handler
// first logs, not for every request: slog's With copies the handler and
// formats the id, and the access log line (which every request writes)
// names the id itself.
func (i *Info) Logger() *slog.Logger {
	if l := i.logger.Load(); l != nil {
		return l
	}
	base := i.Base
	if base == nil {
		base = slog.Default()
	}
	l := base.With("request_id", i.ID)
	if !i.logger.CompareAndSwap(nil, l) {
		return i.logger.Load()
	}
	return l
}

type infoKey struct{}
type principalKey struct{}

// InfoFrom is the request's Info, nil outside a request the server routed.
func InfoFrom(ctx context.Context) *Info {
	info, _ := ctx.Value(infoKey{}).(*Info)
	return info
}

// PrincipalFrom returns the authenticated caller of the request. Handlers of
// authenticated routes always have one; elsewhere it is the zero Principal.
func PrincipalFrom(ctx context.Context) auth.Principal {
	if p, _ := ctx.Value(principalKey{}).(*auth.Principal); p != nil {
		return *p
	}
	return auth.Principal{}
}

// WithPrincipal returns ctx carrying p, as the auth middleware does (handy
// for calling a handler directly in a test).
func WithPrincipal(ctx context.Context, p auth.Principal) context.Context {
	if info := InfoFrom(ctx); info != nil {
		info.Principal = p
	}
	return &principalContext{Context: ctx, p: p}
}

// principalContext is context.WithValue(ctx, principalKey{}, p) in one
// allocation, not two (WithValue's and p's in an interface): Value hands
// out a pointer to its own copy, which nothing changes.
type principalContext struct {
	context.Context
	p auth.Principal
}

func (c *principalContext) Value(key any) any {
	if key == (principalKey{}) {
		return &c.p
	}
	return c.Context.Value(key)
}

// RequestID returns the request's id (also sent as X-Request-Id).
func RequestID(ctx context.Context) string {
	if info := InfoFrom(ctx); info != nil {
		return info.ID
	}
	return ""
}

// Logger returns the server's logger with the request id attached. Never
// log request or response bodies or anything identifying a patient.
func Logger(ctx context.Context) *slog.Logger {
	if info := InfoFrom(ctx); info != nil {
		return info.Logger()
	}
	return slog.Default()
}

// WithInfo returns ctx carrying info.
func WithInfo(ctx context.Context, info *Info) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// InfoContext is a context carrying Info, as WithInfo's, that a server can
// allocate with the rest of a request's own state (one allocation, not
// three): set Context and Info, then use a pointer to it. InfoFrom returns
// &Info.
type InfoContext struct {
	context.Context
	Info Info
}

func (c *InfoContext) Value(key any) any {
	if key == (infoKey{}) {
		return &c.Info
	}
	return c.Context.Value(key)
}

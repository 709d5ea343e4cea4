package api

import (
	"context"
	"log/slog"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/store"
)

// requestInfo travels in the request context. The server fills it before
// routing; the auth wrapper adds the principal so the access log can name
// the account.
type requestInfo struct {
	id        string
	logger    *slog.Logger
	principal auth.Principal
}

type infoKey struct{}
type principalKey struct{}

func infoFrom(ctx context.Context) *requestInfo {
	info, _ := ctx.Value(infoKey{}).(*requestInfo)
	return info
}

// PrincipalFrom returns the authenticated caller of the request. Handlers of
// authenticated routes always have one; elsewhere it is the zero Principal.
func PrincipalFrom(ctx context.Context) auth.Principal {
	p, _ := ctx.Value(principalKey{}).(auth.Principal)
	return p
}

// WithPrincipal returns ctx carrying p, as the auth middleware does (handy
// for calling a handler directly in a test).
func WithPrincipal(ctx context.Context, p auth.Principal) context.Context {
	if info := infoFrom(ctx); info != nil {
		info.principal = p
	}
	return context.WithValue(ctx, principalKey{}, p)
}

// RequestID returns the request's id (also sent as X-Request-Id).
func RequestID(ctx context.Context) string {
	if info := infoFrom(ctx); info != nil {
		return info.id
	}
	return ""
}

// Logger returns the server's logger with the request id attached. Never
// log request or response bodies or anything identifying a patient.
func Logger(ctx context.Context) *slog.Logger {
	if info := infoFrom(ctx); info != nil {
		return info.logger
	}
	return slog.Default()
}

func withInfo(ctx context.Context, info *requestInfo) context.Context {
	return context.WithValue(ctx, infoKey{}, info)
}

// tenant is q as the request's key sees it: its account in its mode.
// Handlers read tenant records only through it (store.Tenant).
func tenant(r *http.Request, q store.Queries) store.Tenant {
	p := PrincipalFrom(r.Context())
	return store.ForTenant(q, store.Scope{AccountID: p.AccountID, Mode: p.Mode})
}

package api

import (
	"net/http"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// tenant is q as the request's key sees it: its account in its mode.
// Handlers read tenant records only through it (store.Tenant).
func tenant(r *http.Request, q store.Queries) store.Tenant {
	p := httpkit.PrincipalFrom(r.Context())
	return store.ForTenant(q, store.Scope{AccountID: p.AccountID, Mode: p.Mode})
}

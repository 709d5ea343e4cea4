package api

import (
	"errors"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/practice"
	"github.com/clearhouse/clearhouse/internal/store"
)

// practiceHandlers serve a practice's saved providers (package practice):
// /2024-04-01/practice/billing-providers and …/rendering-providers, each
// a list, create, read, replace and delete in the key's account and mode.
// The hosted contract has no such resource; docs/decisions.md says why
// these paths and shapes.
type practiceHandlers struct {
	svc  *practice.Service
	role string
}

func practiceScope(r *http.Request) store.Scope {
	p := httpkit.PrincipalFrom(r.Context())
	return store.Scope{AccountID: p.AccountID, Mode: p.Mode}
}

func (h practiceHandlers) fail(w http.ResponseWriter, r *http.Request, err error) {
	var inv *practice.Invalid
	switch {
	case errors.As(err, &inv):
		err = Validation(inv.Fields...)
	case errors.Is(err, store.ErrNotFound):
		err = Errorf(http.StatusNotFound, CodeNotFound, "No %s provider %q for this API key's account and mode.", h.role, r.PathValue("id"))
	}
	WriteError(w, r, err)
}

func (h practiceHandlers) list(w http.ResponseWriter, r *http.Request) {
	items, err := h.svc.List(r.Context(), practiceScope(r), h.role)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"items": items})
}

func (h practiceHandlers) get(w http.ResponseWriter, r *http.Request) {
	p, err := h.svc.Get(r.Context(), practiceScope(r), h.role, r.PathValue("id"))
	if err != nil {
		h.fail(w, r, err)
		return
	}
	WriteJSON(w, http.StatusOK, p)
}

func (h practiceHandlers) create(w http.ResponseWriter, r *http.Request) {
	h.save(w, r, "", http.StatusCreated)
}

func (h practiceHandlers) replace(w http.ResponseWriter, r *http.Request) {
	h.save(w, r, r.PathValue("id"), http.StatusOK)
}

func (h practiceHandlers) save(w http.ResponseWriter, r *http.Request, id string, status int) {
	var in practice.Input
	if err := DecodeJSONStrict(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	p, err := h.svc.Save(r.Context(), practiceScope(r), h.role, id, in)
	if err != nil {
		h.fail(w, r, err)
		return
	}
	WriteJSON(w, status, p)
}

func (h practiceHandlers) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.Delete(r.Context(), practiceScope(r), h.role, r.PathValue("id")); err != nil {
		h.fail(w, r, err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/clearhouse/clearhouse/internal/store"
)

// pdfHandler serves a check's one-page printable summary for the patient's
// chart. Same visibility as the check: the key's account and mode only.
type pdfHandler struct {
	checks store.Queries
	render func(store.EligibilityCheck) ([]byte, error) // nil: 404
}

// get is GET /2024-04-01/eligibility-checks/{id}/pdf.
func (h pdfHandler) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := tenant(r, h.checks).EligibilityCheck(r.Context(), id)
	if err == nil && h.render == nil {
		err = Errorf(http.StatusNotFound, CodeNotFound, "This server does not render check summaries.")
	}
	if errors.Is(err, store.ErrNotFound) {
		err = Errorf(http.StatusNotFound, CodeNotFound, "No eligibility check %s for this API key's account and mode.", id)
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	b, err := h.render(c)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	hdr := w.Header()
	inertDocument(hdr, "application/pdf", "eligibility-"+c.ID+".pdf")
	hdr.Set("Content-Length", strconv.Itoa(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

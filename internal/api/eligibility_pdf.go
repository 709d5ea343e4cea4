package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// pdfHandler serves a check's one-page printable summary for the patient's
// chart. Same visibility as the check: the key's account and mode only.
type pdfHandler struct {
	checks store.Queries
	payers *payers.Directory
}

// get is GET /2024-04-01/eligibility-checks/{id}/pdf.
func (h pdfHandler) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	c, err := tenant(r, h.checks).EligibilityCheck(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		err = Errorf(http.StatusNotFound, CodeNotFound, "No eligibility check %s for this API key's account and mode.", id)
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	b, err := summary.PDF(summary.New(c, h.payers))
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

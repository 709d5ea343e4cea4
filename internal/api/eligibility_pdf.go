package api

import (
	"errors"
	"net/http"
	"strconv"

	"github.com/clearhouse/clearhouse/internal/store"
)

func init() { RegisterModule("eligibility_pdf", eligibilityPDFRoutes) }

// eligibilityPDFRoutes: GET /2024-04-01/eligibility-checks/{id}/pdf, a
// check's one-page printable summary for the patient's chart (rendered by
// the console's layout, Env.EligibilityPDF). Same visibility as the check:
// the key's account and mode only.
func eligibilityPDFRoutes(env Env) ([]Route, error) {
	h := func(w http.ResponseWriter, r *http.Request) {
		p := PrincipalFrom(r.Context())
		id := r.PathValue("id")
		c, err := env.Store.GetEligibilityCheck(r.Context(), p.AccountID, id)
		if err == nil && c.Mode != p.Mode {
			err = store.ErrNotFound
		}
		if err == nil && env.EligibilityPDF == nil {
			err = Errorf(http.StatusNotFound, CodeNotFound, "This server does not render check summaries.")
		}
		if errors.Is(err, store.ErrNotFound) {
			err = Errorf(http.StatusNotFound, CodeNotFound, "No eligibility check %s for this API key's account and mode.", id)
		}
		if err != nil {
			WriteError(w, r, err)
			return
		}
		b, err := env.EligibilityPDF(c)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		h := w.Header()
		inertDocument(h, "application/pdf", "eligibility-"+c.ID+".pdf")
		h.Set("Content-Length", strconv.Itoa(len(b)))
		w.WriteHeader(http.StatusOK)
		w.Write(b)
	}
	return []Route{{Pattern: "GET /2024-04-01/eligibility-checks/{id}/pdf", Handler: http.HandlerFunc(h)}}, nil
}

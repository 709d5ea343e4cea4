package web

import (
	"fmt"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
)

// resultPDF is GET /checks/{id}/pdf: the summary of a check of the
// signed-in account, for the result page's link (the browser has a session,
// not an API key; the API serves the same file).
func (c *Console) resultPDF(w http.ResponseWriter, r *http.Request) {
	ch, ok := c.ownCheck(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	b, err := summary.PDF(summary.New(ch, c.cfg.Payers))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	WritePDF(w, ch.ID, b)
}

// WritePDF answers with a summary PDF, shown in the browser (inline) and
// saved as eligibility-<id>.pdf. PHI: never cached.
func WritePDF(w http.ResponseWriter, id string, b []byte) {
	w.Header().Set("Content-Type", "application/pdf")
	w.Header().Set("Content-Disposition", `inline; filename="eligibility-`+id+`.pdf"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Header().Set("Content-Length", fmt.Sprint(len(b)))
	w.WriteHeader(http.StatusOK)
	w.Write(b)
}

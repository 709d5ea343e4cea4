package api

import (
	"net/http"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// usageHandler serves the caller's metered calls, summed per key (test
// calls cost 0).
type usageHandler struct{ store store.Queries }

// get is GET /2024-04-01/usage.
func (h usageHandler) get(w http.ResponseWriter, r *http.Request) {
	from, to, err := timeRange(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	totals, err := tenant(r, h.store).Usage(r.Context(), from, to)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	type item struct {
		KeyID      string `json:"keyId"`
		Kind       string `json:"kind"`
		Mode       string `json:"mode"`
		Count      int64  `json:"count"`
		CostMicros int64  `json:"costMicros"`
	}
	items := []item{}
	for _, t := range totals {
		items = append(items, item{t.KeyID, t.Kind, t.Mode, t.Count, t.CostMicros})
	}
	WriteJSON(w, http.StatusOK, map[string]any{"items": items})
}

// timeRange reads the optional RFC 3339 query parameters from and to.
func timeRange(r *http.Request) (from, to time.Time, err error) {
	var fields []FieldError
	parse := func(name string) time.Time {
		v := r.URL.Query().Get(name)
		if v == "" {
			return time.Time{}
		}
		t, perr := time.Parse(time.RFC3339, v)
		if perr != nil {
			fields = append(fields, FieldError{Path: "/query/" + name, Message: "must be an RFC 3339 time such as 2026-01-31T00:00:00Z"})
		}
		return t
	}
	from, to = parse("from"), parse("to")
	if len(fields) > 0 {
		return from, to, Validation(fields...)
	}
	return from, to, nil
}

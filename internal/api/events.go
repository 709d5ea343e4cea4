package api

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

type eventHandlers struct{ store store.Queries }

var detailTypes = []string{events.TransactionProcessed, events.FragmentProcessed, events.FileProcessed,
	events.FileDelivered, events.FileFailed, events.ClaimStatusChanged}

// list is GET /2023-08-01/events: the caller's events of the key's mode,
// newest first, as their stored envelopes. Filters: detailType,
// executionId, transactionId, from, to; paging: pageSize, pageToken.
func (h eventHandlers) list(w http.ResponseWriter, r *http.Request) {
	p := httpkit.PrincipalFrom(r.Context())
	l := parseListQuery(r)
	f := store.EventFilter{Mode: p.Mode, DetailType: l.oneOf("detailType", detailTypes...),
		ExecutionID: l.q.Get("executionId"), TransactionID: l.q.Get("transactionId"),
		From: l.From, To: l.To, Limit: l.PageSize, Cursor: l.Token}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	evs, next, err := tenant(r, h.store).Events(r.Context(), f)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	items := make([]json.RawMessage, 0, len(evs))
	for _, e := range evs {
		items = append(items, e.Envelope)
	}
	WriteJSON(w, http.StatusOK, page[json.RawMessage]{Items: items, NextPageToken: next})
}

// get is GET /2023-08-01/events/{eventId}: the stored envelope.
func (h eventHandlers) get(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("eventId")
	e, err := tenant(r, h.store).Event(r.Context(), id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = Errorf(http.StatusNotFound, CodeNotFound, "No event %s for this API key's account and mode.", id)
		}
		WriteError(w, r, err)
		return
	}
	WriteJSON(w, http.StatusOK, json.RawMessage(e.Envelope))
}

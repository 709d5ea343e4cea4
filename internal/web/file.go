package web

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Bounds of what one file page shows: pages stay small whatever the file.
const (
	maxShownBytes    = 1 << 20 // of an input, output or metadata document
	maxShownSegments = 5000
	maxShownEvents   = 200
)

// fileTabs are the sections of a file's page.
var fileTabs = []struct{ ID, Label string }{
	{"summary", "Summary"}, {"input", "Input"}, {"output", "Output"}, {"metadata", "Metadata"},
	{"transactions", "Transactions"}, {"events", "Events"},
}

type tabLink struct {
	ID, Label, URL string
	Current        bool
}

// fileData is a file's page.
type fileData struct {
	E        store.Execution
	Tab      string
	Tabs     []tabLink
	Problems []problem // why a failed file failed
	Input    *ediText
	Output   *ediText
	Metadata string
	// Transactions of the file (Transactions tab).
	Transactions []store.Transaction
	Events       []eventView
	Notice       string // after a retry
	// Live: the page follows the file (and its deliveries) until they settle.
	Live      bool
	Retryable bool // the server delivers webhooks
	URL       string
	// NextAttempt is when a pending outbound file is tried again.
	NextAttempt time.Time
	// Payments are an 835 file's payments (Summary tab); PaymentsPartial
	// says the file could not be read whole for them.
	Payments        []remitSummary
	PaymentsPartial bool
}

// Final reports whether the file is done changing.
func (d fileData) Final() bool {
	switch d.E.Status {
	case store.ExecutionReceived, store.ExecutionProcessing, store.ExecutionPendingDelivery:
		return false
	}
	return true
}

// eventView is one event of the file with its webhook deliveries.
type eventView struct {
	store.Event
	Deliveries []deliveryView
}

type deliveryView struct {
	webhooks.Delivery
	URL string // the webhook's
}

// filePage shows one file. With htmx it answers only the file's view, so
// the page can follow the file while it is processed and its deliveries
// while they are attempted.
func (c *Console) filePage(w http.ResponseWriter, r *http.Request) {
	data, ok := c.loadFile(w, r, r.URL.Query().Get("tab"))
	if !ok {
		return
	}
	if isHTMX(r) {
		c.render(w, r, http.StatusOK, "file", "file_view", page{Viewer: viewerFrom(r.Context()), Data: data})
		return
	}
	c.renderPage(w, r, http.StatusOK, "file", page{Title: data.E.SourceName, Nav: "files", Data: data})
}

// loadFile reads what the tab shows; it has answered when ok is false.
func (c *Console) loadFile(w http.ResponseWriter, r *http.Request, tab string) (fileData, bool) {
	v := viewerFrom(r.Context())
	ctx := r.Context()
	e, err := c.tenant(v).Execution(ctx, r.PathValue("id")) // a test key sees test files only, and so on
	if err != nil {
		c.storeError(w, r, "file", err)
		return fileData{}, false
	}
	known := false
	for _, t := range fileTabs {
		known = known || t.ID == tab
	}
	if !known {
		tab = "summary"
	}
	data := fileData{E: e, Tab: tab, Retryable: c.cfg.Webhooks != nil, URL: "/files/" + url.PathEscape(e.ID)}
	for _, t := range fileTabs {
		if t.ID == "output" && e.Output.Key == "" || t.ID == "metadata" && e.Metadata.Key == "" {
			continue
		}
		data.Tabs = append(data.Tabs, tabLink{ID: t.ID, Label: t.Label, URL: data.URL + "?tab=" + t.ID, Current: t.ID == tab})
	}
	if e.Status == store.ExecutionFailed {
		data.Problems = problemsOf(e)
	}
	if data.NextAttempt, err = c.nextDeliveryAttempt(ctx, e); err != nil {
		c.fail(w, r, err)
		return fileData{}, false
	}
	switch tab {
	case "summary", "input":
		// A failed file's summary shows the failing segments in place.
		if tab == "input" || len(data.Problems) > 0 {
			data.Input, err = c.readEDI(ctx, e.Input, data.Problems)
		}
		if tab == "summary" && err == nil {
			data.Payments, data.PaymentsPartial, err = c.filePayments(ctx, c.tenant(v), e)
		}
	case "output":
		data.Output, err = c.readEDI(ctx, e.Output, nil)
	case "metadata":
		data.Metadata, err = c.readJSON(ctx, e.Metadata.Key)
	case "transactions":
		data.Transactions, _, err = c.tenant(v).Transactions(ctx, store.TransactionFilter{ExecutionID: e.ID, Limit: 500})
	case "events":
		data.Events, err = c.fileEvents(r, e)
	}
	if err != nil {
		c.fail(w, r, err)
		return fileData{}, false
	}
	data.Live = !data.Final()
	for _, ev := range data.Events {
		for _, d := range ev.Deliveries {
			data.Live = data.Live || d.Status == store.DeliveryPending
		}
	}
	return data, true
}

// fileEvents lists the file's events, oldest first (the order they
// happened), each with its deliveries and their attempts.
func (c *Console) fileEvents(r *http.Request, e store.Execution) ([]eventView, error) {
	v := viewerFrom(r.Context())
	evs, _, err := c.tenant(v).Events(r.Context(), store.EventFilter{ExecutionID: e.ID, Limit: maxShownEvents})
	if err != nil {
		return nil, err
	}
	hooks := map[string]string{}
	if c.cfg.Webhooks != nil {
		list, err := c.cfg.Webhooks.List(r.Context(), caller(v))
		if err != nil {
			return nil, err
		}
		for _, h := range list {
			hooks[h.ID] = h.URL
		}
	}
	out := make([]eventView, len(evs))
	for i, ev := range evs {
		out[len(evs)-1-i].Event = ev
		if c.cfg.Webhooks == nil {
			continue
		}
		ds, _, err := c.cfg.Webhooks.Deliveries(r.Context(), caller(v), store.WebhookDeliveryFilter{EventID: ev.ID, Limit: 50})
		if err != nil {
			return nil, err
		}
		for _, d := range ds {
			out[len(evs)-1-i].Deliveries = append(out[len(evs)-1-i].Deliveries, deliveryView{Delivery: d, URL: hooks[d.WebhookID]})
		}
	}
	return out, nil
}

// retryEvent re-emits one event of the file to the account's webhooks (the
// same event id, a MANUAL attempt) and shows the Events tab, which follows
// the new attempts.
func (c *Console) retryEvent(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	if c.cfg.Webhooks == nil {
		c.showError(w, r, http.StatusConflict, "Cannot retry", "This server does not deliver webhooks, so there is nothing to retry.")
		return
	}
	ev, err := c.tenant(v).Event(r.Context(), r.PathValue("event"))
	if err == nil && ev.ExecutionID != r.PathValue("id") {
		err = store.ErrNotFound
	}
	if err != nil {
		c.storeError(w, r, "event", err)
		return
	}
	sent, err := c.cfg.Webhooks.Reemit(r.Context(), caller(v), ev.ID)
	if err != nil {
		c.storeError(w, r, "event", err)
		return
	}
	data, ok := c.loadFile(w, r, "events")
	if !ok {
		return
	}
	switch len(sent) {
	case 0:
		data.Notice = "No enabled webhook takes this event, so nothing was sent. Add or enable one on the Webhooks page."
	case 1:
		data.Notice = eventLabel(ev.DetailType) + " is being sent again to 1 webhook."
	default:
		data.Notice = eventLabel(ev.DetailType) + " is being sent again to " + plural(len(sent), "webhook") + "."
	}
	if isHTMX(r) {
		c.render(w, r, http.StatusOK, "file", "file_view", page{Viewer: v, Data: data})
		return
	}
	c.renderPage(w, r, http.StatusOK, "file", page{Title: data.E.SourceName, Nav: "files", Data: data})
}

// readJSON reads a stored JSON document, indented, at most maxShownBytes.
func (c *Console) readJSON(ctx context.Context, key string) (string, error) {
	b, truncated, err := c.readBounded(ctx, key)
	if err != nil || truncated {
		return string(b), err // a cut document is shown as it is
	}
	return summary.IndentJSON(b), nil
}

// openStored opens a stored document; nil (and no error) when there is
// none: no key, no EDI core, or the blob is gone (purged by retention).
func (c *Console) openStored(ctx context.Context, key string) (io.ReadCloser, error) {
	if key == "" || c.cfg.Core == nil {
		return nil, nil
	}
	rc, err := c.cfg.Core.Blob().Get(ctx, key)
	if errors.Is(err, blob.ErrNotFound) {
		return nil, nil
	}
	return rc, err
}

// readBounded reads at most maxShownBytes of a blob; truncated says more
// was there.
func (c *Console) readBounded(ctx context.Context, key string) (b []byte, truncated bool, err error) {
	rc, err := c.openStored(ctx, key)
	if rc == nil || err != nil {
		return nil, false, err
	}
	defer rc.Close()
	b, err = io.ReadAll(io.LimitReader(rc, maxShownBytes+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > maxShownBytes {
		return b[:maxShownBytes], true, nil
	}
	return b, false, nil
}

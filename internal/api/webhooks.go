package api

import (
	"errors"
	"net/http"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// Webhook routes: the account's webhooks (create, list, get, update,
// delete, signing secret and its rotation), their attempt log, and the
// re-emit of a stored event (spec §3, the console's Retry button).
type webhookHandlers struct{ svc *webhooks.Service }

func webhookCaller(r *http.Request) webhooks.Caller {
	p := httpkit.PrincipalFrom(r.Context())
	return webhooks.Caller{AccountID: p.AccountID, Mode: p.Mode}
}

// webhookView is a webhook as the API shows it: never its secret (except
// in the create answer) nor its credentials' secret parts.
type webhookView struct {
	ID             string                  `json:"id"`
	URL            string                  `json:"url"`
	Description    string                  `json:"description"`
	EventTypes     []string                `json:"eventTypes"`
	Filters        webhooks.Filters        `json:"filters"`
	Status         string                  `json:"status"`
	DisabledReason string                  `json:"disabledReason,omitempty"`
	Concurrency    int                     `json:"concurrency"`
	Authentication webhooks.Authentication `json:"authentication"`
	Mode           string                  `json:"mode"`
	CreatedAt      time.Time               `json:"createdAt"`
	UpdatedAt      time.Time               `json:"updatedAt"`
	Secret         string                  `json:"secret,omitempty"`
}

func (h webhookHandlers) view(w store.Webhook) webhookView {
	types := w.EventTypes
	if types == nil {
		types = []string{}
	}
	return webhookView{ID: w.ID, URL: w.URL, Description: w.Description, EventTypes: types, Filters: w.Filters,
		Status: w.Status, DisabledReason: w.DisabledReason, Concurrency: w.Concurrency,
		Authentication: h.svc.Authentication(w), Mode: w.Mode, CreatedAt: w.CreatedAt, UpdatedAt: w.UpdatedAt}
}

// writeWebhookError maps the service's errors to the contract's.
func writeWebhookError(w http.ResponseWriter, r *http.Request, err error, what string) {
	// Validation errors and ErrNoSecretsKey are problem kinds WriteError renders.
	if errors.Is(err, store.ErrNotFound) {
		err = Errorf(http.StatusNotFound, CodeNotFound, "No %s for this API key's account and mode.", what)
	} else if errors.Is(err, webhooks.ErrDisabled) {
		err = Errorf(http.StatusConflict, CodeConflict, "The %s is disabled; enable it before sending it a test event.", what)
	}
	WriteError(w, r, err)
}

func (h webhookHandlers) create(w http.ResponseWriter, r *http.Request) {
	var in webhooks.Input
	if err := DecodeJSONStrict(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	hook, secret, err := h.svc.Create(r.Context(), webhookCaller(r), in)
	if err != nil {
		writeWebhookError(w, r, err, "webhook")
		return
	}
	v := h.view(hook)
	v.Secret = secret
	WriteJSON(w, http.StatusCreated, v)
}

func (h webhookHandlers) list(w http.ResponseWriter, r *http.Request) {
	hooks, err := h.svc.List(r.Context(), webhookCaller(r))
	if err != nil {
		WriteError(w, r, err)
		return
	}
	items := make([]webhookView, len(hooks))
	for i, hook := range hooks {
		items[i] = h.view(hook)
	}
	WriteJSON(w, http.StatusOK, map[string]any{"items": items})
}

func (h webhookHandlers) get(w http.ResponseWriter, r *http.Request) {
	hook, err := h.svc.Get(r.Context(), webhookCaller(r), r.PathValue("id"))
	if err != nil {
		writeWebhookError(w, r, err, "webhook "+r.PathValue("id"))
		return
	}
	WriteJSON(w, http.StatusOK, h.view(hook))
}

func (h webhookHandlers) update(w http.ResponseWriter, r *http.Request) {
	var in webhooks.Input
	if err := DecodeJSONStrict(r, &in); err != nil {
		WriteError(w, r, err)
		return
	}
	hook, err := h.svc.Update(r.Context(), webhookCaller(r), r.PathValue("id"), in)
	if err != nil {
		writeWebhookError(w, r, err, "webhook "+r.PathValue("id"))
		return
	}
	WriteJSON(w, http.StatusOK, h.view(hook))
}

func (h webhookHandlers) delete(w http.ResponseWriter, r *http.Request) {
	if err := h.svc.Delete(r.Context(), webhookCaller(r), r.PathValue("id")); err != nil {
		writeWebhookError(w, r, err, "webhook "+r.PathValue("id"))
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

func (h webhookHandlers) secret(w http.ResponseWriter, r *http.Request) {
	secret, err := h.svc.Secret(r.Context(), webhookCaller(r), r.PathValue("id"))
	if err != nil {
		writeWebhookError(w, r, err, "webhook "+r.PathValue("id"))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]string{"secret": secret})
}

func (h webhookHandlers) rotate(w http.ResponseWriter, r *http.Request) {
	secret, until, err := h.svc.RotateSecret(r.Context(), webhookCaller(r), r.PathValue("id"))
	if err != nil {
		writeWebhookError(w, r, err, "webhook "+r.PathValue("id"))
		return
	}
	WriteJSON(w, http.StatusOK, map[string]any{"secret": secret, "previousSecretExpiresAt": until.UTC()})
}

// attemptView is one line of the attempt log.
type attemptView struct {
	AttemptNumber int       `json:"attemptNumber"`
	AttemptType   string    `json:"attemptType"`
	StartedAt     time.Time `json:"startedAt"`
	DurationMs    float64   `json:"durationMs"`
	StatusCode    int       `json:"statusCode,omitempty"`
	ResponseBody  string    `json:"responseBody,omitempty"`
	Error         string    `json:"error,omitempty"`
	Succeeded     bool      `json:"succeeded"`
}

type deliveryView struct {
	DeliveryID      string        `json:"deliveryId"`
	WebhookID       string        `json:"webhookId"`
	EventID         string        `json:"eventId"`
	DetailType      string        `json:"detail-type"`
	Status          string        `json:"status"`
	AttemptCount    int           `json:"attemptCount"`
	NextAttemptAt   *time.Time    `json:"nextAttemptAt,omitempty"`
	NextAttemptType string        `json:"nextAttemptType,omitempty"`
	LastStatusCode  int           `json:"lastStatusCode,omitempty"`
	LastError       string        `json:"lastError,omitempty"`
	CreatedAt       time.Time     `json:"createdAt"`
	DeliveredAt     *time.Time    `json:"deliveredAt,omitempty"`
	Attempts        []attemptView `json:"attempts"`
}

func viewDelivery(d webhooks.Delivery) deliveryView {
	v := deliveryView{DeliveryID: d.ID, WebhookID: d.WebhookID, EventID: d.EventID, DetailType: d.DetailType,
		Status: d.Status, AttemptCount: d.Attempts, LastStatusCode: d.LastStatusCode, LastError: d.LastError,
		CreatedAt: d.CreatedAt, Attempts: make([]attemptView, len(d.Log))}
	if d.Status == store.DeliveryPending && !d.NextAttemptAt.IsZero() {
		v.NextAttemptAt, v.NextAttemptType = &d.NextAttemptAt, d.NextAttemptType
	}
	if !d.DeliveredAt.IsZero() {
		v.DeliveredAt = &d.DeliveredAt
	}
	for i, a := range d.Log {
		v.Attempts[i] = attemptView{AttemptNumber: a.Attempt, AttemptType: a.AttemptType, StartedAt: a.StartedAt,
			DurationMs: float64(a.Latency.Microseconds()) / 1000, StatusCode: a.StatusCode,
			ResponseBody: a.ResponseExcerpt, Error: a.Error, Succeeded: a.Succeeded}
	}
	return v
}

func (h webhookHandlers) webhookDeliveries(w http.ResponseWriter, r *http.Request) {
	h.deliveries(w, r, store.WebhookDeliveryFilter{WebhookID: r.PathValue("id")}, "webhook "+r.PathValue("id"))
}

func (h webhookHandlers) eventDeliveries(w http.ResponseWriter, r *http.Request) {
	h.deliveries(w, r, store.WebhookDeliveryFilter{EventID: r.PathValue("eventId")}, "event "+r.PathValue("eventId"))
}

// deliveries answers a page of the attempt log: pageSize (1–500, default
// 50), pageToken, status (PENDING, DELIVERED, FAILED).
func (h webhookHandlers) deliveries(w http.ResponseWriter, r *http.Request, f store.WebhookDeliveryFilter, what string) {
	q := r.URL.Query()
	var fields []FieldError
	if v := q.Get("pageSize"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			fields = append(fields, FieldError{Path: "/query/pageSize", Message: "must be a whole number from 1 to 500; got " + strconv.Quote(v)})
		}
		f.Limit = n
	}
	switch f.Status = q.Get("status"); f.Status {
	case "", store.DeliveryPending, store.DeliveryDelivered, store.DeliveryFailed:
	default:
		fields = append(fields, FieldError{Path: "/query/status", Message: "must be PENDING, DELIVERED or FAILED; got " + strconv.Quote(f.Status)})
	}
	if len(fields) > 0 {
		WriteError(w, r, Validation(fields...))
		return
	}
	f.Cursor = q.Get("pageToken")
	list, next, err := h.svc.Deliveries(r.Context(), webhookCaller(r), f)
	if errors.Is(err, store.ErrBadCursor) {
		err = Validation(FieldError{Path: "/query/pageToken", Message: "is not a token from a previous page; pass nextPageToken unchanged"})
	}
	if err != nil {
		writeWebhookError(w, r, err, what)
		return
	}
	items := make([]deliveryView, len(list))
	for i, d := range list {
		items[i] = viewDelivery(d)
	}
	WriteJSON(w, http.StatusOK, struct {
		Items         []deliveryView `json:"items"`
		NextPageToken string         `json:"nextPageToken,omitempty"`
	}{items, next})
}

// reemit is POST /2023-08-01/events/{eventId}/retry: 202 with the
// deliveries that will carry the event again.
// sendTest is POST /2023-08-01/webhooks/{id}/test: a test event
// (detail-type webhook.test.v1) to this webhook only, through the normal
// signed delivery; 202 with the event and delivery ids.
func (h webhookHandlers) sendTest(w http.ResponseWriter, r *http.Request) {
	d, err := h.svc.SendTest(r.Context(), webhookCaller(r), r.PathValue("id"))
	if err != nil {
		writeWebhookError(w, r, err, "webhook "+r.PathValue("id"))
		return
	}
	WriteJSON(w, http.StatusAccepted, map[string]any{"eventId": d.EventID, "deliveryId": d.ID, "webhookId": d.WebhookID,
		"detailType": webhooks.TestEventType, "status": d.Status})
}

func (h webhookHandlers) reemit(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("eventId")
	list, err := h.svc.Reemit(r.Context(), webhookCaller(r), id)
	if err != nil {
		writeWebhookError(w, r, err, "event "+id)
		return
	}
	type queued struct {
		DeliveryID string `json:"deliveryId"`
		WebhookID  string `json:"webhookId"`
		Status     string `json:"status"`
	}
	items := make([]queued, len(list))
	for i, d := range list {
		items[i] = queued{d.ID, d.WebhookID, d.Status}
	}
	WriteJSON(w, http.StatusAccepted, map[string]any{"eventId": id, "deliveries": items})
}

package api

import (
	"errors"
	"io"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/upstream"
)

// upstreamWebhookHandler receives a CLEARINGHOUSE_API upstream's events
// (POST /2023-08-01/upstream-webhooks/{token}, no API key: the token and
// the event's signature are the credentials). It answers 200 once the
// fetch of an answer is committed as a job, so the upstream retries
// anything not yet durable.
type upstreamWebhookHandler struct{ hook *upstream.Webhook }

func (h upstreamWebhookHandler) receive(w http.ResponseWriter, r *http.Request) {
	if h.hook == nil {
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "No upstream webhook at this URL."))
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, upstream.MaxWebhookBody+1))
	if err != nil {
		WriteError(w, r, Errorf(http.StatusBadRequest, CodeBadRequest, "The request body could not be read: the connection failed while sending it."))
		return
	}
	if len(body) > upstream.MaxWebhookBody {
		WriteError(w, r, Errorf(http.StatusRequestEntityTooLarge, CodePayloadTooLarge,
			"An upstream event is at most %d bytes; this one is larger.", upstream.MaxWebhookBody))
		return
	}
	queued, err := h.hook.Receive(r.Context(), r.PathValue("token"), r.Header, body)
	var bad *upstream.WebhookEventError
	switch {
	case errors.Is(err, upstream.ErrUnknownWebhook):
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "No upstream webhook at this URL."))
	case errors.Is(err, upstream.ErrWebhookSignature):
		WriteError(w, r, Errorf(http.StatusUnauthorized, CodeUnauthorized,
			"%v; the upstream signs with the secret it showed when the destination was made (store it as the connection's webhookSecret).", err))
	case errors.As(err, &bad):
		WriteError(w, r, Errorf(http.StatusBadRequest, CodeBadRequest, "%s.", bad.Message))
	case err != nil:
		WriteError(w, r, err)
	default:
		WriteJSON(w, http.StatusOK, struct {
			Received bool `json:"received"`
			Queued   bool `json:"queued"`
		}{true, queued})
	}
}

package web

import (
	"errors"
	"net/http"
	"strings"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// The webhooks pages: list, create, edit, disable or enable, rotate the
// signing secret (shown once), and each webhook's delivery log.

// webhookEventTypes are the events a webhook can take, in words.
var webhookEventTypes = []option{
	{"file.processed.v2", "File processed"}, {"file.failed.v2", "File failed"}, {"file.delivered.v2", "File delivered"},
	{"transaction.processed.v2", "Transaction processed"}, {"fragment.processed.v2", "Fragment processed"},
}

type webhookForm struct {
	ID          string // "" for a new one
	URL         string
	Description string
	Events      map[string]bool
	Errors      map[string]string
	Types       []option
}

type webhookData struct {
	W          store.Webhook
	Live       bool   // a delivery is pending: the log follows it
	Secret     string // shown once, after create or rotate
	SecretNote string
	Notice     string
	Deliveries []webhooks.Delivery
}

type webhooksData struct {
	Hooks   []store.Webhook
	Deleted bool // a webhook was just deleted: say so
}

func (c *Console) webhooksPage(w http.ResponseWriter, r *http.Request) {
	list, err := c.cfg.Webhooks.List(r.Context(), caller(viewerFrom(r.Context())))
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.renderPage(w, r, http.StatusOK, "webhooks", page{Title: "Webhooks", Nav: "webhooks",
		Data: webhooksData{Hooks: list, Deleted: r.URL.Query().Get("deleted") == "1"}})
}

func (c *Console) newWebhookPage(w http.ResponseWriter, r *http.Request) {
	c.renderPage(w, r, http.StatusOK, "webhook_form", page{Title: "Add a webhook", Nav: "webhooks",
		Data: webhookForm{Events: map[string]bool{}, Errors: map[string]string{}, Types: webhookEventTypes}})
}

// formInput reads the webhook form.
func formInput(r *http.Request) (webhooks.Input, webhookForm) {
	f := webhookForm{URL: strings.TrimSpace(r.PostFormValue("url")), Description: strings.TrimSpace(r.PostFormValue("description")),
		Events: map[string]bool{}, Errors: map[string]string{}, Types: webhookEventTypes}
	types := []string{}
	for _, t := range r.PostForm["events"] {
		for _, o := range webhookEventTypes {
			if o.Value == t && !f.Events[t] {
				f.Events[t] = true
				types = append(types, t)
			}
		}
	}
	return webhooks.Input{URL: &f.URL, Description: &f.Description, EventTypes: &types}, f
}

// invalid shows the service's field errors on the form; false when err is
// not about the input.
func (c *Console) invalid(w http.ResponseWriter, r *http.Request, f webhookForm, err error) bool {
	var bad *webhooks.InvalidError
	if !errors.As(err, &bad) {
		return false
	}
	for _, fe := range bad.Fields {
		field := strings.SplitN(strings.TrimPrefix(fe.Path, "/"), "/", 2)[0]
		switch field {
		case "url":
			f.Errors["url"] = "This address cannot take events: it " + fe.Message + "."
		case "description":
			f.Errors["description"] = "The description " + fe.Message + "."
		case "eventTypes":
			f.Errors["events"] = "Pick events from the list."
		default:
			f.Errors["form"] = fe.Message
		}
	}
	title := "Add a webhook"
	if f.ID != "" {
		title = "Change a webhook"
	}
	c.renderPage(w, r, http.StatusBadRequest, "webhook_form", page{Title: title, Nav: "webhooks", Data: f})
	return true
}

func (c *Console) createWebhook(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	in, f := formInput(r)
	hook, secret, err := c.cfg.Webhooks.Create(r.Context(), caller(v), in)
	if errors.Is(err, webhooks.ErrNoSecretsKey) {
		c.showError(w, r, http.StatusServiceUnavailable, "Webhooks are not set up",
			"This server has no secrets key, so it cannot keep webhook signing secrets. Ask your administrator to start it with --secrets-key.")
		return
	}
	if err != nil {
		if !c.invalid(w, r, f, err) {
			c.fail(w, r, err)
		}
		return
	}
	c.showWebhook(w, r, hook, webhookData{Secret: secret, Notice: "Webhook added. It receives this account's " + modeWord(v.Mode) + " events."})
}

func modeWord(mode string) string {
	if mode == store.ModeTest {
		return "test-mode"
	}
	return "production"
}

func (c *Console) webhookPage(w http.ResponseWriter, r *http.Request) {
	hook, err := c.cfg.Webhooks.Get(r.Context(), caller(viewerFrom(r.Context())), r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	c.showWebhook(w, r, hook, webhookData{})
}

// showWebhook renders a webhook's page with its latest deliveries.
func (c *Console) showWebhook(w http.ResponseWriter, r *http.Request, hook store.Webhook, data webhookData) {
	ds, _, err := c.cfg.Webhooks.Deliveries(r.Context(), caller(viewerFrom(r.Context())), store.WebhookDeliveryFilter{WebhookID: hook.ID, Limit: 50})
	if err != nil {
		c.fail(w, r, err)
		return
	}
	data.W, data.Deliveries = hook, ds
	for _, d := range ds {
		data.Live = data.Live || d.Status == store.DeliveryPending
	}
	if isHTMX(r) && r.Method == http.MethodGet {
		c.render(w, r, http.StatusOK, "webhook", "webhook_log", page{Viewer: viewerFrom(r.Context()), Data: data})
		return
	}
	c.renderPage(w, r, http.StatusOK, "webhook", page{Title: "Webhook " + hook.URL, Nav: "webhooks", Data: data})
}

func (c *Console) editWebhookPage(w http.ResponseWriter, r *http.Request) {
	hook, err := c.cfg.Webhooks.Get(r.Context(), caller(viewerFrom(r.Context())), r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	f := webhookForm{ID: hook.ID, URL: hook.URL, Description: hook.Description, Events: map[string]bool{}, Errors: map[string]string{}, Types: webhookEventTypes}
	for _, t := range hook.EventTypes {
		f.Events[t] = true
	}
	c.renderPage(w, r, http.StatusOK, "webhook_form", page{Title: "Change a webhook", Nav: "webhooks", Data: f})
}

func (c *Console) updateWebhook(w http.ResponseWriter, r *http.Request) {
	in, f := formInput(r)
	f.ID = r.PathValue("id")
	hook, err := c.cfg.Webhooks.Update(r.Context(), caller(viewerFrom(r.Context())), f.ID, in)
	if errors.Is(err, store.ErrNotFound) {
		c.missing(w, r, "webhook")
		return
	}
	if err != nil {
		if !c.invalid(w, r, f, err) {
			c.fail(w, r, err)
		}
		return
	}
	c.showWebhook(w, r, hook, webhookData{Notice: "Changes saved."})
}

// setWebhookStatus disables or enables a webhook.
func (c *Console) setWebhookStatus(w http.ResponseWriter, r *http.Request) {
	status := r.PostFormValue("status")
	if status != store.WebhookEnabled && status != store.WebhookDisabled {
		c.showError(w, r, http.StatusBadRequest, "Not changed", "Use the page's Disable or Enable button.")
		return
	}
	if !c.ownWebhook(w, r) {
		return
	}
	if status == store.WebhookDisabled && !c.confirmed(w, r, confirmData{Heading: "Disable this webhook?", Button: "Disable the webhook",
		Cancel: "/webhooks/" + r.PathValue("id"), Question: "Disable webhook " + r.PathValue("id") + "?",
		Consequence: "No events are sent to it until it is enabled again."}) {
		return
	}
	hook, err := c.cfg.Webhooks.Update(r.Context(), caller(viewerFrom(r.Context())), r.PathValue("id"), webhooks.Input{Status: &status})
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	notice := "Webhook enabled: new events are sent to it again."
	if status == store.WebhookDisabled {
		notice = "Webhook disabled: no events are sent to it until you enable it."
	}
	c.showWebhook(w, r, hook, webhookData{Notice: notice})
}

// deleteWebhook removes a webhook with its delivery log, after asking.
// Events already queued for it are not sent.
func (c *Console) deleteWebhook(w http.ResponseWriter, r *http.Request) {
	cl := caller(viewerFrom(r.Context()))
	hook, err := c.cfg.Webhooks.Get(r.Context(), cl, r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	if !c.confirmed(w, r, confirmData{Heading: "Delete this webhook?", Button: "Delete the webhook",
		Cancel: "/webhooks/" + hook.ID, Question: "Delete the webhook that sends events to " + hook.URL + "?",
		Consequence: "No more events are sent to it, and its delivery log is deleted with it. This cannot be undone; to pause it instead, disable it."}) {
		return
	}
	if err := c.cfg.Webhooks.Delete(r.Context(), cl, hook.ID); err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	http.Redirect(w, r, "/webhooks?deleted=1", http.StatusSeeOther)
}

// rotateWebhookSecret makes a new signing secret and shows it once; the
// old one keeps signing beside it for a while, so receivers can switch.
func (c *Console) rotateWebhookSecret(w http.ResponseWriter, r *http.Request) {
	if !c.ownWebhook(w, r) {
		return
	}
	if !c.confirmed(w, r, confirmData{Heading: "Rotate the signing secret?", Button: "Rotate the secret",
		Cancel: "/webhooks/" + r.PathValue("id"), Question: "Make a new signing secret for webhook " + r.PathValue("id") + "?",
		Consequence: "The new secret is shown once; the current one keeps signing beside it for 24 hours, then stops. Your receiver must switch to the new one by then."}) {
		return
	}
	cl := caller(viewerFrom(r.Context()))
	secret, until, err := c.cfg.Webhooks.RotateSecret(r.Context(), cl, r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	c.showWebhookAgain(w, r, webhookData{Secret: secret,
		SecretNote: "The previous secret also signs until " + until.UTC().Format("Jan 2, 2006 15:04 UTC") + ", so your receiver can switch without missing events."})
}

// ownWebhook checks that the path's webhook is the caller's before an
// action is confirmed (answering 404 when not), so the confirmation never
// shows for another account's webhook.
func (c *Console) ownWebhook(w http.ResponseWriter, r *http.Request) bool {
	if _, err := c.cfg.Webhooks.Get(r.Context(), caller(viewerFrom(r.Context())), r.PathValue("id")); err != nil {
		c.storeError(w, r, "webhook", err)
		return false
	}
	return true
}

// showWebhookAgain reads the webhook of the path again and shows it.
func (c *Console) showWebhookAgain(w http.ResponseWriter, r *http.Request, data webhookData) {
	hook, err := c.cfg.Webhooks.Get(r.Context(), caller(viewerFrom(r.Context())), r.PathValue("id"))
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	c.showWebhook(w, r, hook, data)
}

// sendTestEvent sends a test event to the webhook through the normal
// signed delivery, and shows its page, whose log follows the attempt.
func (c *Console) sendTestEvent(w http.ResponseWriter, r *http.Request) {
	cl := caller(viewerFrom(r.Context()))
	_, err := c.cfg.Webhooks.SendTest(r.Context(), cl, r.PathValue("id"))
	if errors.Is(err, webhooks.ErrDisabled) {
		c.showError(w, r, http.StatusConflict, "Webhook disabled", "This webhook is disabled. Enable it, then send the test event.")
		return
	}
	if err != nil {
		c.storeError(w, r, "webhook", err)
		return
	}
	c.showWebhookAgain(w, r, webhookData{Notice: "Test event sent. Its delivery appears in the log below."})
}

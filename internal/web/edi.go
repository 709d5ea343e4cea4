package web

import (
	"errors"
	"fmt"
	"html/template"
	"net/http"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/webhooks"
)

// The EDI console: files (executions) with their input, output, metadata,
// transactions and Events tab, transactions with their Guide JSON, the
// account's webhooks and API keys. The pages live beside the eligibility
// pages and share their session, CSRF and layout; they are wired only when
// Config.Core is set (the keys page always is).

// ediPages are the EDI pages; ediFuncs their template functions
// (templates.go gathers every family's).
var ediPages = []string{"files", "file", "file_upload", "transactions", "transaction",
	"webhooks", "webhook", "webhook_form", "keys", "confirm"}

var ediFuncs = template.FuncMap{
	"bytes":      formatBytes,
	"ago":        ago,
	"plural":     plural,
	"fileSize":   fileSize,
	"inc":        func(i int) int { return i + 1 },
	"txSetName":  txSetName,
	"fileStatus": fileStatus,
	"eventLabel": eventLabel,
	"latency":    func(d time.Duration) string { return strconv.FormatInt(d.Milliseconds(), 10) + " ms" },
	"deliveryStatus": func(s string) string {
		switch s {
		case store.DeliveryDelivered:
			return "Delivered"
		case store.DeliveryFailed:
			return "Failed"
		}
		return "Pending"
	},
	"deliveryClass": func(s string) string {
		switch s {
		case store.DeliveryDelivered:
			return "ok"
		case store.DeliveryFailed:
			return "bad"
		}
		return "warn"
	},
	"directionLabel": func(d string) string {
		if d == store.DirectionOutbound {
			return "Sent"
		}
		return "Received"
	},
}

// ediRoutes are the routes of the EDI pages.
func (c *Console) ediRoutes() []httpkit.Route {
	signedIn := func(h http.HandlerFunc) http.Handler { return c.secure(c.requireSession(h)) }
	posted := func(h http.HandlerFunc) http.Handler { return c.secure(c.requireSession(c.checkCSRF(h))) }
	routes := map[string]http.Handler{
		"GET /keys":              signedIn(c.keysPage),
		"POST /keys":             posted(c.createKey),
		"POST /keys/{id}/revoke": posted(c.revokeKey),
		"GET /audit":             signedIn(c.auditPage),
		// The practice's saved providers.
		"GET /practice":                     signedIn(c.practicePage),
		"GET /practice/{role}/new":          signedIn(c.providerFormPage),
		"GET /practice/{role}/{id}/edit":    signedIn(c.providerFormPage),
		"POST /practice/{role}":             posted(c.saveProvider),
		"POST /practice/{role}/{id}":        posted(c.saveProvider),
		"POST /practice/{role}/{id}/delete": posted(c.deleteProvider),
		"GET /simulator":                    signedIn(c.simulatorPage),
		"POST /simulator":                   posted(c.uploadScenarios),
		"POST /simulator/reset":             posted(c.resetScenarios),
	}
	if c.cfg.Core != nil {
		routes["GET /files"] = signedIn(c.filesPage)
		routes["GET /files/upload"] = signedIn(c.uploadPage)
		routes["POST /files"] = posted(c.uploadFile)
		routes["GET /files/{id}"] = signedIn(c.filePage)
		routes["POST /files/{id}/events/{event}/retry"] = posted(c.retryEvent)
		routes["GET /claims"] = signedIn(c.claimsPage)
		routes["GET /claims/new"] = signedIn(c.newClaimPage)
		routes["POST /claims"] = posted(c.submitClaim)
		routes["GET /claims/{id}"] = signedIn(c.claimPage)
		routes["GET /transactions"] = signedIn(c.transactionsPage)
		routes["GET /transactions/{id}"] = signedIn(c.transactionPage)
	}
	if c.cfg.Webhooks != nil {
		routes["GET /webhooks"] = signedIn(c.webhooksPage)
		routes["GET /webhooks/new"] = signedIn(c.newWebhookPage)
		routes["POST /webhooks"] = posted(c.createWebhook)
		routes["GET /webhooks/{id}"] = signedIn(c.webhookPage)
		routes["GET /webhooks/{id}/edit"] = signedIn(c.editWebhookPage)
		routes["POST /webhooks/{id}"] = posted(c.updateWebhook)
		routes["POST /webhooks/{id}/status"] = posted(c.setWebhookStatus)
		routes["POST /webhooks/{id}/rotate"] = posted(c.rotateWebhookSecret)
		routes["POST /webhooks/{id}/test"] = posted(c.sendTestEvent)
		routes["POST /webhooks/{id}/delete"] = posted(c.deleteWebhook)
	}
	out := make([]httpkit.Route, 0, len(routes))
	for pattern, h := range routes {
		out = append(out, httpkit.Route{Pattern: pattern, Handler: h, Public: true})
	}
	return out
}

// caller is the signed-in account and mode, as the webhooks module asks.
func caller(v *viewer) webhooks.Caller {
	return webhooks.Caller{AccountID: v.AccountID, Mode: v.Mode}
}

// missing answers a record that is not this account's (or not there).
func (c *Console) missing(w http.ResponseWriter, r *http.Request, what string) {
	c.showError(w, r, http.StatusNotFound, "Not found",
		"There is no such "+what+" in this account. It may belong to another account, or the link is mistyped.")
}

// storeError shows a lookup error: not found, or a failure.
func (c *Console) storeError(w http.ResponseWriter, r *http.Request, what string, err error) {
	if errors.Is(err, store.ErrNotFound) {
		c.missing(w, r, what)
		return
	}
	c.fail(w, r, err)
}

// formatBytes: 1234 → "1.2 KB".
func formatBytes(n int64) string {
	switch {
	case n < 1000:
		return strconv.FormatInt(n, 10) + " bytes"
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	case n < 1000*1000*1000:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	}
	return fmt.Sprintf("%.1f GB", float64(n)/1e9)
}

// ago says how long ago t was, roughly.
func ago(t time.Time) string {
	d := time.Since(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return plural(int(d/time.Minute), "minute") + " ago"
	case d < 48*time.Hour:
		return plural(int(d/time.Hour), "hour") + " ago"
	}
	return plural(int(d/(24*time.Hour)), "day") + " ago"
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// statusView is a status as a badge.
type statusView struct{ Label, Class string }

// fileStatus names an execution's status the way an office says it.
func fileStatus(s string) statusView {
	switch s {
	case store.ExecutionCompleted:
		return statusView{"Processed", "ok"}
	case store.ExecutionDelivered:
		return statusView{"Delivered", "ok"}
	case store.ExecutionFailed:
		return statusView{"Failed", "bad"}
	case store.ExecutionPendingDelivery:
		return statusView{"Pending delivery", "warn"}
	case store.ExecutionReceived, store.ExecutionProcessing:
		return statusView{"Processing", "warn"}
	}
	return statusView{s, "warn"}
}

// eventLabel says what an event reports.
func eventLabel(detailType string) string {
	switch detailType {
	case "file.processed.v2":
		return "File processed"
	case "file.failed.v2":
		return "File failed"
	case "file.delivered.v2":
		return "File delivered"
	case "transaction.processed.v2":
		return "Transaction processed"
	case "fragment.processed.v2":
		return "Fragment processed"
	case webhooks.TestEventType:
		return "Test event"
	}
	return detailType
}

// txSetName names a transaction set for an office.
func txSetName(id string) string {
	names := map[string]string{
		"835": "Claim payment", "837": "Claim", "277": "Claim status", "276": "Claim status request",
		"999": "Acknowledgment", "270": "Eligibility request", "271": "Eligibility answer", "TA1": "Interchange acknowledgment",
	}
	if n, ok := names[id]; ok {
		return n + " (" + id + ")"
	}
	return id
}

// fileSize is the size of the file itself: the generated one of an
// outbound file, the received one otherwise.
func fileSize(e store.Execution) int64 {
	if e.Output.Size > 0 {
		return e.Output.Size
	}
	return e.Input.Size
}

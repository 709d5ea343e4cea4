package web

import (
	"html/template"
	"net/http"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// auditPages and auditFuncs are the access audit page and its template
// functions (templates.go gathers every family's).
var (
	auditPages = []string{"audit"}
	auditFuncs = template.FuncMap{"auditResourceTypes": func() []string { return audit.ResourceTypes }}
)

// consoleAuditRules are the console's pages and forms that touch PHI, by
// route pattern, and what each records in the access audit (package
// audit), the same log the API writes. requireSession records them, so a
// page never leaves without its entry. TestConsoleAuditsPHIPages fails on
// a signed-in route that is neither here nor among consolePagesWithoutPHI.
var consoleAuditRules = map[string]audit.Rule{
	"GET /checks":                           {Action: audit.ActionList, ResourceType: audit.ResourceEligibilityCheck},
	"POST /checks":                          {Action: audit.ActionCreate, ResourceType: audit.ResourceEligibilityCheck, IDFromLocation: true},
	"GET /checks/{id}":                      {Action: audit.ActionRead, ResourceType: audit.ResourceEligibilityCheck, IDParam: "id"},
	"GET /checks/{id}/pdf":                  {Action: audit.ActionDownload, ResourceType: audit.ResourcePDF, IDParam: "id"},
	"GET /claims":                           {Action: audit.ActionList, ResourceType: audit.ResourceClaim},
	"POST /claims":                          {Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromLocation: true},
	"GET /claims/{id}":                      {Action: audit.ActionRead, ResourceType: audit.ResourceClaim, IDParam: "id"},
	"GET /files":                            {Action: audit.ActionList, ResourceType: audit.ResourceFile},
	"POST /files":                           {Action: audit.ActionCreate, ResourceType: audit.ResourceFile, IDFromLocation: true},
	"GET /files/{id}":                       {Action: audit.ActionRead, ResourceType: audit.ResourceFile, IDParam: "id"},
	"GET /transactions":                     {Action: audit.ActionList, ResourceType: audit.ResourceTransaction},
	"GET /transactions/{id}":                {Action: audit.ActionRead, ResourceType: audit.ResourceTransaction, IDParam: "id"},
	"POST /files/{id}/events/{event}/retry": {Action: audit.ActionRetry, ResourceType: audit.ResourceEvent, IDParam: "event"},
	"POST /keys":                            {Action: audit.ActionCreate, ResourceType: audit.ResourceAPIKey},
	"POST /keys/{id}/revoke":                {Action: audit.ActionRevoke, ResourceType: audit.ResourceAPIKey, IDParam: "id"},
	"GET /audit":                            {Action: audit.ActionRead, ResourceType: audit.ResourceAuditLog},
}

// audited wraps a signed-in page with the recorder when its route touches
// PHI.
func (c *Console) audited(pattern string, next http.HandlerFunc) http.HandlerFunc {
	rule, ok := consoleAuditRules[pattern]
	if !ok {
		return next
	}
	rule.OwnCommit = true // pages answer redirects, not the domain's status
	return c.recorder.Wrap(rule, consoleCaller, c.auditUnavailable, next).ServeHTTP
}

// consoleCaller is the signed-in key.
func consoleCaller(r *http.Request) (account, mode, actorType, actorID string, ok bool) {
	v := viewerFrom(r.Context())
	if v == nil {
		return "", "", "", "", false
	}
	return v.AccountID, v.Mode, audit.ActorConsole, v.KeyID, true
}

func (c *Console) auditUnavailable(w http.ResponseWriter, r *http.Request) {
	c.cfg.Logger.Error("access audit: the entry could not be recorded; the page was withheld")
	c.showError(w, r, http.StatusServiceUnavailable, "Not shown",
		"This access could not be recorded in the audit log, so the page was withheld. Try again in a minute.")
}

type auditData struct {
	Events []store.AuditEvent
	Next   string
	Filter string
}

// auditPage lists the account and mode's latest audit events, newest
// first, a page of 100 at a time.
func (c *Console) auditPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	f := store.AuditFilter{Mode: v.Mode, Limit: 100, Cursor: r.URL.Query().Get("after")}
	for _, a := range audit.ResourceTypes {
		if a == r.URL.Query().Get("resourceType") {
			f.ResourceType = a
		}
	}
	list, next, err := c.cfg.Store.ListAuditEvents(r.Context(), v.AccountID, f)
	if err != nil {
		c.fail(w, r, err)
		return
	}
	c.renderPage(w, r, http.StatusOK, "audit", page{Title: "Access audit", Nav: "audit",
		Data: auditData{Events: list, Next: next, Filter: f.ResourceType}})
}

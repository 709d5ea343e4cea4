package api

import (
	"bufio"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// auditRules are the routes that touch PHI, by pattern, and what each
// records in the access audit (package audit). Server.add wraps each of
// these routes with the recorder, so an answer never leaves without its
// entry; TestEveryPHIRouteIsAudited fails on a route that is neither here
// nor in its list of routes without PHI.
//
// Not here: GET /downloads/{token}. A signed link carries no account or
// key; the authenticated request that issued it is recorded (download).
var auditRules = map[string]audit.Rule{
	"POST /2024-04-01/change/medicalnetwork/eligibility/v3":         {Action: audit.ActionCreate, ResourceType: audit.ResourceEligibilityCheck, IDHeader: "X-Eligibility-Check-Id"},
	"POST /2024-04-01/change/medicalnetwork/eligibility/v3/raw-x12": {Action: audit.ActionCreate, ResourceType: audit.ResourceEligibilityCheck, IDHeader: "X-Eligibility-Check-Id"},
	"GET /2024-04-01/eligibility-checks":                            {Action: audit.ActionList, ResourceType: audit.ResourceEligibilityCheck},
	"GET /2024-04-01/eligibility-checks/{id}":                       {Action: audit.ActionRead, ResourceType: audit.ResourceEligibilityCheck, IDParam: "id"},
	"GET /2024-04-01/eligibility-checks/{id}/pdf":                   {Action: audit.ActionDownload, ResourceType: audit.ResourcePDF, IDParam: "id"},

	"POST /2024-04-01/dental-claims/submission":                                       {Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true},
	"POST /2024-04-01/dental-claims/raw-x12-submission":                               {Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true},
	"POST /2024-04-01/change/medicalnetwork/professionalclaims/v3/submission":         {Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true},
	"POST /2024-04-01/change/medicalnetwork/professionalclaims/v3/raw-x12-submission": {Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true},
	// A claim status inquiry reads the state of a claim from its payer.
	"POST /2024-04-01/change/medicalnetwork/claimstatus/v2":         {Action: audit.ActionRead, ResourceType: audit.ResourceClaim},
	"POST /2024-04-01/change/medicalnetwork/claimstatus/v2/raw-x12": {Action: audit.ActionRead, ResourceType: audit.ResourceClaim},
	// A validation reads the claim it is sent and keeps nothing.
	"POST /2024-04-01/change/medicalnetwork/professionalclaims/v3/validation": {Action: audit.ActionRead, ResourceType: audit.ResourceClaim},

	"POST /2023-08-01/files/inbound":                                                             {Action: audit.ActionCreate, ResourceType: audit.ResourceFile, IDFromBody: true},
	"GET /2023-08-01/executions":                                                                 {Action: audit.ActionList, ResourceType: audit.ResourceFile},
	"GET /2023-08-01/executions/{executionId}":                                                   {Action: audit.ActionRead, ResourceType: audit.ResourceFile, IDParam: "executionId"},
	"GET /2023-08-01/executions/{executionId}/input":                                             {Action: audit.ActionDownload, ResourceType: audit.ResourceFile, IDParam: "executionId"},
	"GET /2023-08-01/executions/{executionId}/output":                                            {Action: audit.ActionDownload, ResourceType: audit.ResourceFile, IDParam: "executionId"},
	"GET /2023-08-01/executions/{executionId}/metadata":                                          {Action: audit.ActionDownload, ResourceType: audit.ResourceFile, IDParam: "executionId"},
	"GET /2023-08-01/executions/{executionId}/transactions":                                      {Action: audit.ActionList, ResourceType: audit.ResourceTransaction, IDParam: "executionId"},
	"GET /2023-08-01/transactions":                                                               {Action: audit.ActionList, ResourceType: audit.ResourceTransaction},
	"GET /2023-08-01/polling/transactions":                                                       {Action: audit.ActionList, ResourceType: audit.ResourceTransaction},
	"GET /2023-08-01/transactions/{transactionId}":                                               {Action: audit.ActionRead, ResourceType: audit.ResourceTransaction, IDParam: "transactionId"},
	"GET /2023-08-01/transactions/{transactionId}/input":                                         {Action: audit.ActionDownload, ResourceType: audit.ResourceTransaction, IDParam: "transactionId"},
	"GET /2023-08-01/transactions/{transactionId}/output":                                        {Action: audit.ActionDownload, ResourceType: audit.ResourceTransaction, IDParam: "transactionId"},
	"GET /2023-08-01/transactions/{transactionId}/fragments/{fragmentIndex}/output":              {Action: audit.ActionDownload, ResourceType: audit.ResourceTransaction, IDParam: "transactionId"},
	"GET /2023-08-01/transactions/{transactionId}/edi-platform/fragments/{fragmentIndex}/output": {Action: audit.ActionDownload, ResourceType: audit.ResourceTransaction, IDParam: "transactionId"},

	"GET /2024-04-01/change/medicalnetwork/reports/v2/{transactionId}/835": {Action: audit.ActionRead, ResourceType: audit.ResourceReport, IDParam: "transactionId"},
	"GET /2024-04-01/change/medicalnetwork/reports/v2/{transactionId}/277": {Action: audit.ActionRead, ResourceType: audit.ResourceReport, IDParam: "transactionId"},
	"GET /2024-04-01/electronic-remittance-advice/{transactionId}/pdf":     {Action: audit.ActionDownload, ResourceType: audit.ResourcePDF, IDParam: "transactionId"},

	"GET /2025-03-07/claims":                  {Action: audit.ActionList, ResourceType: audit.ResourceClaim},
	"GET /2025-03-07/claims/{id}":             {Action: audit.ActionRead, ResourceType: audit.ResourceClaim, IDParam: "id"},
	"GET /2025-03-07/claims/{id}/timeline":    {Action: audit.ActionRead, ResourceType: audit.ResourceClaim, IDParam: "id"},
	"GET /2025-03-07/unmatched-claim-reports": {Action: audit.ActionList, ResourceType: audit.ResourceReport},

	"GET /2023-08-01/events":                  {Action: audit.ActionList, ResourceType: audit.ResourceEvent},
	"GET /2023-08-01/events/{eventId}":        {Action: audit.ActionRead, ResourceType: audit.ResourceEvent, IDParam: "eventId"},
	"POST /2023-08-01/events/{eventId}/retry": {Action: audit.ActionRetry, ResourceType: audit.ResourceEvent, IDParam: "eventId"},

	auditEventsPattern: {Action: audit.ActionRead, ResourceType: audit.ResourceAuditLog},
}

const auditEventsPattern = "GET /2024-04-01/audit-events"

// auditRule is the route's rule: from auditRules, or for any other claim
// route (a POST pattern with "claims/" in it) by its last segment: a
// submission creates a claim, named by its correlation id; a validation
// reads one. New claim types are audited without a change here.
func auditRule(pattern string) (audit.Rule, bool) {
	if rule, ok := auditRules[pattern]; ok {
		return rule, true
	}
	if !strings.HasPrefix(pattern, "POST ") || !strings.Contains(pattern, "claims/") {
		return audit.Rule{}, false
	}
	switch {
	case strings.HasSuffix(pattern, "submission"):
		return audit.Rule{Action: audit.ActionCreate, ResourceType: audit.ResourceClaim, IDFromBody: true}, true
	case strings.HasSuffix(pattern, "/validation"):
		return audit.Rule{Action: audit.ActionRead, ResourceType: audit.ResourceClaim}, true
	}
	return audit.Rule{}, false
}

// audited wraps the handler of a route that touches PHI with the recorder.
func (s *Server) audited(pattern string, h http.Handler) http.Handler {
	rule, ok := auditRule(pattern)
	if !ok {
		return h
	}
	if pattern == auditEventsPattern {
		// The JSON-lines form is an export.
		export := rule
		export.Action = audit.ActionExport
		read, exported := s.recorder.Wrap(rule, apiCaller, auditUnavailable, h), s.recorder.Wrap(export, apiCaller, auditUnavailable, h)
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Query().Get("format") == "jsonl" {
				exported.ServeHTTP(w, r)
				return
			}
			read.ServeHTTP(w, r)
		})
	}
	return s.recorder.Wrap(rule, apiCaller, auditUnavailable, h)
}

// apiCaller is the API key of an authenticated request.
func apiCaller(r *http.Request) (account, mode, actorType, actorID string, ok bool) {
	p := httpkit.PrincipalFrom(r.Context())
	return p.AccountID, p.Mode, audit.ActorAPIKey, p.KeyID, p.AccountID != ""
}

func auditUnavailable(w http.ResponseWriter, r *http.Request) {
	httpkit.Logger(r.Context()).Error("access audit: the entry could not be recorded; the answer was withheld")
	WriteError(w, r, Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable,
		"The access could not be recorded in the audit log, so the answer was withheld; retry shortly."))
}

// auditEventJSON is an audit event as the API shows it.
type auditEventJSON struct {
	ID           string    `json:"id"`
	Sequence     int64     `json:"sequence"`
	OccurredAt   time.Time `json:"occurredAt"`
	Mode         string    `json:"mode"`
	ActorType    string    `json:"actorType"`
	ActorID      string    `json:"actorId"`
	RemoteAddr   string    `json:"remoteAddress,omitempty"`
	Action       string    `json:"action"`
	ResourceType string    `json:"resourceType"`
	ResourceID   string    `json:"resourceId,omitempty"`
	Route        string    `json:"route,omitempty"`
	Status       int       `json:"status"`
	PrevHash     string    `json:"previousHash"`
	Hash         string    `json:"hash"`
}

// AuditEventJSON is e as the API and the export show it.
func AuditEventJSON(e store.AuditEvent) any {
	return auditEventJSON{ID: e.ID, Sequence: e.Seq, OccurredAt: e.At, Mode: e.Mode, ActorType: e.ActorType, ActorID: e.ActorID,
		RemoteAddr: e.RemoteAddr, Action: e.Action, ResourceType: e.ResourceType, ResourceID: e.ResourceID, Route: e.Route,
		Status: e.Status, PrevHash: e.PrevHash, Hash: e.Hash}
}

type auditHandlers struct{ store store.Store }

// list is GET /2024-04-01/audit-events: the caller's account and mode's
// audit events, newest first, filtered by action, resourceType,
// resourceId, from and to; paged like the other lists, or every page at
// once as JSON lines with format=jsonl.
func (h auditHandlers) list(w http.ResponseWriter, r *http.Request) {
	p := httpkit.PrincipalFrom(r.Context())
	l := parseListQuery(r)
	f := store.AuditFilter{Mode: p.Mode, Action: l.oneOf("action", audit.Actions...),
		ResourceType: l.oneOf("resourceType", audit.ResourceTypes...), ResourceID: l.q.Get("resourceId"),
		From: l.From, To: l.To, Limit: l.PageSize, Cursor: l.Token}
	format := l.oneOf("format", "json", "jsonl")
	if len(f.ResourceID) > 200 {
		l.fail("resourceId", "must be at most 200 characters")
	}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	if format == "jsonl" {
		h.export(w, r, p.AccountID, f)
		return
	}
	list, next, err := h.store.ListAuditEvents(r.Context(), p.AccountID, f)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	items := make([]any, 0, len(list))
	for _, e := range list {
		items = append(items, AuditEventJSON(e))
	}
	WriteJSON(w, http.StatusOK, page[any]{Items: items, NextPageToken: next})
}

// export streams every matching event, one JSON object a line, page by
// page.
func (h auditHandlers) export(w http.ResponseWriter, r *http.Request, account string, f store.AuditFilter) {
	f.Limit = 500
	first, next, err := h.store.ListAuditEvents(r.Context(), account, f)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	w.Header().Set("Content-Type", "application/x-ndjson")
	w.WriteHeader(http.StatusOK)
	out := bufio.NewWriter(w)
	enc := json.NewEncoder(out)
	for list := first; ; {
		for _, e := range list {
			enc.Encode(AuditEventJSON(e))
		}
		if next == "" || r.Context().Err() != nil {
			break
		}
		f.Cursor = next
		if list, next, err = h.store.ListAuditEvents(r.Context(), account, f); err != nil {
			httpkit.Logger(r.Context()).Error("audit export stopped", "error", err.Error())
			break
		}
	}
	out.Flush()
}

package api

import (
	"errors"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/clearhouse/clearhouse/internal/claimstatus"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
)

// lifecycleHandlers: the claims lifecycle API (the hosted Claims API,
// 2025-03-07): every claim of the key's account and mode with its status
// and timeline, and the claims of inbound answers that name none of them.
type lifecycleHandlers struct {
	store  store.Store
	events *events.Emitter // the reports' URLs
}

// Bounds of the list filters (the hosted API's: status 1–20 values).
const (
	maxStatusFilters = 20
	maxPCNFilters    = 100
	maxPageToken     = 1024
)

// list is GET /2025-03-07/claims.
func (h lifecycleHandlers) list(w http.ResponseWriter, r *http.Request) {
	l := parseListQuery(r)
	f := store.ClaimFilter{Limit: l.PageSize, Cursor: l.pageToken()}
	f.Statuses = l.values("status", maxStatusFilters, func(v string) string {
		if slices.Contains(store.ClaimStatuses, v) {
			return ""
		}
		return "must be one of " + quoteList(store.ClaimStatuses) + "; got " + strconv.Quote(v)
	})
	f.PatientControlNumbers = l.values("patientControlNumbers", maxPCNFilters, func(v string) string {
		if len(v) > 50 {
			return "a patient control number has at most 50 characters (CLM01 has at most 38)"
		}
		return ""
	})
	f.SubmittedFrom, f.SubmittedTo = l.time("submittedAfter"), l.time("submittedBefore")
	f.PayerID = l.q.Get("payerId")
	if len(f.PayerID) > 80 {
		l.fail("payerId", "has at most 80 characters")
	}
	f.ServiceFrom, f.ServiceTo = l.date("serviceDateFrom"), l.date("serviceDateTo")
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	claims, next, err := tenant(r, h.store).Claims(r.Context(), f)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	out := page[claimstatus.Record]{Items: make([]claimstatus.Record, 0, len(claims)), NextPageToken: next}
	for _, c := range claims {
		out.Items = append(out.Items, claimstatus.NewRecord(c))
	}
	WriteJSON(w, http.StatusOK, out)
}

// claim finds the caller's claim named by the path's id.
func (h lifecycleHandlers) claim(r *http.Request) (store.DentalClaim, error) {
	raw := r.PathValue("id")
	id, ok := claimstatus.ParseID(raw)
	if !ok {
		return store.DentalClaim{}, Validation(FieldError{Path: "/path/id",
			Message: "must be a claim id: clm_ and a ULID such as clm_01KHCCA4V6K00NFPX588G859SJ (the prefix is optional); got " + strconv.Quote(truncate(raw, 60))})
	}
	c, err := tenant(r, h.store).DentalClaim(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		return c, Errorf(http.StatusNotFound, CodeNotFound, "No claim %s for this API key's account and mode.", claimstatus.PublicID(id))
	}
	return c, err
}

// get is GET /2025-03-07/claims/{id}.
func (h lifecycleHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := h.claim(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	routes, err := tenant(r, h.store).UpstreamSubmissions(r.Context(), c.ExecutionID)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	rec := claimstatus.NewRecord(c)
	rec.Route = claimstatus.Route(routes)
	WriteJSON(w, http.StatusOK, rec)
}

// timeline is GET /2025-03-07/claims/{id}/timeline. A claim's timeline is
// bounded (one submission, its delivery attempts, at most 200 answers, the
// newest store.MaxClaimStatusInquiries real-time answers), so it is built
// whole and a page is a slice of it; the token is its offset.
func (h lifecycleHandlers) timeline(w http.ResponseWriter, r *http.Request) {
	l := parseListQuery(r)
	offset := pageOffset(l, "t")
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	c, err := h.claim(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	t := tenant(r, h.store)
	attempts, err := t.JobAttempts(r.Context(), c.ExecutionID, delivery.JobID(c.ExecutionID))
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		WriteError(w, r, err)
		return
	}
	answers, err := t.ClaimAnswers(r.Context(), c.ID)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	routes, err := t.UpstreamSubmissions(r.Context(), c.ExecutionID)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	inquiries, err := t.ClaimStatusInquiries(r.Context(), c.ID)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	entries := claimstatus.Timeline(c, attempts, answers, routes, inquiries)
	size := l.PageSize
	if size == 0 {
		size = 100
	}
	out := page[claimstatus.Entry]{Items: []claimstatus.Entry{}}
	if offset < len(entries) {
		end := min(offset+size, len(entries))
		out.Items = entries[offset:end]
		if end < len(entries) {
			out.NextPageToken = offsetToken("t", end)
		}
	}
	WriteJSON(w, http.StatusOK, out)
}

// unmatchedReport is one claim of an inbound 277CA or 835 that names no
// claim of the account (or, without patientControlNumber, a whole set none
// of whose claims does).
type unmatchedReport struct {
	ID                   string `json:"id"`
	TransactionID        string `json:"transactionId"`
	ReportType           string `json:"reportType"` // 277CA or 835
	PatientControlNumber string `json:"patientControlNumber,omitempty"`
	ProcessedAt          string `json:"processedAt"`
	ReportURL            string `json:"reportUrl"`
}

// unmatched is GET /2025-03-07/unmatched-claim-reports.
func (h lifecycleHandlers) unmatched(w http.ResponseWriter, r *http.Request) {
	l := parseListQuery(r)
	tok := l.pageToken()
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	list, next, err := tenant(r, h.store).UnmatchedReports(r.Context(), l.PageSize, tok)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	out := page[unmatchedReport]{Items: make([]unmatchedReport, 0, len(list)), NextPageToken: next}
	for _, u := range list {
		set := "835"
		if u.Kind == store.ClaimAnswer277CA {
			set = "277"
		}
		out.Items = append(out.Items, unmatchedReport{ID: u.ID, TransactionID: u.TransactionID, ReportType: u.Kind,
			PatientControlNumber: u.PatientControlNumber, ProcessedAt: u.CreatedAt.UTC().Format(time.RFC3339Nano),
			ReportURL: h.events.URL("2024-04-01/change/medicalnetwork/reports/v2", u.TransactionID, set)})
	}
	WriteJSON(w, http.StatusOK, out)
}

// pageToken is the pageToken parameter, bounded.
func (l *listQuery) pageToken() string {
	if len(l.Token) > maxPageToken {
		l.fail("pageToken", "has at most 1024 characters; pass the nextPageToken of a previous page unchanged")
		return ""
	}
	return l.Token
}

// values reads a repeatable parameter (name=a&name=b, or name=a,b): at
// most max values, each checked by bad (a message, "" when good).
func (l *listQuery) values(name string, max int, bad func(string) string) []string {
	var out []string
	for _, v := range l.q[name] {
		for _, part := range strings.Split(v, ",") {
			if part = strings.TrimSpace(part); part == "" {
				continue
			}
			if msg := bad(part); msg != "" {
				l.fail(name, msg)
				return nil
			}
			out = append(out, part)
		}
	}
	if len(out) > max {
		l.fail(name, "takes at most "+strconv.Itoa(max)+" values; got "+strconv.Itoa(len(out)))
		return nil
	}
	return out
}

// date reads an optional YYYY-MM-DD parameter.
func (l *listQuery) date(name string) string {
	v := l.q.Get(name)
	if v == "" {
		return ""
	}
	if _, err := time.Parse("2006-01-02", v); err != nil {
		l.fail(name, "must be a date such as 2026-11-24 (YYYY-MM-DD); got "+strconv.Quote(truncate(v, 40)))
		return ""
	}
	return v
}

// truncate keeps an echoed value short: at most n bytes, cut on a rune.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

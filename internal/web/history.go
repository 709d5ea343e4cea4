package web

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/eligibility/summary"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// historyData is the history page.
type historyData struct {
	Filter   historyFilter
	Errors   map[string]string
	Rows     []historyRow
	Next     string // URL of the next (older) page, "" on the last
	Payers   []payers.Payer
	Statuses []option
}

// historyFilter is the filter form, as typed.
type historyFilter struct {
	Payer, Status, From, To     string
	Patient, MemberID, DOB, DOS string // DOB and DOS as YYYY-MM-DD
	TZ                          string // the viewer's time zone (IANA), set by app.js
}

// Any reports whether the filter narrows the list.
func (f historyFilter) Any() bool {
	return f.Payer != "" || f.Status != "" || f.From != "" || f.To != "" || f.Patient != "" || f.MemberID != "" || f.DOB != "" || f.DOS != ""
}

type historyRow struct {
	ID        string
	CreatedAt time.Time
	Mode      string
	PayerID   string
	PayerName string
	Patient   string
	MemberID  string
	Status    string
}

// historyPageSize is how many checks one page lists.
const historyPageSize = 25

// historyPage lists the account's checks, newest first, filtered by payer,
// status and date (UTC days, both ends inclusive).
func (c *Console) historyPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	q := r.URL.Query()
	f := historyFilter{Payer: strings.TrimSpace(q.Get("payer")), Status: q.Get("status"), From: q.Get("from"), To: q.Get("to"),
		Patient: strings.TrimSpace(q.Get("patient")), MemberID: strings.TrimSpace(q.Get("member")), DOB: q.Get("dob"), DOS: q.Get("dos"),
		TZ: q.Get("tz")}
	data := historyData{Filter: f, Errors: map[string]string{}, Payers: c.cfg.Payers.List(), Statuses: statusOptions()}

	// A session sees the checks of its key's mode, as the API's history does:
	// test and production checks of one account are two separate histories.
	// Requests that never reached a payer (a form with mistakes, an unknown
	// payer) are not checks to a front desk, so the unfiltered list leaves
	// them out; asking for "Error" or "Invalid request" shows them, as the
	// API's history does.
	filter := store.EligibilityFilter{Status: f.Status, Mode: v.Mode, Limit: historyPageSize, Cursor: q.Get("cursor"),
		PatientName: f.Patient, MemberID: f.MemberID, SentOnly: f.Status == ""}
	if f.Payer != "" {
		// Names as well as ids: "united" lists every United payer.
		filter.PayerIDs = payerMatches(c.cfg.Payers, f.Payer)
		if len(filter.PayerIDs) == 0 {
			data.Errors["payer"] = "No payer in the list matches this; check the spelling or pick one from the list."
		}
	}
	if f.Status != "" && statusLabels[f.Status] == "" {
		data.Errors["status"] = "Pick a status from the list."
	}
	for _, d := range []struct {
		in, key string
		out     *string
	}{{f.DOB, "dob", &filter.PatientBirthDate}, {f.DOS, "dos", &filter.ServiceDate}} {
		if d.in == "" {
			continue
		}
		if t, err := time.Parse("2006-01-02", d.in); err != nil {
			data.Errors[d.key] = "Enter a date such as 2026-01-31."
		} else {
			*d.out = t.Format("20060102")
		}
	}
	loc := viewerZone(f.TZ)
	var err error
	if filter.From, err = parseDay(f.From, loc); err != nil {
		data.Errors["from"] = "Enter a date such as 2026-01-31."
	}
	if filter.To, err = parseDay(f.To, loc); err != nil {
		data.Errors["to"] = "Enter a date such as 2026-01-31."
	} else if !filter.To.IsZero() {
		filter.To = filter.To.AddDate(0, 0, 1) // through the end of that day
	}
	if !filter.From.IsZero() && !filter.To.IsZero() && !filter.From.Before(filter.To) {
		data.Errors["to"] = "The end date must not be before the start date."
	}
	status := http.StatusOK
	if len(data.Errors) > 0 {
		c.renderPage(w, r, http.StatusBadRequest, "history", page{Title: "Check history", Nav: "history", Data: data})
		return
	}
	checks, next, err := c.tenant(v).EligibilityChecks(r.Context(), filter)
	if errors.Is(err, store.ErrBadCursor) {
		c.showError(w, r, http.StatusBadRequest, "Bad page link", "This page link is not valid; go back to the first page of the history.")
		return
	}
	if err != nil {
		c.fail(w, r, err)
		return
	}
	for _, ch := range checks {
		data.Rows = append(data.Rows, c.historyRow(ch))
	}
	if next != "" {
		nq := url.Values{}
		for k, v := range map[string]string{"payer": f.Payer, "status": f.Status, "from": f.From, "to": f.To, "cursor": next,
			"patient": f.Patient, "member": f.MemberID, "dob": f.DOB, "dos": f.DOS, "tz": f.TZ} {
			if v != "" {
				nq.Set(k, v)
			}
		}
		data.Next = "/checks?" + nq.Encode()
	}
	c.renderPage(w, r, status, "history", page{Title: "Check history", Nav: "history", Data: data})
}

func (c *Console) historyRow(ch store.EligibilityCheck) historyRow {
	row := historyRow{ID: ch.ID, CreatedAt: ch.CreatedAt, Mode: ch.Mode, PayerID: ch.TradingPartnerServiceID,
		PayerName: ch.PayerName, Status: ch.Status}
	var req eligibility.Request
	if json.Unmarshal(ch.RequestJSON, &req) == nil {
		if row.PayerID == "" {
			row.PayerID = req.TradingPartnerServiceID
		}
		row.Patient = patientName(&req)
		if req.Subscriber != nil {
			row.MemberID = req.Subscriber.MemberID
		}
	}
	if row.PayerName == "" {
		if p, ok := c.cfg.Payers.Lookup(row.PayerID); ok {
			row.PayerName = p.Name
		}
	}
	return row
}

// patientName is the person a request asks about: its dependent, else its
// subscriber.
func patientName(req *eligibility.Request) string {
	if len(req.Dependents) > 0 {
		d := req.Dependents[0]
		if n := strings.TrimSpace(d.FirstName + " " + d.LastName); n != "" {
			return n
		}
	}
	if s := req.Subscriber; s != nil {
		return strings.TrimSpace(s.FirstName + " " + s.LastName)
	}
	return ""
}

func statusOptions() []option {
	out := []option{{"", "Any status"}}
	for _, s := range []string{"active", "inactive", "rejected", "invalid", "error", "unknown"} {
		out = append(out, option{s, statusLabels[s]})
	}
	return out
}

// parseDay reads a date input's YYYY-MM-DD as the start of that day in
// the viewer's time zone.
func parseDay(s string, loc *time.Location) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.ParseInLocation("2006-01-02", s, loc)
}

// viewerZone is the time zone the browser reported (app.js fills a hidden
// input), UTC when it did not or named no zone we know.
func viewerZone(name string) *time.Location {
	if name == "" || len(name) > 64 {
		return time.UTC
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return time.UTC
	}
	return loc
}

// resultPage shows one stored check of the signed-in account. Another
// account's check id is "not found", the same as an id that never existed.
func (c *Console) resultPage(w http.ResponseWriter, r *http.Request) {
	ch, ok := c.ownCheck(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	view := summary.New(ch, c.cfg.Payers)
	if view.SimulatedBy, ok = c.simulatedBy(w, r, ch.ID); !ok {
		return
	}
	c.renderPage(w, r, http.StatusOK, "check_result", page{Title: "Eligibility check " + ch.ID, Nav: "history", Data: view})
}

// ownCheck reads a check of the signed-in account and mode, or answers 404
// (also for another account's or the other mode's check) or 500 and reports
// false.
func (c *Console) ownCheck(w http.ResponseWriter, r *http.Request, id string) (store.EligibilityCheck, bool) {
	v := viewerFrom(r.Context())
	ch, err := c.tenant(v).EligibilityCheck(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		c.notFound(w, r)
		return ch, false
	}
	if err != nil {
		c.fail(w, r, err)
		return ch, false
	}
	return ch, true
}

// payerSearch answers the eligibility check's payer box as it is typed
// in with <option>s for its datalist, searched by name, id or alias:
// only payers that take eligibility checks, as the list the page starts
// with.
func (c *Console) payerSearch(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query().Get("q")
	if q == "" {
		q = r.URL.Query().Get("payer")
	}
	if strings.TrimSpace(q) == "" {
		c.render(w, r, http.StatusOK, "check_new", "payer_options", c.payersTaking(payers.Eligibility))
		return
	}
	var list []payers.Payer
	for _, p := range c.cfg.Payers.Search(q, 0) {
		if p.Supports(payers.Eligibility) {
			list = append(list, p)
			if len(list) == 20 {
				break
			}
		}
	}
	c.render(w, r, http.StatusOK, "check_new", "payer_options", list)
}

package web

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/store"
)

// filesPageSize is how many files one page of the list shows.
const filesPageSize = 50

// filesFilter is the files list's search form, as typed.
type filesFilter struct {
	Direction, Status, Partnership, Name, From, To string
}

func (f filesFilter) Any() bool {
	return f.Direction != "" || f.Status != "" || f.Partnership != "" || f.Name != "" || f.From != "" || f.To != ""
}

type filesData struct {
	Filter   filesFilter
	Errors   map[string]string
	Rows     []fileRow
	Next     string
	Statuses []option
}

// fileStatusOptions are the status filter's choices, in an office's words.
func fileStatusOptions() []option {
	return []option{{"", "Any status"}, {store.ExecutionCompleted, "Processed"}, {store.ExecutionFailed, "Failed"},
		{store.ExecutionDelivered, "Delivered"}, {store.ExecutionPendingDelivery, "Pending delivery"},
		{store.ExecutionProcessing, "Processing"}, {store.ExecutionReceived, "Received, not yet processed"}}
}

// filesPage lists the account's files, newest first.
func (c *Console) filesPage(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	q := r.URL.Query()
	f := filesFilter{Direction: q.Get("direction"), Status: q.Get("status"), Partnership: strings.TrimSpace(q.Get("partnership")),
		Name: strings.TrimSpace(q.Get("name")), From: q.Get("from"), To: q.Get("to")}
	data := filesData{Filter: f, Errors: map[string]string{}, Statuses: fileStatusOptions()}
	sf := store.ExecutionFilter{Mode: v.Mode, Status: f.Status, PartnershipID: f.Partnership, NameContains: f.Name,
		Limit: filesPageSize, Cursor: q.Get("cursor")}
	switch f.Direction {
	case "", store.DirectionInbound, store.DirectionOutbound:
		sf.Direction = f.Direction
	default:
		data.Errors["direction"] = "Pick received or sent."
	}
	if !validOption(fileStatusOptions(), f.Status) {
		data.Errors["status"] = "Pick a status from the list."
	}
	if len(f.Name) > 200 || len(f.Partnership) > 200 {
		data.Errors["name"] = "Type at most 200 characters."
	}
	sf.From, sf.To = dayRange(f.From, f.To, data.Errors)
	status := http.StatusOK
	if len(data.Errors) > 0 {
		status = http.StatusBadRequest
	} else {
		rows, next, err := c.tenant(v).Executions(r.Context(), sf)
		if err != nil {
			c.listFailed(w, r, err)
			return
		}
		for _, e := range rows {
			row := fileRow{Execution: e}
			if row.NextAttempt, err = c.nextDeliveryAttempt(r.Context(), e); err != nil {
				c.fail(w, r, err)
				return
			}
			data.Rows = append(data.Rows, row)
		}
		if next != "" {
			nq := r.URL.Query()
			nq.Set("cursor", next)
			data.Next = "/files?" + nq.Encode()
		}
	}
	c.renderPage(w, r, status, "files", page{Title: "Files", Nav: "files", Data: data})
}

// fileRow is a file in the list.
type fileRow struct {
	store.Execution
	// NextAttempt is when a pending outbound file's next delivery attempt
	// runs, after a failed one (zero otherwise).
	NextAttempt time.Time
}

// nextDeliveryAttempt reads when a pending outbound file is tried again,
// once an attempt has failed.
func (c *Console) nextDeliveryAttempt(ctx context.Context, e store.Execution) (time.Time, error) {
	if e.Status != store.ExecutionPendingDelivery {
		return time.Time{}, nil
	}
	job, err := c.deliveryJob(ctx, e.ID)
	if err != nil || job == nil || job.Attempt == 0 || job.State != store.JobAvailable {
		return time.Time{}, err
	}
	return job.RunAt, nil
}

func validOption(opts []option, v string) bool {
	for _, o := range opts {
		if o.Value == v {
			return true
		}
	}
	return false
}

// dayStart parses a YYYY-MM-DD date as the start of that UTC day.
func dayStart(s string) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	return time.Parse("2006-01-02", s)
}

// dayRange reads a list filter's from and to days (UTC) as the span
// [from, to + 1 day), so the last day counts whole; a day that is not a
// date gets a front-desk message in errs under "from" or "to".
func dayRange(from, to string, errs map[string]string) (start, end time.Time) {
	var err error
	if start, err = dayStart(from); err != nil {
		errs["from"] = "Enter a date like 2026-01-31."
	}
	if end, err = dayStart(to); err != nil {
		errs["to"] = "Enter a date like 2026-01-31."
	} else if !end.IsZero() {
		end = end.Add(24 * time.Hour)
	}
	return start, end
}

// listFailed answers a list query that failed: a page link whose cursor
// is stale or forged is the user's to fix; anything else is ours.
func (c *Console) listFailed(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(err, store.ErrBadCursor) {
		c.showError(w, r, http.StatusBadRequest, "Bad page link", "This page link is not valid any more. Start again from the first page.")
		return
	}
	c.fail(w, r, err)
}

// uploadData is the upload form.
type uploadData struct {
	Error string
}

func (c *Console) uploadPage(w http.ResponseWriter, r *http.Request) {
	c.renderPage(w, r, http.StatusOK, "file_upload", page{Title: "Upload a file", Nav: "files", Data: uploadData{}})
}

// uploadFile hands an uploaded file to the EDI core, like a file arriving
// through a connection, and opens its page (which follows its processing).
func (c *Console) uploadFile(w http.ResponseWriter, r *http.Request) {
	v := viewerFrom(r.Context())
	refuse := func(status int, msg string) {
		c.renderPage(w, r, status, "file_upload", page{Title: "Upload a file", Nav: "files", Data: uploadData{Error: msg}})
	}
	// checkCSRF has parsed the form (the token is a form field).
	if r.MultipartForm == nil || len(r.MultipartForm.File["file"]) == 0 {
		refuse(http.StatusBadRequest, "Choose a file to upload.")
		return
	}
	fh := r.MultipartForm.File["file"][0]
	body, err := fh.Open()
	if err != nil {
		c.fail(w, r, err)
		return
	}
	defer body.Close()
	e, err := c.cfg.Core.Receive(r.Context(), core.ReceiveParams{AccountID: v.AccountID, Mode: v.Mode, Name: fh.Filename, Dirname: "console", Body: body})
	switch {
	case errors.Is(err, core.ErrEmptyFile):
		refuse(http.StatusBadRequest, "This file is empty. Choose the file again; it may not have finished saving.")
		return
	case errors.Is(err, core.ErrFileTooLarge):
		refuse(http.StatusRequestEntityTooLarge, "This file is larger than this server accepts ("+formatBytes(c.cfg.Core.MaxFileBytes())+"). Split it and upload the parts.")
		return
	case errors.Is(err, core.ErrBadName):
		refuse(http.StatusBadRequest, "The file's name cannot be used: rename it with letters, digits, dots, dashes or underscores and upload it again.")
		return
	case store.IsUnavailable(err):
		c.showError(w, r, http.StatusServiceUnavailable, "Not saved", "The file could not be saved because storage is unavailable. Nothing was kept; try again in a minute.")
		return
	case err != nil:
		c.fail(w, r, err)
		return
	}
	http.Redirect(w, r, "/files/"+url.PathEscape(e.ID), http.StatusSeeOther)
}

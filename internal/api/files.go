package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/store"
)

// filesModule: the EDI core's routes (spec §4.3, api-contract §5.3): the
// upload of inbound files, executions and transactions with their
// documents, and the signed download links those answer with.
type fileHandlers struct {
	core   *core.Service
	store  store.Store
	events *events.Emitter // the artifacts' URLs
	pace   UploadPace      // the uploads' read deadline
}

// upload is POST /2023-08-01/files/inbound?name=FILENAME: the raw body is
// the file (any content type). 202 once the file and its processing job
// are durable.
func (h fileHandlers) upload(w http.ResponseWriter, r *http.Request) {
	h.pace.extendDeadlines(w, r, h.core.MaxFileBytes())
	p := httpkit.PrincipalFrom(r.Context())
	q := r.URL.Query()
	ex, err := h.core.Receive(r.Context(), core.ReceiveParams{AccountID: p.AccountID, Mode: p.Mode,
		Name: q.Get("name"), Dirname: q.Get("dirname"), Body: r.Body})
	var tooBig *http.MaxBytesError
	switch {
	case err == nil:
		WriteJSON(w, http.StatusAccepted, map[string]string{"executionId": ex.ID, "status": ex.Status})
	case errors.Is(err, core.ErrBadDirname):
		msg := err.Error()
		WriteError(w, r, Validation(FieldError{Path: "/query/dirname", Message: msg[strings.LastIndex(msg, ": ")+2:] +
			"; send the folder the file came from as ?dirname=/inbound, or nothing"}))
	case errors.Is(err, core.ErrBadName):
		msg := err.Error()
		WriteError(w, r, Validation(FieldError{Path: "/query/name", Message: msg[strings.LastIndex(msg, ": ")+2:] +
			"; send the file's name as ?name=claims-0001.x12"}))
	case errors.Is(err, core.ErrEmptyFile):
		WriteError(w, r, Errorf(http.StatusBadRequest, CodeBadRequest, "The request body is empty; send the file's bytes as the body."))
	case errors.As(err, &tooBig):
		WriteError(w, r, tooLarge(tooBig.Limit))
	case errors.Is(err, core.ErrFileTooLarge):
		WriteError(w, r, tooLarge(h.core.MaxFileBytes()))
	case bodyTimedOut(err):
		WriteError(w, r, Errorf(http.StatusRequestTimeout, CodeRequestTimeout,
			"The file did not arrive within %s (the time a file of the %d-byte limit takes at %d KiB/s); nothing was recorded. Send it again over a faster link, or split it.",
			h.pace.readTime(h.core.MaxFileBytes()), h.core.MaxFileBytes(), h.pace.MinRate>>10))
	case errors.Is(err, io.ErrUnexpectedEOF):
		WriteError(w, r, Errorf(http.StatusBadRequest, CodeBadRequest,
			"The request body ended before its Content-Length; nothing was recorded. Send the whole file."))
	case store.IsInvalidInput(err):
		WriteError(w, r, err)
	default:
		httpkit.Logger(r.Context()).Error("inbound file not recorded", "error", err.Error())
		WriteError(w, r, Errorf(http.StatusServiceUnavailable, CodeServiceUnavailable,
			"The file could not be stored; nothing was recorded. Send it again shortly."))
	}
}

// UploadPace is how long an upload may take. An upload may take longer
// than the server's --read-timeout (60 s: 300 MB at 5 MB/s is cut): its
// read deadline is what a file of the size limit takes at MinRate, plus
// ReadBase; its write deadline leaves uploadAnswerTime after that to store
// the file and answer. Zero fields are the defaults.
type UploadPace struct {
	ReadBase time.Duration // default DefaultUploadReadBase
	MinRate  int64         // bytes per second; default DefaultUploadMinRate
}

// Defaults of UploadPace.
const (
	DefaultUploadReadBase = 60 * time.Second
	DefaultUploadMinRate  = int64(1 << 20)
	uploadAnswerTime      = 2 * time.Minute
)

func (p UploadPace) withDefaults() UploadPace {
	if p.ReadBase <= 0 {
		p.ReadBase = DefaultUploadReadBase
	}
	if p.MinRate <= 0 {
		p.MinRate = DefaultUploadMinRate
	}
	return p
}

// readTime is the time allowed to read an upload of at most limit bytes.
func (p UploadPace) readTime(limit int64) time.Duration {
	return p.ReadBase + time.Duration(limit/p.MinRate)*time.Second
}

// extendDeadlines moves the connection's read and write deadlines for an
// upload of at most limit bytes (the server's own ones are set for every
// request when its headers are read).
func (p UploadPace) extendDeadlines(w http.ResponseWriter, r *http.Request, limit int64) {
	read := time.Now().Add(p.readTime(limit))
	rc := http.NewResponseController(w)
	if err := errors.Join(rc.SetReadDeadline(read), rc.SetWriteDeadline(read.Add(uploadAnswerTime))); err != nil {
		httpkit.Logger(r.Context()).Warn("upload deadline not extended; the server's read timeout applies", "error", err.Error())
	}
}

// bodyTimedOut: reading the body failed on the read deadline.
func bodyTimedOut(err error) bool {
	var netErr net.Error
	return errors.Is(err, os.ErrDeadlineExceeded) || (errors.As(err, &netErr) && netErr.Timeout())
}

// executionJSON is an execution as the API shows it.
type executionJSON struct {
	ExecutionID      string          `json:"executionId"`
	Status           string          `json:"status"`
	Direction        string          `json:"direction"`
	Mode             string          `json:"mode"`
	FileType         string          `json:"fileType"`
	TransactionCount int             `json:"transactionCount"`
	FaultCount       int             `json:"faultCount"`
	FaultCode        string          `json:"faultCode,omitempty"`
	FaultMessage     string          `json:"faultMessage,omitempty"`
	PartnershipID    string          `json:"partnershipId,omitempty"`
	ConnectionID     string          `json:"connectionId,omitempty"`
	Source           core.Source     `json:"source"`
	Artifacts        []core.Artifact `json:"artifacts"`
	CreatedAt        time.Time       `json:"createdAt"`
	ProcessedAt      *time.Time      `json:"processedAt,omitempty"`
}

func (h fileHandlers) showExecution(e store.Execution) executionJSON {
	out := executionJSON{ExecutionID: e.ID, Status: e.Status, Direction: e.Direction, Mode: e.Mode, FileType: e.FileType,
		TransactionCount: e.TransactionCount, FaultCode: e.FaultCode, FaultMessage: e.FaultMessage,
		PartnershipID: e.PartnershipID, ConnectionID: e.ConnectionID,
		Source: core.Source{Dirname: e.SourceDirname, Name: e.SourceName}, Artifacts: []core.Artifact{}, CreatedAt: e.CreatedAt}
	if e.FaultCode != "" {
		out.FaultCount = 1
	}
	if !e.ProcessedAt.IsZero() {
		out.ProcessedAt = &e.ProcessedAt
	}
	add := func(a store.Artifact, contentType, usage string) {
		if a.Key == "" {
			return
		}
		size := a.Size
		out.Artifacts = append(out.Artifacts, core.Artifact{ArtifactType: contentType, Usage: usage,
			URL: h.events.ExecutionURL(e.ID, usage), SizeBytes: &size, Model: "execution"})
	}
	add(e.Input, e.Input.ContentType, "input")
	add(e.Output, "application/edi-x12", "output")
	add(e.Metadata, "application/json", "metadata")
	return out
}

func (h fileHandlers) execution(r *http.Request) (store.Execution, error) {
	id := r.PathValue("executionId")
	e, err := tenant(r, h.store).Execution(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		err = Errorf(http.StatusNotFound, CodeNotFound, "No file execution %s for this API key's account and mode.", id)
	}
	return e, err
}

func (h fileHandlers) getExecution(w http.ResponseWriter, r *http.Request) {
	e, err := h.execution(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	WriteJSON(w, http.StatusOK, h.showExecution(e))
}

func (h fileHandlers) listExecutions(w http.ResponseWriter, r *http.Request) {
	p := httpkit.PrincipalFrom(r.Context())
	l := parseListQuery(r)
	f := store.ExecutionFilter{Mode: p.Mode, Direction: l.oneOf("direction", store.DirectionInbound, store.DirectionOutbound),
		Status: l.oneOf("status", store.ExecutionReceived, store.ExecutionProcessing, store.ExecutionCompleted,
			store.ExecutionFailed, store.ExecutionPendingDelivery, store.ExecutionDelivered),
		From: l.From, To: l.To, Limit: l.PageSize, Cursor: l.Token}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	list, next, err := tenant(r, h.store).Executions(r.Context(), f)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	items := make([]executionJSON, 0, len(list))
	for _, e := range list {
		items = append(items, h.showExecution(e))
	}
	WriteJSON(w, http.StatusOK, page[executionJSON]{Items: items, NextPageToken: next})
}

// executionDocument answers 302 to a signed link of the execution's input,
// output or metadata document.
func (h fileHandlers) executionDocument(usage string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		e, err := h.execution(r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		doc, contentType := e.Input, e.Input.ContentType
		switch usage {
		case "output":
			doc, contentType = e.Output, "application/edi-x12"
		case "metadata":
			doc, contentType = e.Metadata, "application/json"
		}
		if doc.Key == "" {
			WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "File execution %s has no %s document (status %s).", e.ID, usage, e.Status))
			return
		}
		h.redirect(w, r, doc.Key, contentType)
	}
}

// redirect is the contract's answer for documents: 302 to a short-lived
// signed URL, which the body also carries.
func (h fileHandlers) redirect(w http.ResponseWriter, r *http.Request, key, contentType string) {
	u, err := h.core.DownloadURL(r.Context(), key, contentType)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	w.Header().Set("Location", u)
	w.Header().Set("Cache-Control", "no-store")
	WriteJSON(w, http.StatusFound, map[string]string{"documentDownloadUrl": u})
}

// download serves a signed link of the embedded store: no API key, one
// document, until the link expires. The document is inert: saved as an
// attachment, of a type from a fixed list, sandboxed, never sniffed.
func (h fileHandlers) download(w http.ResponseWriter, r *http.Request) {
	d, err := h.core.OpenDownload(r.Context(), r.PathValue("token"))
	if err != nil {
		if errors.Is(err, core.ErrBadDownload) {
			WriteError(w, r, Errorf(http.StatusForbidden, CodeForbidden, "%s; ask the API for a new link.", core.ErrBadDownload.Message))
			return
		}
		WriteError(w, r, err)
		return
	}
	defer d.Body.Close()
	inertDocument(w.Header(), d.ContentType, d.FileName)
	w.WriteHeader(http.StatusOK)
	io.Copy(w, d.Body)
}

// transactionJSON is a transaction as the API shows it (api-contract §5.3).
type transactionJSON struct {
	TransactionID       string               `json:"transactionId"`
	FileExecutionID     string               `json:"fileExecutionId"`
	Status              string               `json:"status"`
	Direction           string               `json:"direction"`
	Mode                string               `json:"mode"`
	ProcessedAt         time.Time            `json:"processedAt"`
	Artifacts           []core.Artifact      `json:"artifacts"`
	Partnership         *core.PartnershipRef `json:"partnership,omitempty"`
	X12                 *core.X12Detail      `json:"x12,omitempty"`
	Fragments           *core.FragmentsInfo  `json:"fragments"`
	BusinessIdentifiers []businessIdentifier `json:"businessIdentifiers,omitempty"`
	TranslationErrors   []json.RawMessage    `json:"translationErrors"`
}

type businessIdentifier struct {
	ElementID string `json:"elementId"`
	Element   string `json:"element"`
	Name      string `json:"name"`
	Value     string `json:"value"`
}

func (h fileHandlers) showTransaction(t store.Transaction) transactionJSON {
	out := transactionJSON{TransactionID: t.ID, FileExecutionID: t.ExecutionID, Status: t.Status, Direction: t.Direction,
		Mode: t.Mode, ProcessedAt: t.ProcessedAt, TranslationErrors: []json.RawMessage{}}
	var rec core.TransactionRecord
	if json.Unmarshal(t.Detail, &rec) == nil {
		out.Partnership, out.X12, out.Fragments = rec.Partnership, &rec.X12, rec.Fragments
	}
	for _, a := range []struct {
		doc   store.Artifact
		usage string
	}{{t.Input, "input"}, {t.Output, "output"}} {
		if a.doc.Key != "" {
			size := a.doc.Size
			out.Artifacts = append(out.Artifacts, core.Artifact{ArtifactType: a.doc.ContentType, Usage: a.usage,
				URL: h.events.TransactionURL(t.ID, a.usage), SizeBytes: &size, Model: "transaction"})
		}
	}
	for _, f := range t.Fragments {
		size := f.Output.Size
		out.Artifacts = append(out.Artifacts, core.Artifact{ArtifactType: "application/json", Usage: "output",
			URL: h.events.TransactionURL(t.ID, "fragments", strconv.Itoa(f.Index), "output"), SizeBytes: &size, Model: "fragment"})
	}
	for _, b := range t.Identifiers {
		out.BusinessIdentifiers = append(out.BusinessIdentifiers, businessIdentifier{ElementID: b.ElementID, Element: b.Element, Name: b.Name, Value: b.Value})
	}
	return out
}

func (h fileHandlers) transaction(r *http.Request) (store.Transaction, error) {
	id := r.PathValue("transactionId")
	t, err := tenant(r, h.store).Transaction(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		err = Errorf(http.StatusNotFound, CodeNotFound, "No transaction %s for this API key's account and mode.", id)
	}
	return t, err
}

func (h fileHandlers) getTransaction(w http.ResponseWriter, r *http.Request) {
	t, err := h.transaction(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	WriteJSON(w, http.StatusOK, h.showTransaction(t))
}

func (h fileHandlers) transactionDocument(usage string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, err := h.transaction(r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		doc := t.Input
		if usage == "output" {
			doc = t.Output
		}
		if doc.Key == "" {
			WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "Transaction %s has no %s document.", t.ID, usage))
			return
		}
		h.redirect(w, r, doc.Key, doc.ContentType)
	}
}

func (h fileHandlers) fragmentDocument(w http.ResponseWriter, r *http.Request) {
	t, err := h.transaction(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	raw := r.PathValue("fragmentIndex")
	i, err := strconv.Atoi(raw)
	if err != nil || i < 0 {
		WriteError(w, r, Validation(FieldError{Path: "/path/fragmentIndex", Message: "must be a whole number from 0; got " + strconv.Quote(raw)}))
		return
	}
	if i >= len(t.Fragments) {
		WriteError(w, r, Errorf(http.StatusNotFound, CodeNotFound, "Transaction %s has %d fragments (0 to %d); there is no fragment %d.",
			t.ID, len(t.Fragments), len(t.Fragments)-1, i))
		return
	}
	h.redirect(w, r, t.Fragments[i].Output.Key, "application/json")
}

func (h fileHandlers) listTransactions(w http.ResponseWriter, r *http.Request) {
	h.transactions(w, r, "")
}

func (h fileHandlers) executionTransactions(w http.ResponseWriter, r *http.Request) {
	e, err := h.execution(r)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	h.transactions(w, r, e.ID)
}

// transactions lists transactions, newest first, with the contract's
// filters: direction, status, transactionSetId, partnershipId, sender,
// receiver (ISA "qualifier/id"), businessIdentifier (+ elementId), from, to.
func (h fileHandlers) transactions(w http.ResponseWriter, r *http.Request, executionID string) {
	p := httpkit.PrincipalFrom(r.Context())
	l := parseListQuery(r)
	f := store.TransactionFilter{Mode: p.Mode, ExecutionID: executionID,
		Direction:          l.oneOf("direction", store.DirectionInbound, store.DirectionOutbound),
		Status:             l.oneOf("status", store.TransactionSucceeded, store.TransactionFailed),
		TransactionSetID:   l.q.Get("transactionSetId"),
		PartnershipID:      l.q.Get("partnershipId"),
		Sender:             l.q.Get("sender"),
		Receiver:           l.q.Get("receiver"),
		BusinessIdentifier: l.q.Get("businessIdentifier"),
		ElementID:          l.q.Get("elementId"),
		From:               l.From, To: l.To, Limit: l.PageSize, Cursor: l.Token}
	if m := l.q.Get("mode"); m != "" && m != p.Mode {
		l.fail("mode", fmt.Sprintf("this API key sees %s records only; got %q", p.Mode, m))
	}
	if v := f.TransactionSetID; v != "" && (len(v) != 3 || strings.Trim(v, "0123456789") != "") {
		l.fail("transactionSetId", "must be a 3-digit X12 transaction set such as 835 or 277; got "+strconv.Quote(v))
	}
	if f.ElementID != "" && f.BusinessIdentifier == "" {
		l.fail("elementId", "narrows businessIdentifier; send businessIdentifier too")
	}
	if err := l.err(); err != nil {
		WriteError(w, r, err)
		return
	}
	h.writeTransactions(w, r, f)
}

// writeTransactions answers one page of the key's transactions.
func (h fileHandlers) writeTransactions(w http.ResponseWriter, r *http.Request, f store.TransactionFilter) {
	list, next, err := tenant(r, h.store).Transactions(r.Context(), f)
	if err != nil {
		WriteError(w, r, pageError(err))
		return
	}
	items := make([]transactionJSON, 0, len(list))
	for _, t := range list {
		items = append(items, h.showTransaction(t))
	}
	WriteJSON(w, http.StatusOK, page[transactionJSON]{Items: items, NextPageToken: next})
}

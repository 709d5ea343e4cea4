package api

import (
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/reports"
	"github.com/clearhouse/clearhouse/internal/store"
)

// reportHandlers: a stored 277 or 835 transaction as the contract's report
// JSON ("Convert Reports" v2), and an 835 as an ERA PDF. Same visibility as
// the transaction: the key's account and mode only; a transaction of another
// type answers 404 as if it did not exist, so ids of other kinds leak nothing.
type reportHandlers struct {
	store store.Store
	blobs blob.Store
}

// transaction finds the caller's transaction of one set type and opens its
// X12 (the set with its ISA and GS).
func (h reportHandlers) transaction(r *http.Request, setID string) (store.Transaction, io.ReadCloser, error) {
	id := r.PathValue("transactionId")
	t, err := tenant(r, h.store).Transaction(r.Context(), id)
	if err == nil && (t.TransactionSetID != setID || t.Input.Key == "") {
		err = store.ErrNotFound
	}
	if errors.Is(err, store.ErrNotFound) {
		return t, nil, Errorf(http.StatusNotFound, CodeNotFound, "No %s transaction %s for this API key's account and mode.", setID, id)
	}
	if err != nil {
		return t, nil, err
	}
	rc, err := h.blobs.Get(r.Context(), t.Input.Key)
	return t, rc, err
}

func reportMeta(t store.Transaction) reports.Meta {
	mode := "production"
	if t.Mode == store.ModeTest {
		mode = "test"
	}
	// The report's senderId is the most recent sender: the interchange's
	// ISA06 as stored ("qualifier/id").
	_, sender, _ := strings.Cut(t.Sender, "/")
	return reports.Meta{ApplicationMode: mode, SenderID: strings.TrimSpace(sender), TransactionID: t.ID}
}

// report streams the conversion: memory stays bounded by one claim however
// large the set. A stored transaction was validated when it arrived, so a
// failure half-way is a storage fault; the connection is then cut, so a
// client never takes a truncated report for a whole one.
func (h reportHandlers) report(setID string, convert func(io.Reader, io.Writer, reports.Meta) error) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		t, rc, err := h.transaction(r, setID)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		defer rc.Close()
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Cache-Control", "private, no-store")
		if err := convert(rc, w, reportMeta(t)); err != nil {
			httpkit.Logger(r.Context()).Error("report conversion failed", "transactionId", t.ID, "error", err)
			panic(http.ErrAbortHandler)
		}
	}
}

// eraPDF answers the PDF base64-encoded unless the client asks for
// application/pdf, as the hosted API does (its gateway encodes binary
// bodies for clients that do not accept them).
func (h reportHandlers) eraPDF(w http.ResponseWriter, r *http.Request) {
	t, rc, err := h.transaction(r, "835")
	if err != nil {
		WriteError(w, r, err)
		return
	}
	defer rc.Close()
	pdf, err := reports.ERAPDF(rc, reportMeta(t))
	if errors.Is(err, reports.ErrTooLargeForPDF) {
		WriteError(w, r, Errorf(http.StatusUnprocessableEntity, CodeValidation,
			"This remittance has more than %d claim payments, too many for a PDF; read it as JSON from /2024-04-01/change/medicalnetwork/reports/v2/%s/835.",
			reports.MaxPDFClaims, t.ID))
		return
	}
	if err != nil {
		WriteError(w, r, err)
		return
	}
	body := pdf
	if !acceptsPDF(r.Header.Get("Accept")) {
		body = []byte(base64.StdEncoding.EncodeToString(pdf))
	}
	hd := w.Header()
	inertDocument(hd, "application/pdf", "era-"+t.ID+".pdf")
	hd.Set("Content-Length", strconv.Itoa(len(body)))
	w.WriteHeader(http.StatusOK)
	w.Write(body)
}

func acceptsPDF(accept string) bool {
	for _, part := range strings.Split(accept, ",") {
		mt, _, _ := strings.Cut(strings.TrimSpace(part), ";")
		if strings.EqualFold(strings.TrimSpace(mt), "application/pdf") {
			return true
		}
	}
	return false
}

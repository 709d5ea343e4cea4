package api

import (
	"encoding/json"
	"errors"
	"net/http"
	"reflect"
	"slices"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/eligibility"
	"github.com/clearhouse/clearhouse/internal/httpkit"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Eligibility routes: the legacy JSON check (api-contract.md §1), its
// raw-X12 sibling, and the history of checks.
type eligibilityHandlers struct {
	svc    *eligibility.Service
	checks store.Queries
}

func callerOf(r *http.Request) eligibility.Caller {
	p := httpkit.PrincipalFrom(r.Context())
	return eligibility.Caller{AccountID: p.AccountID, KeyID: p.KeyID, Mode: payers.Mode(p.Mode)}
}

// check is POST …/eligibility/v3.
func (h *eligibilityHandlers) check(w http.ResponseWriter, r *http.Request) {
	var req eligibility.Request
	body, plain, err := readJSONBodyPlain(r, &req)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.Check(r.Context(), callerOf(r), &req)
	if err == nil && res.JSON != nil && !plain {
		// Said to the caller only: the history keeps the answer as built.
		res.JSON = withUnknownFields(res.JSON, unknownFields(body, reflect.TypeFor[eligibility.Request]()))
	}
	writeResult(w, r, res, err)
	if res != nil {
		res.Release() // written: the next check's answer reuses its buffer
	}
}

// checkRawX12 is POST …/eligibility/v3/raw-x12.
func (h *eligibilityHandlers) checkRawX12(w http.ResponseWriter, r *http.Request) {
	var req eligibility.RawRequest
	if err := DecodeJSON(r, &req); err != nil {
		WriteError(w, r, err)
		return
	}
	res, err := h.svc.CheckRawX12(r.Context(), callerOf(r), &req)
	writeResult(w, r, res, err)
}

func writeResult(w http.ResponseWriter, r *http.Request, res *eligibility.Result, err error) {
	if err != nil {
		WriteError(w, r, err) // logged; a generic 500 naming the request id
		return
	}
	h := w.Header()
	if res.JSON == nil { // the service could not encode it; WriteJSON answers 500
		if res.ID != "" {
			h.Set("X-Eligibility-Check-Id", res.ID)
		}
		if res.NotRecorded || res.HTTPStatus == http.StatusTooManyRequests {
			h.Set("Retry-After", "1")
		}
		WriteJSON(w, res.HTTPStatus, res.Body())
		return
	}
	// The header values share one array, as setSecurityHeaders' do (Set
	// allocates a slice for each); each slice ends where its value does.
	v := []string{"application/json", strconv.Itoa(len(res.JSON)), res.ID, "1"}
	if res.ID != "" { // empty when the check could not be recorded (503)
		h["X-Eligibility-Check-Id"] = v[2:3:3]
	}
	if res.NotRecorded || res.HTTPStatus == http.StatusTooManyRequests {
		h["Retry-After"] = v[3:4:4]
	}
	// With its length known the 10–20 KB answer is not chunked; WriteWhole
	// sends it with its headers in one write(2), not two (net/http's 4 KB
	// connection buffer, then the rest), and the client wakes up once.
	h["Content-Type"], h["Content-Length"] = v[0:1:1], v[1:2:2]
	httpkit.WriteWhole(w, r, res.HTTPStatus, res.JSON)
}

// eligibilityCheckSummary is one item of the history list.
type eligibilityCheckSummary struct {
	ID                      string    `json:"id"`
	CreatedAt               time.Time `json:"createdAt"`
	Mode                    string    `json:"mode"`
	TradingPartnerServiceID string    `json:"tradingPartnerServiceId,omitempty"`
	PayerName               string    `json:"payerName,omitempty"`
	// ControlNumber is the caller's controlNumber (sent to the payer as
	// BHT03); InterchangeControlNumber is the ISA13 of the 270 we sent.
	ControlNumber            string  `json:"controlNumber,omitempty"`
	InterchangeControlNumber string  `json:"interchangeControlNumber,omitempty"`
	Status                   string  `json:"status"`
	HTTPStatus               int     `json:"httpStatus"`
	DurationMs               float64 `json:"durationMs"`
	// Route is the production connection that answered.
	Route string `json:"route,omitempty"`
}

// eligibilityCheckDetail is one check with what was sent and answered.
type eligibilityCheckDetail struct {
	eligibilityCheckSummary
	Request     json.RawMessage `json:"request,omitempty"`
	Response    json.RawMessage `json:"response,omitempty"`
	X12Request  string          `json:"x12Request,omitempty"`
	X12Response string          `json:"x12Response,omitempty"`
	// SimulatedBy names the payer simulator scenario that answered a
	// test-mode check (docs/guides/payer-simulator.md).
	SimulatedBy *simulatedBy `json:"simulatedBy,omitempty"`
}

// simulatedBy is the scenario that produced a simulated answer.
type simulatedBy struct {
	Scenario string `json:"scenario"`
	Index    int    `json:"index"`
	Line     int    `json:"line"`
}

func summarize(c store.EligibilityCheck) eligibilityCheckSummary {
	return eligibilityCheckSummary{
		ID: c.ID, CreatedAt: c.CreatedAt.UTC(), Mode: c.Mode, TradingPartnerServiceID: c.TradingPartnerServiceID,
		PayerName: c.PayerName, ControlNumber: c.SubmitterControlNumber, InterchangeControlNumber: c.ControlNumber,
		Status: c.Status, HTTPStatus: c.HTTPStatus,
		DurationMs: float64(c.DurationMicros) / 1000, Route: c.Route,
	}
}

// checkStatuses are the values of a check's history status.
var checkStatuses = []string{eligibility.StatusActive, eligibility.StatusInactive, eligibility.StatusRejected,
	eligibility.StatusInvalid, eligibility.StatusError, eligibility.StatusUnknown}

// list is GET /2024-04-01/eligibility-checks: the caller's checks, newest
// first, in the caller's mode only (test keys never see production checks).
// Filters: payerId, status, from, to (RFC 3339), limit (1–500), cursor.
func (h *eligibilityHandlers) list(w http.ResponseWriter, r *http.Request) {
	p := httpkit.PrincipalFrom(r.Context())
	q := r.URL.Query()
	f := store.EligibilityFilter{PayerID: q.Get("payerId"), Status: q.Get("status"), Mode: p.Mode, Cursor: q.Get("cursor")}
	var fields []FieldError
	for _, t := range []struct {
		name string
		dst  *time.Time
	}{{"from", &f.From}, {"to", &f.To}} {
		if v := q.Get(t.name); v != "" {
			at, err := time.Parse(time.RFC3339, v)
			if err != nil {
				fields = append(fields, FieldError{Path: "/query/" + t.name, Message: "must be an RFC 3339 time such as 2024-08-01T00:00:00Z; got " + strconv.Quote(v)})
			}
			*t.dst = at
		}
	}
	if v := q.Get("limit"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 1 || n > 500 {
			fields = append(fields, FieldError{Path: "/query/limit", Message: "must be a whole number from 1 to 500; got " + strconv.Quote(v)})
		}
		f.Limit = n
	}
	if f.Status != "" && !slices.Contains(checkStatuses, f.Status) {
		// An unknown status matched nothing: an empty page that read as
		// "no such checks" for a misspelt filter.
		fields = append(fields, FieldError{Path: "/query/status", Message: "must be one of " + quoteList(checkStatuses) + "; got " + strconv.Quote(f.Status)})
	}
	if len(fields) > 0 {
		WriteError(w, r, Validation(fields...))
		return
	}
	checks, next, err := tenant(r, h.checks).EligibilityChecks(r.Context(), f)
	if err != nil {
		WriteError(w, r, err)
		return
	}
	items := make([]eligibilityCheckSummary, 0, len(checks))
	for _, c := range checks {
		items = append(items, summarize(c))
	}
	WriteJSON(w, http.StatusOK, struct {
		Items      []eligibilityCheckSummary `json:"items"`
		NextCursor string                    `json:"nextCursor,omitempty"`
	}{items, next})
}

// get is GET /2024-04-01/eligibility-checks/{id}.
func (h *eligibilityHandlers) get(w http.ResponseWriter, r *http.Request) {
	c, err := tenant(r, h.checks).EligibilityCheck(r.Context(), r.PathValue("id"))
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			err = Errorf(http.StatusNotFound, CodeNotFound, "No eligibility check %s for this API key's account and mode.", r.PathValue("id"))
		}
		WriteError(w, r, err)
		return
	}
	detail := eligibilityCheckDetail{
		eligibilityCheckSummary: summarize(c),
		Request:                 rawJSON(c.RequestJSON),
		Response:                rawJSON(c.ResponseJSON),
		X12Request:              string(c.X12Request),
		X12Response:             string(c.X12Response),
	}
	if c.Mode == store.ModeTest {
		sims, err := tenant(r, h.checks).SimulatedAnswers(r.Context(), c.ID)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if len(sims) > 0 {
			detail.SimulatedBy = &simulatedBy{Scenario: sims[0].Scenario, Index: sims[0].Index, Line: sims[0].Line}
		}
	}
	WriteJSON(w, http.StatusOK, detail)
}

// rawJSON passes stored JSON through, or nothing when it is empty or
// damaged (so one bad row cannot break the response).
func rawJSON(b []byte) json.RawMessage {
	if len(b) == 0 || !json.Valid(b) {
		return nil
	}
	return b
}

package claimstatus

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// The claims lifecycle API's claim record, in the hosted Claims API's shape
// (ClaimSummary: GET /2025-03-07/claims and /claims/{id}).

// Record is one claim.
type Record struct {
	ID                     string       `json:"id"`
	StediPayerID           string       `json:"stediPayerId,omitempty"`
	PatientControlNumber   string       `json:"patientControlNumber"`
	PatientName            *PatientName `json:"patientName,omitempty"`
	Status                 string       `json:"status"`
	StatusReportedBy       string       `json:"statusReportedBy"`
	Type                   string       `json:"type"`
	TotalClaimChargeAmount string       `json:"totalClaimChargeAmount"`
	TotalClaimPaidAmount   string       `json:"totalClaimPaidAmount,omitempty"`
	DatesOfService         *DateRange   `json:"datesOfService,omitempty"`
	SubmittedAt            string       `json:"submittedAt"`
	// Route (ours) is the CLEARINGHOUSE_API upstream that accepted the
	// claim's file; GET /2025-03-07/claims/{id} sets it.
	Route string `json:"route,omitempty"`
}

// PatientName is the patient of a claim.
type PatientName struct {
	FirstName  string `json:"firstName,omitempty"`
	MiddleName string `json:"middleName,omitempty"`
	LastName   string `json:"lastName,omitempty"`
	Suffix     string `json:"suffix,omitempty"`
}

// DateRange is a claim's dates of service; a single day has only Start.
type DateRange struct {
	Start string `json:"start"`
	End   string `json:"end,omitempty"`
}

// NewRecord is a stored claim as the claims lifecycle API shows it.
func NewRecord(c store.DentalClaim) Record {
	l := c.Lifecycle
	r := Record{ID: PublicID(c.ID), StediPayerID: c.PayerID, PatientControlNumber: c.PatientControlNumber,
		PatientName: patientName(l.Patient), Status: l.Status, StatusReportedBy: l.ReportedBy, Type: l.Type,
		TotalClaimChargeAmount: Amount(c.ChargeCents), DatesOfService: datesOfService(l),
		SubmittedAt: timestamp(c.CreatedAt)}
	if l.PaidKnown {
		r.TotalClaimPaidAmount = Amount(l.PaidCents)
	}
	if r.Status == "" { // recorded before the lifecycle existed and not migrated
		r.Status, r.StatusReportedBy = store.ClaimStatusUnknown, store.ReportedByClearinghouse
	}
	if r.Type == "" {
		r.Type = "DENTAL"
	}
	return r
}

func patientName(b []byte) *PatientName {
	if len(b) == 0 {
		return nil
	}
	var n PatientName
	if json.Unmarshal(b, &n) != nil || n == (PatientName{}) {
		return nil
	}
	return &n
}

func datesOfService(l store.ClaimLifecycle) *DateRange {
	if l.ServiceStart == "" {
		return nil
	}
	return &DateRange{Start: l.ServiceStart, End: l.ServiceEnd}
}

// Amount writes cents as the hosted API writes money: "245", "200.5",
// "-45.25".
func Amount(cents int64) string {
	return strconv.FormatFloat(float64(cents)/100, 'f', -1, 64)
}

// timestamp is an ISO 8601 time in UTC with milliseconds.
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

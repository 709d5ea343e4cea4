package statusinquiry

import (
	"bytes"
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

// Guide is the 276/277 implementation guide version.
const Guide = "005010X212"

// Envelope names the two ends of the exchange.
type Envelope struct {
	SenderID, ReceiverID string // ISA06 and ISA08 (ZZ qualifiers)
	Usage                string // ISA15, "T" or "P"
	// PayerName is 2100A's name (the payer directory's); the request's
	// tradingPartnerName or the payer id when empty.
	PayerName string
}

// Build writes the request as a 276 interchange. trace is the claim's
// tracking number (TRN02 of 2200D/E) when the request has none; the payer
// echoes it in its 277.
func Build(r *Request, env Envelope, numbers x12.ControlNumbers, now time.Time, trace string) ([]byte, error) {
	var out bytes.Buffer
	iw := x12.NewInterchangeWriter(&out, x12.DefaultDelimiters, numbers)
	w := &segWriter{iw: iw}
	w.do(iw.BeginInterchange(x12.InterchangeHeader{SenderID: env.SenderID, ReceiverID: env.ReceiverID, Date: now, Usage: env.Usage}))
	w.do(iw.BeginGroup(x12.GroupHeader{FunctionalID: "HR", SenderCode: env.SenderID, ReceiverCode: env.ReceiverID, Date: now, Version: Guide}))
	w.do(iw.BeginTransaction("276", Guide))
	if r.Encounter != nil && r.Encounter.TrackingNumber != "" {
		trace = r.Encounter.TrackingNumber
	}
	w.seg("BHT", "0010", "13", trace, now.Format("20060102"), now.Format("1504"))

	billing := r.Providers[0]
	for _, p := range r.Providers {
		if p.ProviderType == "BillingProvider" {
			billing = p
			break
		}
	}
	hasDependent := r.Dependent != nil
	w.seg("HL", "1", "", "20", "1")
	w.seg("NM1", "PR", "2", strings.ToUpper(cmp.Or(env.PayerName, r.TradingPartnerName, r.TradingPartnerServiceID)), "", "", "", "", "PI", r.TradingPartnerServiceID)
	w.seg("HL", "2", "1", "21", "1")
	// The information receiver is who asks: the billing provider, named by
	// its electronic transmitter id when it has one.
	w.seg("NM1", "41", entityType(billing), strings.ToUpper(cmp.Or(billing.OrganizationName, billing.LastName)), strings.ToUpper(orgless(billing, billing.FirstName)), "", "", "", "46",
		cmp.Or(billing.ETIN, billing.TaxID, billing.TIN, billing.NPI))
	w.seg("HL", "3", "2", "19", "1")
	service := billing
	for _, p := range r.Providers {
		if p.ProviderType == "ServiceProvider" {
			service = p
			break
		}
	}
	q, id := providerID(service)
	w.seg("NM1", "1P", entityType(service), strings.ToUpper(cmp.Or(service.OrganizationName, service.LastName)), strings.ToUpper(orgless(service, service.FirstName)), "", "", "", q, id)
	child := "0"
	if hasDependent {
		child = "1"
	}
	w.seg("HL", "4", "3", "22", child)
	s := r.Subscriber
	if s.DateOfBirth != "" && !hasDependent {
		w.seg("DMG", "D8", s.DateOfBirth, cmp.Or(s.Gender, "U"))
	}
	w.seg("NM1", "IL", "1", strings.ToUpper(s.LastName), strings.ToUpper(s.FirstName), "", "", strings.ToUpper(s.Suffix), "MI", s.MemberID)
	if hasDependent {
		d := r.Dependent
		w.seg("HL", "5", "4", "23")
		w.seg("DMG", "D8", d.DateOfBirth, cmp.Or(d.Gender, "U"))
		w.seg("NM1", "QC", "1", strings.ToUpper(d.LastName), strings.ToUpper(d.FirstName), "", "", strings.ToUpper(d.Suffix))
	}
	claimLoop(w, r, trace)
	w.do(iw.EndTransaction())
	w.do(iw.EndGroup())
	w.do(iw.EndInterchange())
	if w.err != nil {
		return nil, fmt.Errorf("statusinquiry: write the 276: %w", w.err)
	}
	return out.Bytes(), nil
}

// claimLoop writes 2200D/E (the claim asked about) and its 2210 lines.
func claimLoop(w *segWriter, r *Request, trace string) {
	w.seg("TRN", "1", trace)
	e := r.Encounter
	if e == nil {
		e = &Encounter{}
	}
	for _, ref := range [][2]string{{"1K", e.TradingPartnerClaimNumber}, {"BLT", e.BillingType}, {"EJ", e.PatientAccountNumber},
		{"XZ", e.PharmacyPrescriptionNumber}, {"D9", e.ClearingHouseClaimNumber}} {
		if ref[1] != "" {
			w.seg("REF", ref[0], ref[1])
		}
	}
	if e.SubmittedAmount != "" {
		w.seg("AMT", "T3", e.SubmittedAmount)
	}
	if e.BeginningDateOfService != "" {
		w.date(e.BeginningDateOfService, e.EndDateOfService)
	}
	for _, l := range r.lines() {
		proc := append([]string{l.ProductOrServiceIDQualifier, l.ProcedureCode}, l.ProcedureModifiers...)
		w.fields("SVC", x12.Composite(proc...), x12.Simple(l.LineItemChargeAmount), x12.Simple(""), x12.Simple(l.RevenueCode),
			x12.Simple(""), x12.Simple(""), x12.Simple(l.UnitsOfServiceCount))
		if l.LineItemControlNumber != "" {
			w.seg("REF", "FJ", l.LineItemControlNumber)
		}
		w.date(l.ServiceLineDate, l.ServiceLineEndDate)
	}
}

func entityType(p Provider) string {
	if p.OrganizationName != "" {
		return "2"
	}
	return "1"
}

// orgless is a person's first name, empty for an organization.
func orgless(p Provider, first string) string {
	if p.OrganizationName != "" {
		return ""
	}
	return first
}

func providerID(p Provider) (qualifier, id string) {
	switch {
	case p.NPI != "":
		return "XX", p.NPI
	case p.TaxID != "":
		return "FI", p.TaxID
	case p.TIN != "":
		return "FI", p.TIN
	default:
		return "SV", p.SPN
	}
}

type segWriter struct {
	iw  *x12.InterchangeWriter
	err error
}

func (w *segWriter) do(err error) {
	if w.err == nil {
		w.err = err
	}
}

// seg writes a segment; trailing empty elements are dropped by the writer.
func (w *segWriter) seg(id string, elems ...string) { w.do(w.iw.WriteSegment(id, elems...)) }

func (w *segWriter) fields(id string, f ...x12.Field) { w.do(w.iw.WriteSegmentFields(id, f...)) }

// date writes DTP*472 as one day (D8) or a range (RD8).
func (w *segWriter) date(begin, end string) {
	if end == "" || end == begin {
		w.seg("DTP", "472", "D8", begin)
		return
	}
	w.seg("DTP", "472", "RD8", begin+"-"+end)
}

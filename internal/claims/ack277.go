package claims

import (
	"bytes"
	"errors"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/x12"
)

// Version277CA is the claim acknowledgment guide.
const Version277CA = "005010X214"

// Status is one STC01 composite: a claim status category code (A0
// forwarded, A1 received, A2 accepted into adjudication, A3 returned as
// unprocessable, A6/A7/A8 rejected for missing, invalid or relational
// information), a claim status code (X12 code source 508: 19 entity
// acknowledges receipt, 20 accepted for processing, 164 entity's
// contract/member number, 562 entity's NPI…) and the entity it concerns
// (IL subscriber, QC patient, 85 billing provider, PR payer, AY
// clearinghouse).
type Status struct {
	Category, Code, Entity string
}

// Accepted reports whether the status is an acceptance (A0–A2).
func (s Status) Accepted() bool {
	return s.Category == "A0" || s.Category == "A1" || s.Category == "A2"
}

func (s Status) field() x12.Field { return x12.Composite(s.Category, s.Code, s.Entity) }

// Ack277 is what a 277CA reports: who acknowledges (a clearinghouse, AY,
// or a payer, PR), to whom, and the status of each claim.
type Ack277 struct {
	// Source is 2100A: entity AY (clearinghouse, id qualifier 46) or PR
	// (payer, PI).
	SourceEntity, SourceName, SourceIDQualifier, SourceID string
	// Receiver is 2100B, the submitter of the claims (NM1*41).
	ReceiverName, ReceiverID string
	// ReceiverStatus is 2200B's STC: the batch as a whole.
	ReceiverStatus Status
	// TraceID is BHT03 and 2200A TRN02; BatchTrace is 2200B TRN02 (the
	// 837's BHT03).
	TraceID, BatchTrace string
	Received            time.Time
	// Provider is 2100C: the billing provider.
	ProviderOrganization, ProviderLast, ProviderFirst, ProviderNPI string
	Claims                                                         []ClaimAck
}

// ClaimAck is one claim's 2000D loop.
type ClaimAck struct {
	PatientLast, PatientFirst, PatientMiddle, PatientSuffix, MemberID string
	PatientControlNumber                                              string
	Charge                                                            string // X12 amount
	Status                                                            Status
	PayerClaimControlNumber                                           string // REF*1K
	ClearinghouseTrace                                                string // REF*D9
	ServiceFrom, ServiceTo                                            string // DTP*472
	// Lines are reported in 2220D, the loop for service-line rejections.
	Lines []LineAck
}

// LineAck is one rejected service line (2220D).
type LineAck struct {
	ProcedureCode, Charge, Count, LineItemControlNumber, Date string
	Status                                                    Status
}

// Ack277Options envelope a 277CA.
type Ack277Options struct {
	Envelope Envelope
	Numbers  x12.ControlNumbers
	Now      time.Time
	Usage    string // ISA15, default P
}

// Write277CA writes a 005010X214 277CA interchange.
func Write277CA(a *Ack277, opts Ack277Options) ([]byte, error) {
	if opts.Numbers == nil {
		return nil, errors.New("claims: 277CA: no control number source")
	}
	if len(a.Claims) == 0 {
		return nil, errors.New("claims: 277CA: no claim to acknowledge")
	}
	env := opts.Envelope.withDefaults(a.ReceiverID)
	now := opts.Now
	if now.IsZero() {
		now = time.Now().UTC()
	}
	received := a.Received
	if received.IsZero() {
		received = now
	}
	var buf bytes.Buffer
	iw := x12.NewInterchangeWriter(&buf, Delimiters, &oneSetPerGroup{opts.Numbers})
	b := &segWriter{w: iw}
	b.do(func() error {
		return iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: env.SenderQualifier, SenderID: env.SenderID,
			ReceiverQualifier: env.ReceiverQualifier, ReceiverID: env.ReceiverID, Date: now, Usage: opts.Usage})
	})
	b.do(func() error {
		return iw.BeginGroup(x12.GroupHeader{FunctionalID: "HN", SenderCode: env.SenderCode, ReceiverCode: env.ReceiverCode,
			Date: now, Version: Version277CA})
	})
	b.do(func() error { return iw.BeginTransaction("277", Version277CA) })
	day := now.Format("20060102")
	b.seg("BHT", "0085", "08", a.TraceID, day, now.Format("1504"), "TH")
	b.seg("HL", "1", "", "20", "1")
	b.seg("NM1", a.SourceEntity, "2", a.SourceName, "", "", "", "", a.SourceIDQualifier, a.SourceID)
	b.seg("TRN", "1", a.TraceID)
	b.seg("DTP", "050", "D8", received.Format("20060102"))
	b.seg("DTP", "009", "D8", day)
	b.seg("HL", "2", "1", "21", "1")
	b.seg("NM1", "41", "2", a.ReceiverName, "", "", "", "", "46", a.ReceiverID)
	b.seg("TRN", "2", a.BatchTrace)
	var accepted, rejected int
	var acceptedCents, rejectedCents int64
	for _, c := range a.Claims {
		cents, _ := parseSignedCents(c.Charge)
		if c.Status.Accepted() {
			accepted++
			acceptedCents += cents
		} else {
			rejected++
			rejectedCents += cents
		}
	}
	b.fields("STC", a.ReceiverStatus.field(), x12.Simple(day), x12.Simple("WQ"), x12.Simple(formatCents(acceptedCents+rejectedCents)))
	if accepted > 0 {
		b.seg("QTY", "90", strconv.Itoa(accepted))
	}
	if rejected > 0 {
		b.seg("QTY", "AA", strconv.Itoa(rejected))
	}
	if accepted > 0 {
		b.seg("AMT", "YU", formatCents(acceptedCents))
	}
	if rejected > 0 {
		b.seg("AMT", "YY", formatCents(rejectedCents))
	}
	b.seg("HL", "3", "2", "19", "1")
	if a.ProviderOrganization != "" {
		b.seg("NM1", "85", "2", a.ProviderOrganization, "", "", "", "", "XX", a.ProviderNPI)
	} else {
		b.seg("NM1", "85", "1", a.ProviderLast, a.ProviderFirst, "", "", "", "XX", a.ProviderNPI)
	}
	b.seg("TRN", "1", a.BatchTrace)
	hl := 3
	for _, c := range a.Claims {
		hl++
		b.seg("HL", strconv.Itoa(hl), "3", "PT")
		b.seg("NM1", "QC", "1", c.PatientLast, c.PatientFirst, c.PatientMiddle, "", c.PatientSuffix, "MI", c.MemberID)
		b.seg("TRN", "2", c.PatientControlNumber)
		action := "WQ"
		if !c.Status.Accepted() {
			action = "U"
		}
		b.fields("STC", c.Status.field(), x12.Simple(day), x12.Simple(action), x12.Simple(c.Charge))
		if c.PayerClaimControlNumber != "" {
			b.seg("REF", "1K", c.PayerClaimControlNumber)
		}
		if c.ClearinghouseTrace != "" {
			b.seg("REF", "D9", c.ClearinghouseTrace)
		}
		switch {
		case c.ServiceTo != "" && c.ServiceTo != c.ServiceFrom:
			b.seg("DTP", "472", "RD8", c.ServiceFrom+"-"+c.ServiceTo)
		case c.ServiceFrom != "":
			b.seg("DTP", "472", "D8", c.ServiceFrom)
		default:
			b.seg("DTP", "472", "D8", day) // predeterminations carry no date: report the day acknowledged
		}
		for _, l := range c.Lines {
			b.fields("SVC", x12.Composite("AD", l.ProcedureCode), x12.Simple(l.Charge), x12.Simple(""), x12.Simple(""),
				x12.Simple(""), x12.Simple(""), x12.Simple(l.Count))
			b.fields("STC", l.Status.field(), x12.Simple(day), x12.Simple("U"))
			if l.LineItemControlNumber != "" {
				b.seg("REF", "FJ", l.LineItemControlNumber)
			}
			if l.Date != "" {
				b.seg("DTP", "472", "D8", l.Date)
			}
		}
	}
	b.do(iw.EndTransaction)
	b.do(iw.EndGroup)
	b.do(iw.EndInterchange)
	if b.err != nil {
		return nil, b.err
	}
	return buf.Bytes(), nil
}

// ClaimAckOf describes a request's claim for a 277CA with the given status
// (the dates span the claim's service lines).
func ClaimAckOf(req *Request, correlationID string, st Status) ClaimAck {
	ci := req.ClaimInformation
	c := ClaimAck{MemberID: req.Subscriber.MemberID, PatientControlNumber: ci.PatientControlNumber,
		Charge: amount(ci.ClaimChargeAmount), Status: st, ClearinghouseTrace: correlationID}
	if d := req.Dependent; d != nil {
		c.PatientLast, c.PatientFirst, c.PatientMiddle, c.PatientSuffix = d.LastName, d.FirstName, d.MiddleName, d.Suffix
	} else {
		s := req.Subscriber
		c.PatientLast, c.PatientFirst, c.PatientMiddle, c.PatientSuffix = s.LastName, s.FirstName, s.MiddleName, s.Suffix
		if c.PatientLast == "" {
			c.PatientLast = s.OrganizationName
		}
	}
	if d := ci.ClaimDateInformation; d != nil && d.ServiceDate != "" {
		c.ServiceFrom, c.ServiceTo, _ = dateRange(d.ServiceDate)
	}
	for _, l := range ci.ServiceLines {
		if l.ServiceDate == "" {
			continue
		}
		if c.ServiceFrom == "" || l.ServiceDate < c.ServiceFrom {
			c.ServiceFrom = l.ServiceDate
		}
		if l.ServiceDate > c.ServiceTo {
			c.ServiceTo = l.ServiceDate
		}
	}
	return c
}

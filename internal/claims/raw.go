package claims

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// RawRequest is the raw-X12 submission body: {"x12": "<837D>"}.
type RawRequest struct {
	X12 string `json:"x12"`
}

// RawSubmission is one call of the raw-X12 endpoint.
type RawSubmission struct {
	Caller               Caller
	X12                  string
	Body                 []byte
	IdempotencyKey       string
	TransactionSettingID string
	TraceID              string
}

// MaxRawBytes bounds a raw 837D (a claim of 50 lines is a few KB).
const MaxRawBytes = 1 << 20

// SubmitRaw submits an 837D given as X12: one interchange with one 837
// transaction set, the delimiters * : ^ ~, valid against the 005010X224A2
// guide. The set is sent as it is, re-enveloped with the partnership's
// ISA/GS and control numbers; a service line without REF*6R gets one.
func (s *Service) SubmitRaw(ctx context.Context, sub RawSubmission) (*Result, error) {
	return s.submitRawKind(ctx, dentalKind, "dental-claims/raw-x12-submission", sub)
}

// submitRawKind is the raw-X12 submission of any claim type: the set must
// be written in the kind's guide.
func (s *Service) submitRawKind(ctx context.Context, k *claimKind, route string, sub RawSubmission) (*Result, error) {
	now := s.opts.Clock.Now().UTC()
	do := func(ctx context.Context, _ Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
		return s.submitRaw(ctx, k, sub, now, idem)
	}
	return s.withIdempotency(ctx, Submission{Caller: sub.Caller, Body: sub.Body, Route: route,
		IdempotencyKey: sub.IdempotencyKey}, now, do)
}

func rawError(format string, args ...any) *ValidationError {
	return invalid([]FieldError{{Path: "/x12", Message: fmt.Sprintf(format, args...)}}, 0)
}

func (s *Service) submitRaw(ctx context.Context, k *claimKind, sub RawSubmission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
	x := []byte(strings.TrimSpace(sub.X12))
	switch {
	case len(x) == 0:
		return nil, rawError("is required: one %s interchange (ISA to IEA)", k.form)
	case len(x) > MaxRawBytes:
		return nil, rawError("is %d bytes; the limit is %d", len(x), MaxRawBytes)
	}
	segs, err := readSegments(x, k.anyDelimiters)
	if err != nil {
		return nil, err
	}
	if err := checkVersion(segs, k); err != nil {
		return nil, err
	}
	rep, err := guide.Validate(bytes.NewReader(x), guide.Options{})
	if err != nil {
		return nil, rawError("cannot be read as X12: %v", err)
	}
	var fields findings.List[FieldError]
	for _, f := range rep.All() {
		if f.Rejects() && !fields.Full() {
			fields.Add(FieldError{Path: "/x12", Message: fmt.Sprintf("segment %d (%s, line %d): %s", f.Position, f.SegmentID, f.Line, f.Message)})
		} else if f.Rejects() {
			fields.More++
		}
	}
	if fields.Len() > 0 {
		return nil, invalid(fields.Items, fields.More)
	}
	req, set, err := requestFromX12(segs)
	if err != nil {
		return nil, err
	}
	r, err := s.route(ctx, k, sub.Caller, req.TradingPartnerServiceID, sub.TransactionSettingID)
	if err != nil {
		return nil, err
	}
	usage := segs[0].Element(15)
	if sub.Caller.Mode == store.ModeTest {
		usage = "T"
	}
	correlationID := store.NewID()
	traceID := sub.TraceID
	if traceID == "" {
		traceID = store.NewUUID()
	}
	built, err := reenvelope(k, set, r, usage, now, &shipNumbers{ctx: ctx, c: s.numbers, p: r.ship}, req)
	if err != nil {
		return nil, err
	}
	info := ResponseInfo{CorrelationID: correlationID, TraceID: traceID, Mode: sub.Caller.Mode, PayerID: r.payer.ID,
		PayerName: r.payer.Name, SenderID: r.local.ISAID, Now: now}
	ack, err := ClearinghouseAck(req, built, info, Ack277Options{Numbers: &x12.SequentialControlNumbers{}, Now: now})
	if err != nil {
		return nil, fmt.Errorf("claims: write our 277CA: %w", err)
	}
	info.Ack277 = ack
	return s.finish(ctx, k, Submission{Caller: sub.Caller}, req, built, r, info, now, idem)
}

// readSegments reads every segment of x, which must use our delimiters
// unless anyDelimiters, when the segments are rewritten in ours.
func readSegments(x []byte, anyDelimiters bool) ([]*x12.Segment, error) {
	rd := x12.NewReader(bytes.NewReader(x))
	var segs []*x12.Segment
	for {
		seg, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, rawError("cannot be read as X12: %v", err)
		}
		if len(segs) == 0 && !seg.Is("ISA") {
			return nil, rawError("must start with an ISA segment: send the whole interchange")
		}
		if len(segs) > 20000 {
			return nil, rawError("holds more than 20000 segments")
		}
		segs = append(segs, seg.Clone())
	}
	if len(segs) == 0 {
		return nil, rawError("holds no segment")
	}
	if d := rd.Delimiters(); d != Delimiters && anyDelimiters {
		for i, seg := range segs {
			if seg.Is("ISA") {
				continue // replaced by our envelope
			}
			elems := seg.Elements()
			for j, e := range elems {
				v, err := redelimit(seg.ID(), e, d)
				if err != nil {
					return nil, err
				}
				elems[j] = v
			}
			segs[i] = x12.NewSegment(Delimiters, seg.ID(), elems...)
		}
	} else if d != Delimiters {
		return nil, rawError("must use the delimiters * (element), : (component), ^ (repetition) and ~ (segment); this one uses %q %q %q %q",
			string(d.Element), string(d.Component), string(d.Repetition), string(d.Segment))
	}
	return segs, nil
}

// requestFromX12 reads what the response and our 277CA need from the one
// 837 set of the interchange, and returns the set's segments (ST..SE).
func requestFromX12(segs []*x12.Segment) (*Request, []*x12.Segment, error) {
	var set []*x12.Segment
	sets := 0
	for i, s := range segs {
		if s.Is("ST") {
			sets++
			for j := i; j < len(segs); j++ {
				set = append(set, segs[j])
				if segs[j].Is("SE") {
					break
				}
			}
		}
	}
	if sets != 1 || set[0].Element(1) != "837" {
		return nil, nil, rawError("must hold exactly one 837 transaction set; it holds %d transaction sets", sets)
	}
	req := &Request{Submitter: &Submitter{}, Receiver: &Receiver{}, Billing: &Provider{}, Subscriber: &Subscriber{},
		ClaimInformation: &ClaimInformation{}}
	ci := req.ClaimInformation
	claims := 0
	var line *ServiceLine
	inPatient := false
	for _, s := range set {
		switch s.ID() {
		case "HL":
			inPatient = s.Element(3) == "23"
		case "NM1":
			switch s.Element(1) {
			case "41":
				req.Submitter.OrganizationName, req.Submitter.SubmitterIdentification = s.Element(3), s.Element(9)
			case "40":
				req.Receiver.OrganizationName = s.Element(3)
			case "85":
				if s.Element(2) == "2" {
					req.Billing.OrganizationName = s.Element(3)
				} else {
					req.Billing.LastName, req.Billing.FirstName = s.Element(3), s.Element(4)
				}
				req.Billing.NPI = s.Element(9)
			case "IL":
				if claims == 0 {
					req.Subscriber.LastName, req.Subscriber.FirstName, req.Subscriber.MemberID = s.Element(3), s.Element(4), s.Element(9)
				}
			case "QC":
				if inPatient && claims == 0 {
					req.Dependent = &Dependent{LastName: s.Element(3), FirstName: s.Element(4)}
				}
			case "PR":
				if claims == 0 && req.TradingPartnerServiceID == "" {
					req.TradingPartnerServiceID, req.TradingPartnerName = s.Element(9), s.Element(3)
				}
			}
		case "CLM":
			claims++
			if claims == 1 {
				ci.PatientControlNumber, ci.ClaimChargeAmount = s.Element(1), s.Element(2)
			}
		case "DTP":
			if claims == 1 && (s.Element(1) == "472" || (s.Element(1) == "434" && line == nil)) {
				if line != nil {
					line.ServiceDate = s.Element(3)
				} else {
					ci.ClaimDateInformation = &ClaimDateInformation{ServiceDate: s.Element(3)}
				}
			}
		case "LX":
			if claims == 1 {
				ci.ServiceLines = append(ci.ServiceLines, ServiceLine{DentalService: &DentalService{}})
				line = &ci.ServiceLines[len(ci.ServiceLines)-1]
			}
		case "SV3", "SV1":
			if line != nil && claims == 1 {
				line.DentalService.ProcedureCode, line.DentalService.LineItemChargeAmount = s.Component(1, 2), s.Element(2)
			}
		case "SV2": // revenue code, then the procedure composite
			if line != nil && claims == 1 {
				line.DentalService.ProcedureCode, line.DentalService.LineItemChargeAmount = s.Component(2, 2), s.Element(3)
			}
		case "REF":
			if line != nil && claims == 1 && s.Element(1) == "6R" {
				line.ProviderControlNumber = s.Element(2)
			}
		}
	}
	if claims != 1 {
		return nil, nil, rawError("must hold exactly one claim (CLM); it holds %d: send one request per claim", claims)
	}
	if req.TradingPartnerServiceID == "" {
		return nil, nil, rawError("names no payer: loop 2010BB (NM1*PR) carries the payer id in NM109")
	}
	return req, set, nil
}

// refZone lists the 2400 segments that may come before REF*6R (837D,
// 837P and 837I).
var refZone = map[string]bool{"SV1": true, "SV2": true, "SV3": true, "SV5": true, "TOO": true, "PWK": true, "CR1": true,
	"CR3": true, "CRC": true, "DTP": true, "QTY": true, "MEA": true, "CN1": true, "REF": true}

// checkVersion refuses a set written in another claim type's guide: its
// GS08 must be the kind's guide.
func checkVersion(segs []*x12.Segment, k *claimKind) error {
	for _, s := range segs {
		if s.Is("GS") {
			if v := s.Element(8); v != k.version && !slices.Contains(k.alsoAccepts, v) {
				return rawError("is written in guide %q (GS08); this endpoint takes %s claims in %s: send it to the endpoint of its claim type, or write it in %s", v, k.name, k.version, k.version)
			}
			return nil
		}
	}
	return rawError("holds no functional group (GS): send the whole interchange")
}

// reenvelope writes the set inside the partnership's ISA/GS (ST02 0001, SE
// recounted), adding REF*6R to the lines that have none.
func reenvelope(k *claimKind, set []*x12.Segment, r *route, usage string, now time.Time, numbers x12.ControlNumbers, req *Request) (*Built, error) {
	env := r.envelope().withDefaults(r.payer.ID)
	var buf bytes.Buffer
	iw := x12.NewInterchangeWriter(&buf, Delimiters, &oneSetPerGroup{numbers})
	b := &segWriter{w: iw}
	b.do(func() error {
		return iw.BeginInterchange(x12.InterchangeHeader{SenderQualifier: env.SenderQualifier, SenderID: env.SenderID,
			ReceiverQualifier: env.ReceiverQualifier, ReceiverID: env.ReceiverID, Date: now, Usage: usage})
	})
	b.do(func() error {
		return iw.BeginGroup(x12.GroupHeader{FunctionalID: "HC", SenderCode: env.SenderCode, ReceiverCode: env.ReceiverCode,
			Date: now, Version: k.version})
	})
	b.do(func() error { return iw.BeginTransaction("837", k.version) })
	lines := req.ClaimInformation.ServiceLines
	li := -1
	need := false // the current line still needs its REF*6R
	addRef := func() {
		if need {
			id := store.NewID()
			lines[li].ProviderControlNumber = id
			b.seg("REF", "6R", id)
			need = false
		}
	}
	for _, s := range set[1 : len(set)-1] {
		id := s.ID()
		if id == "REF" && s.Element(1) == "6R" {
			need = false
		}
		if need && !refZone[id] {
			addRef()
		}
		if id == "LX" {
			li++
			need = li < len(lines) && lines[li].ProviderControlNumber == ""
		}
		b.do(func() error { return iw.WriteRaw(s.Raw()) })
	}
	addRef()
	b.do(iw.EndTransaction)
	b.do(iw.EndGroup)
	b.do(iw.EndInterchange)
	if b.err != nil {
		return nil, b.err
	}
	ids := make([]string, len(lines))
	for i, l := range lines {
		ids[i] = l.ProviderControlNumber
	}
	return &Built{X12: buf.Bytes(), Controls: iw.Controls(), LineItemControlNumbers: ids}, nil
}

// redelimit rewrites an element written with delimiters d in ours (: and
// ^). Data that holds one of our delimiters cannot be carried and is
// refused.
func redelimit(segID, e string, d x12.Delimiters) (string, error) {
	out := []byte(e)
	for i, c := range out {
		switch c {
		case d.Component:
			out[i] = componentSeparator
		case d.Repetition:
			out[i] = repetitionSeparator
		case elementSeparator, componentSeparator, repetitionSeparator, segmentTerminator:
			return "", rawError("holds %q as data in a %s segment; it is a delimiter of the claims this server sends: remove it from the value", string(c), segID)
		}
	}
	return string(out), nil
}

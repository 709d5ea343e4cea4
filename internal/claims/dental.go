package claims

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// Submit validates and submits one dental claim (see Service).
func (s *Service) Submit(ctx context.Context, sub Submission) (*Result, error) {
	return s.withIdempotency(ctx, sub, s.opts.Clock.Now().UTC(), s.submit)
}

func (s *Service) submit(ctx context.Context, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
	req := sub.Request
	if err := Validate(req); err != nil {
		return nil, err
	}
	r, err := s.route(ctx, dentalKind, sub.Caller, req.TradingPartnerServiceID, sub.TransactionSettingID)
	if err != nil {
		return nil, err
	}
	if sub.Caller.Mode == store.ModeTest {
		req.UsageIndicator = "T" // test keys send test claims, whatever the body says
	}
	correlationID := store.NewID()
	traceID := sub.TraceID
	if traceID == "" {
		traceID = store.NewUUID()
	}
	built, err := Build837D(req, BuildOptions{
		Envelope: r.envelope(), Numbers: &shipNumbers{ctx: ctx, c: s.numbers, p: r.ship},
		PayerID: r.payer.ID, PayerName: r.payer.Name, CorrelationID: correlationID, Now: now,
		LineID: func(int) string { return store.NewID() },
	})
	if err != nil {
		return nil, fmt.Errorf("claims: build the 837D: %w", err)
	}
	info := ResponseInfo{CorrelationID: correlationID, TraceID: traceID, Mode: sub.Caller.Mode, PayerID: r.payer.ID,
		PayerName: r.payer.Name, SenderID: r.local.ISAID, Now: now}
	ack, err := ClearinghouseAck(req, built, info, Ack277Options{Numbers: &x12.SequentialControlNumbers{}, Now: now})
	if err != nil {
		return nil, fmt.Errorf("claims: write our 277CA: %w", err)
	}
	info.Ack277 = ack
	return s.finish(ctx, sub.Caller, req, built, r, info, now, idem)
}

// finish records a built dental claim and answers its response.
func (s *Service) finish(ctx context.Context, c Caller, req *Request, built *Built, r *route, info ResponseInfo, now time.Time,
	idem *store.IdempotencyRecord) (*Result, error) {
	resp := NewResponse(req, built, info)
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	charge, _ := parseCents(req.ClaimInformation.ClaimChargeAmount)
	oc := outboundClaim{kind: dentalKind, built: built, correlationID: resp.ClaimReference.CorrelationID,
		controlNumber: resp.ControlNumber, patientControlNumber: req.ClaimInformation.PatientControlNumber,
		chargeCents: charge, patientName: patientName(req), body: body}
	if err := s.record(ctx, c, oc, r, now, idem); err != nil {
		return nil, err
	}
	return &Result{Status: 200, Body: body, Response: resp}, nil
}

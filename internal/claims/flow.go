package claims

// The claim flow every claim type shares: edits, route, build, our 277CA,
// record, answer; and the validation-only flow.

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// claimForm is one claim type's request as the shared submission flow
// uses it.
type claimForm interface {
	validate() error
	payerID() string
	testUsage() // a test key's claim is a test claim (ISA15 T), whatever the body says
	build(BuildOptions) (*Built, error)
	// summary is the claim as the response, our 277CA and the claims list
	// read it: the parties, the patient control number, the charge and the
	// lines' dates (the fields the claim types share).
	summary() *Request
}

// submitForm validates, routes, builds and records one claim of kind k.
func (s *Service) submitForm(ctx context.Context, k *claimKind, form claimForm, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
	built, r, info, err := s.prepare(ctx, k, form, sub, now)
	if err != nil {
		return nil, err
	}
	return s.finish(ctx, k, sub, form.summary(), built, r, info, now, idem)
}

// prepare runs everything before recording: the edits, the route, the
// 837 and our 277CA.
func (s *Service) prepare(ctx context.Context, k *claimKind, form claimForm, sub Submission, now time.Time) (*Built, *route, ResponseInfo, error) {
	if err := form.validate(); err != nil {
		return nil, nil, ResponseInfo{}, err
	}
	r, err := s.route(ctx, k, sub.Caller, form.payerID(), sub.TransactionSettingID)
	if err != nil {
		return nil, nil, ResponseInfo{}, err
	}
	if sub.Caller.Mode == store.ModeTest {
		form.testUsage()
	}
	correlationID := store.NewID()
	traceID := sub.TraceID
	if traceID == "" {
		traceID = store.NewUUID()
	}
	built, err := form.build(BuildOptions{
		Envelope: r.envelope(), Numbers: &shipNumbers{ctx: ctx, c: s.numbers, p: r.ship},
		PayerID: r.payer.ID, PayerName: r.payer.Name, CorrelationID: correlationID, Now: now,
		LineID: func(int) string { return store.NewID() },
	})
	if err != nil {
		return nil, nil, ResponseInfo{}, fmt.Errorf("claims: build the %s: %w", k.form, err)
	}
	info := ResponseInfo{CorrelationID: correlationID, TraceID: traceID, Mode: sub.Caller.Mode, PayerID: r.payer.ID,
		PayerName: r.payer.Name, SenderID: r.local.ISAID, Now: now}
	ack, err := ClearinghouseAck(form.summary(), built, info, Ack277Options{Numbers: &x12.SequentialControlNumbers{}, Now: now})
	if err != nil {
		return nil, nil, ResponseInfo{}, fmt.Errorf("claims: write our 277CA: %w", err)
	}
	info.Ack277 = ack
	return built, r, info, nil
}

// validateOnly is the validation endpoint of a claim type.
func (s *Service) validateOnly(ctx context.Context, k *claimKind, form claimForm, sub Submission) (*Result, error) {
	if err := form.validate(); err != nil {
		return nil, err
	}
	r, err := s.route(ctx, k, sub.Caller, form.payerID(), sub.TransactionSettingID)
	if err != nil {
		return nil, err
	}
	now := s.opts.Clock.Now().UTC()
	built, err := form.build(BuildOptions{Envelope: r.envelope(), Numbers: &x12.SequentialControlNumbers{}, // no partnership number is used up
		PayerID: r.payer.ID, PayerName: r.payer.Name, CorrelationID: "VALIDATION", Now: now})
	if err != nil {
		return nil, fmt.Errorf("claims: build the %s: %w", k.form, err)
	}
	if _, err := s.guideJSON(ctx, k, io.Discard, built.X12, store.TransactionSetting{}, ""); err != nil {
		return nil, err
	}
	traceID := sub.TraceID
	if traceID == "" {
		traceID = store.NewUUID()
	}
	resp := ValidationResponse{Meta: Meta{TraceID: traceID, ApplicationMode: sub.Caller.Mode, SenderID: r.local.ISAID},
		TradingPartnerServiceID: r.payer.ID, Payer: Payer{PayerName: r.payer.Name, PayerID: r.payer.ID, PayerIDCamel: r.payer.ID},
		Status: "SUCCESS", EditStatus: "SUCCESS", HTTPStatusCode: "200 OK", Errors: []EditError{}, Warnings: []EditWarning{}}
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	return &Result{Status: 200, Body: body}, nil
}

// ValidationResponse is the validation endpoints' 200 body: the
// submission response's fields that describe the edits, without a claim.
type ValidationResponse struct {
	Meta                    Meta          `json:"meta"`
	TradingPartnerServiceID string        `json:"tradingPartnerServiceId"`
	Payer                   Payer         `json:"payer"`
	Status                  string        `json:"status"`
	EditStatus              string        `json:"editStatus"`
	HTTPStatusCode          string        `json:"httpStatusCode"`
	Errors                  []EditError   `json:"errors"`
	Warnings                []EditWarning `json:"warnings"`
}

// EditError is one failed edit as the contract's errors[] names it. A
// failing edit is answered 400 (the API's field list), so the 200 answer's
// list is empty.
type EditError struct {
	Code           string `json:"code"`
	Description    string `json:"description"`
	FollowupAction string `json:"followupAction,omitempty"`
	Location       string `json:"location,omitempty"`
	Value          string `json:"value,omitempty"`
}

// EditWarning is a warning of the contract's warnings[] (none are issued).
type EditWarning struct {
	Code        string `json:"code"`
	Description string `json:"description"`
}

// finish records a built claim and answers its response; req is the claim
// as the response and the claims list read it (a medical claim's summary).
func (s *Service) finish(ctx context.Context, k *claimKind, sub Submission, req *Request, built *Built, r *route, info ResponseInfo, now time.Time,
	idem *store.IdempotencyRecord) (*Result, error) {
	resp := NewResponse(req, built, info)
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	charge, _ := parseCents(req.ClaimInformation.ClaimChargeAmount)
	oc := outboundClaim{kind: k, built: built, correlationID: resp.ClaimReference.CorrelationID,
		controlNumber: resp.ControlNumber, patientControlNumber: req.ClaimInformation.PatientControlNumber,
		chargeCents: charge, patientName: patientName(req), body: body,
		resends: sub.Resends, frequency: req.ClaimInformation.ClaimFrequencyCode}
	if err := s.record(ctx, sub.Caller, oc, r, now, idem); err != nil {
		return nil, err
	}
	return &Result{Status: 200, Body: body, Response: resp}, nil
}

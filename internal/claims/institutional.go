package claims

import (
	"context"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

var institutionalKind = &claimKind{name: "institutional", form: "837I", version: Version837I, transaction: payers.InstitutionalClaim,
	sourceDirname: "institutional-claims", anyDelimiters: true, alsoAccepts: []string{"005010X223A2"}}

// Routes of the institutional endpoints, as the Idempotency-Key's hash
// names them.
const (
	InstitutionalRoute    = "institutionalclaims/v1/submission"
	InstitutionalRawRoute = "institutionalclaims/v1/raw-x12-submission"
)

type institutionalForm struct{ *InstitutionalRequest }

func (f institutionalForm) validate() error { return ValidateInstitutional(f.InstitutionalRequest) }
func (f institutionalForm) payerID() string { return f.TradingPartnerServiceID }
func (f institutionalForm) testUsage()      { f.UsageIndicator = "T" }
func (f institutionalForm) build(o BuildOptions) (*Built, error) {
	return Build837I(f.InstitutionalRequest, o)
}

func (f institutionalForm) summary() *Request {
	r := f.InstitutionalRequest
	sum := &Request{UsageIndicator: r.UsageIndicator, TradingPartnerServiceID: r.TradingPartnerServiceID, TradingPartnerName: r.TradingPartnerName,
		Submitter: r.Submitter, Receiver: r.Receiver, Subscriber: r.Subscriber, Dependent: r.Dependent, Billing: r.roles()["billing"].p,
		ClaimInformation: &ClaimInformation{}}
	if sub := r.Submitter; sub != nil && sub.SubmitterIdentification == "" {
		cp := *sub
		cp.SubmitterIdentification = sub.TaxID
		sum.Submitter = &cp
	}
	ci := r.ClaimInformation
	if ci == nil {
		return sum
	}
	sum.ClaimInformation.PatientControlNumber, sum.ClaimInformation.ClaimChargeAmount = ci.PatientControlNumber, ci.ClaimChargeAmount
	if d := ci.ClaimDateInformation; d != nil && d.StatementBeginDate != "" {
		sum.ClaimInformation.ClaimDateInformation = &ClaimDateInformation{ServiceDate: d.StatementBeginDate + "-" + d.StatementEndDate}
	}
	for _, l := range ci.ServiceLines {
		line := ServiceLine{ServiceDate: l.ServiceDate, ProviderControlNumber: l.LineItemControlNumber}
		if sv := l.InstitutionalService; sv != nil {
			line.DentalService = &DentalService{ProcedureCode: sv.ProcedureCode, LineItemChargeAmount: sv.LineItemChargeAmount}
		}
		sum.ClaimInformation.ServiceLines = append(sum.ClaimInformation.ServiceLines, line)
	}
	return sum
}

// SubmitInstitutional validates and submits one institutional claim
// (837I), with the same guarantees as a dental claim.
func (s *Service) SubmitInstitutional(ctx context.Context, sub Submission, req *InstitutionalRequest) (*Result, error) {
	return s.withIdempotency(ctx, sub, s.opts.Clock.Now().UTC(), func(ctx context.Context, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
		return s.submitForm(ctx, institutionalKind, institutionalForm{req}, sub, now, idem)
	})
}

// SubmitInstitutionalRaw submits an 837I given as X12 (see SubmitRaw).
func (s *Service) SubmitInstitutionalRaw(ctx context.Context, sub RawSubmission) (*Result, error) {
	return s.submitRawKind(ctx, institutionalKind, InstitutionalRawRoute, sub)
}

package claims

import (
	"context"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

var professionalKind = &claimKind{name: "professional", form: "837P", version: Version837P, transaction: payers.ProfessionalClaim,
	sourceDirname: "professional-claims", anyDelimiters: true}

// Routes of the professional endpoints, as the Idempotency-Key's hash
// names them.
const (
	ProfessionalRoute    = "professionalclaims/v3/submission"
	ProfessionalRawRoute = "professionalclaims/v3/raw-x12-submission"
)

type professionalForm struct{ *ProfessionalRequest }

func (f professionalForm) validate() error { return ValidateProfessional(f.ProfessionalRequest) }
func (f professionalForm) payerID() string { return f.TradingPartnerServiceID }
func (f professionalForm) testUsage()      { f.UsageIndicator = "T" }
func (f professionalForm) build(o BuildOptions) (*Built, error) {
	return Build837P(f.ProfessionalRequest, o)
}

func (f professionalForm) summary() *Request {
	r := f.ProfessionalRequest
	sum := &Request{UsageIndicator: r.UsageIndicator, TradingPartnerServiceID: r.TradingPartnerServiceID, TradingPartnerName: r.TradingPartnerName,
		Submitter: r.Submitter, Receiver: r.Receiver, Subscriber: r.Subscriber, Dependent: r.Dependent, Billing: r.roles()["billing"].p,
		ClaimInformation: &ClaimInformation{}}
	if ci := r.ClaimInformation; ci != nil {
		sum.ClaimInformation.PatientControlNumber, sum.ClaimInformation.ClaimChargeAmount = ci.PatientControlNumber, ci.ClaimChargeAmount
		for _, l := range ci.ServiceLines {
			line := ServiceLine{ServiceDate: l.ServiceDate, ProviderControlNumber: l.ProviderControlNumber}
			if ps := l.ProfessionalService; ps != nil {
				line.DentalService = &DentalService{ProcedureCode: ps.ProcedureCode, LineItemChargeAmount: ps.LineItemChargeAmount}
			}
			sum.ClaimInformation.ServiceLines = append(sum.ClaimInformation.ServiceLines, line)
		}
	}
	return sum
}

// SubmitProfessional validates and submits one professional claim (837P):
// the same guarantees as a dental claim (Idempotency-Key, one commit of the
// claim, its file and its delivery job before the answer).
func (s *Service) SubmitProfessional(ctx context.Context, sub Submission, req *ProfessionalRequest) (*Result, error) {
	return s.withIdempotency(ctx, sub, s.opts.Clock.Now().UTC(), func(ctx context.Context, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
		return s.submitForm(ctx, professionalKind, professionalForm{req}, sub, now, idem)
	})
}

// SubmitProfessionalRaw submits an 837P given as X12 (see SubmitRaw).
func (s *Service) SubmitProfessionalRaw(ctx context.Context, sub RawSubmission) (*Result, error) {
	return s.submitRawKind(ctx, professionalKind, ProfessionalRawRoute, sub)
}

// ValidateProfessionalClaim runs every check of a submission (the edits,
// the payer and its partnership, the 837P against its guide) and sends
// and stores nothing. Its answer is the submission's shape without a
// claim: status, editStatus SUCCESS, the payer and meta.
func (s *Service) ValidateProfessionalClaim(ctx context.Context, sub Submission, req *ProfessionalRequest) (*Result, error) {
	return s.validateOnly(ctx, professionalKind, professionalForm{req}, sub)
}

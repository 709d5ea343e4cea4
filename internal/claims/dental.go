package claims

import (
	"context"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Submit validates and submits one dental claim (see Service).
func (s *Service) Submit(ctx context.Context, sub Submission) (*Result, error) {
	return s.withIdempotency(ctx, sub, s.opts.Clock.Now().UTC(), s.submit)
}

func (s *Service) submit(ctx context.Context, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
	return s.submitForm(ctx, dentalKind, dentalForm{sub.Request}, sub, now, idem)
}

// dentalForm is a dental request as the shared flow uses it.
type dentalForm struct{ *Request }

func (f dentalForm) validate() error                      { return Validate(f.Request) }
func (f dentalForm) payerID() string                      { return f.TradingPartnerServiceID }
func (f dentalForm) testUsage()                           { f.UsageIndicator = "T" }
func (f dentalForm) build(o BuildOptions) (*Built, error) { return Build837D(f.Request, o) }
func (f dentalForm) summary() *Request                    { return f.Request }

package store

import (
	"context"
	"time"
)

// Scope is one tenant: an account in one mode. Every record a tenant
// reaches belongs to exactly one scope (docs/architecture/tenancy.md).
type Scope struct {
	AccountID string
	Mode      string // ModeTest or ModeProduction
}

// Tenant is the store as one scope sees it, and the one place the tenancy
// rule is enforced for reads: a record of another account, or of the
// account's other mode, is ErrNotFound, and every list is narrowed to the
// scope whatever filter the caller passed. The API's handlers and the
// console's pages read tenant records only through it
// (internal/tenancytest's TestTenantCodeReadsThroughScope fails the build
// of a handler that calls the unscoped methods). Workers that act on a
// record they were handed by its own job use the unscoped Queries.
type Tenant struct {
	q     Queries
	scope Scope
}

// ForTenant is q as scope sees it.
func ForTenant(q Queries, scope Scope) Tenant { return Tenant{q: q, scope: scope} }

// Scope is the tenant's account and mode.
func (t Tenant) Scope() Scope { return t.scope }

// inScope turns a record of another mode into ErrNotFound (the account is
// already part of every query).
func inScope[T any](v T, mode string, err error, s Scope) (T, error) {
	if err == nil && mode != s.Mode {
		var zero T
		return zero, ErrNotFound
	}
	return v, err
}

// Execution is one of the tenant's file executions.
func (t Tenant) Execution(ctx context.Context, id string) (Execution, error) {
	e, err := t.q.GetExecution(ctx, t.scope.AccountID, id)
	return inScope(e, e.Mode, err, t.scope)
}

// Executions lists the tenant's file executions.
func (t Tenant) Executions(ctx context.Context, f ExecutionFilter) ([]Execution, string, error) {
	f.Mode = t.scope.Mode
	return t.q.ListExecutions(ctx, t.scope.AccountID, f)
}

// Transaction is one of the tenant's transactions.
func (t Tenant) Transaction(ctx context.Context, id string) (Transaction, error) {
	tx, err := t.q.GetTransaction(ctx, t.scope.AccountID, id)
	return inScope(tx, tx.Mode, err, t.scope)
}

// Transactions lists the tenant's transactions.
func (t Tenant) Transactions(ctx context.Context, f TransactionFilter) ([]Transaction, string, error) {
	f.Mode = t.scope.Mode
	return t.q.ListTransactions(ctx, t.scope.AccountID, f)
}

// Event is one of the tenant's events.
func (t Tenant) Event(ctx context.Context, id string) (Event, error) {
	e, err := t.q.GetEvent(ctx, t.scope.AccountID, id)
	return inScope(e, e.Mode, err, t.scope)
}

// Events lists the tenant's events.
func (t Tenant) Events(ctx context.Context, f EventFilter) ([]Event, string, error) {
	f.Mode = t.scope.Mode
	return t.q.ListEvents(ctx, t.scope.AccountID, f)
}

// EligibilityCheck is one of the tenant's eligibility checks.
func (t Tenant) EligibilityCheck(ctx context.Context, id string) (EligibilityCheck, error) {
	c, err := t.q.GetEligibilityCheck(ctx, t.scope.AccountID, id)
	return inScope(c, c.Mode, err, t.scope)
}

// EligibilityChecks lists the tenant's eligibility checks.
func (t Tenant) EligibilityChecks(ctx context.Context, f EligibilityFilter) ([]EligibilityCheck, string, error) {
	f.Mode = t.scope.Mode
	return t.q.ListEligibilityChecks(ctx, t.scope.AccountID, f)
}

// DentalClaim is one of the tenant's claims.
func (t Tenant) DentalClaim(ctx context.Context, id string) (DentalClaim, error) {
	c, err := t.q.GetDentalClaim(ctx, t.scope.AccountID, id)
	return inScope(c, c.Mode, err, t.scope)
}

// DentalClaims lists the tenant's claims with their files.
func (t Tenant) DentalClaims(ctx context.Context, f DentalClaimFilter) ([]ClaimRow, string, error) {
	f.Mode = t.scope.Mode
	return t.q.ListDentalClaims(ctx, t.scope.AccountID, f)
}

// ClaimAnswers lists the payers' answers to one of the tenant's claims.
func (t Tenant) ClaimAnswers(ctx context.Context, claimID string) ([]ClaimAnswer, error) {
	if _, err := t.DentalClaim(ctx, claimID); err != nil {
		return nil, err
	}
	return t.q.ListClaimAnswers(ctx, t.scope.AccountID, claimID)
}

// Webhook is one of the tenant's webhooks.
func (t Tenant) Webhook(ctx context.Context, id string) (Webhook, error) {
	w, err := t.q.GetWebhook(ctx, t.scope.AccountID, id)
	return inScope(w, w.Mode, err, t.scope)
}

// WebhookForUpdate is Webhook, locking the row for the transaction t reads in.
func (t Tenant) WebhookForUpdate(ctx context.Context, id string) (Webhook, error) {
	w, err := t.q.LockWebhook(ctx, t.scope.AccountID, id)
	return inScope(w, w.Mode, err, t.scope)
}

// Webhooks lists the tenant's webhooks.
func (t Tenant) Webhooks(ctx context.Context) ([]Webhook, error) {
	return t.q.ListWebhooks(ctx, t.scope.AccountID, t.scope.Mode)
}

// Usage sums the tenant's metered calls per key and kind.
func (t Tenant) Usage(ctx context.Context, from, to time.Time) ([]UsageTotal, error) {
	all, err := t.q.UsageByKey(ctx, t.scope.AccountID, from, to)
	if err != nil {
		return nil, err
	}
	own := all[:0]
	for _, u := range all {
		if u.Mode == t.scope.Mode {
			own = append(own, u)
		}
	}
	return own, nil
}

// UpstreamSubmissions lists the routes that took, or tried to take, one
// of the tenant's outbound files to a CLEARINGHOUSE_API upstream.
func (t Tenant) UpstreamSubmissions(ctx context.Context, executionID string) ([]UpstreamSubmission, error) {
	return t.q.ListUpstreamSubmissions(ctx, t.scope.AccountID, t.scope.Mode, executionID)
}

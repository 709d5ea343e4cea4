// Package store keeps Clearhouse's state behind small interfaces, one per
// kind of record. A single implementation written in portable SQL serves both
// engines: SQLite (the embedded default, in the data directory) and
// PostgreSQL (for many replicas). The conformance suite in storetest is what
// keeps the two engines honest; every change here must pass it on both.
//
// Every method that reads account data takes the account id and filters by
// it, so one account can never read another's rows.
package store

import (
	"context"
	"errors"
	"time"
)

// Errors returned by every implementation. Callers test them with errors.Is.
var (
	// ErrNotFound: no row with that id (for that account).
	ErrNotFound = errors.New("store: not found")
	// ErrConflict: a unique value (id, account name) is already taken, or a
	// state change is not allowed from the record's current state.
	ErrConflict = errors.New("store: conflict")
	// ErrLeaseLost: a worker tried to finish a job it no longer holds,
	// because its lease expired and another worker claimed the job.
	ErrLeaseLost = errors.New("store: job lease lost")
)

// Modes of API keys and of the records they create.
const (
	ModeTest       = "test"
	ModeProduction = "production"
)

// Accounts are the tenants. Every other record belongs to one.
type Accounts interface {
	CreateAccount(ctx context.Context, a Account) error
	GetAccount(ctx context.Context, id string) (Account, error)
	GetAccountByName(ctx context.Context, name string) (Account, error)
	ListAccounts(ctx context.Context) ([]Account, error)
}

// APIKeys holds key records; the secret itself is never stored, only its
// SHA-256 (see package auth).
type APIKeys interface {
	CreateAPIKey(ctx context.Context, k APIKey) error
	// GetAPIKey looks a key up by its public id. It is the one read that
	// happens before the caller's account is known (authentication).
	GetAPIKey(ctx context.Context, id string) (APIKey, error)
	ListAPIKeys(ctx context.Context, accountID string) ([]APIKey, error)
	// RevokeAPIKey marks the key revoked at the given time. Revoking an
	// already revoked key keeps the first time and returns nil.
	RevokeAPIKey(ctx context.Context, id string, at time.Time) error
	// NoteAPIKeyUse records that the key made an API call at at (kept
	// when an earlier time is noted later). Callers throttle it.
	NoteAPIKeyUse(ctx context.Context, id string, at time.Time) error
}

// EligibilityChecks records each eligibility call with what was sent and
// received, for the history screens and for usage.
type EligibilityChecks interface {
	// InsertEligibilityCheck stores the check, which is also its usage row
	// (cost 0 for test mode, whatever CostMicros says).
	InsertEligibilityCheck(ctx context.Context, c EligibilityCheck) error
	GetEligibilityCheck(ctx context.Context, accountID, id string) (EligibilityCheck, error)
	// ListEligibilityChecks returns the newest checks first and the cursor of
	// the next page ("" when this page is the last).
	ListEligibilityChecks(ctx context.Context, accountID string, f EligibilityFilter) ([]EligibilityCheck, string, error)
}

// Usage is the metering of billable calls, one row per call.
type Usage interface {
	// UsageByKey sums usage per key, kind and mode for calls in [from, to).
	// A zero from or to leaves that side open.
	UsageByKey(ctx context.Context, accountID string, from, to time.Time) ([]UsageTotal, error)
	ListUsage(ctx context.Context, accountID string) ([]UsageRecord, error)
}

// Jobs is the durable work queue (transactional outbox). Package jobs builds
// workers, retry policies and leases on top of it; domain code only calls
// EnqueueJob, inside the transaction of the change that needs the job.
type Jobs interface {
	EnqueueJob(ctx context.Context, j NewJob) (Job, error)
	// ClaimJobs leases up to limit runnable jobs of the given kinds (all kinds
	// if none) to worker until now+lease: available jobs whose run_at has
	// come, and running jobs whose lease expired (their worker died). Each
	// claim increments the job's attempt and records an attempt row. Running
	// jobs whose lease expired on their last attempt are marked failed.
	ClaimJobs(ctx context.Context, c ClaimParams) ([]Job, error)
	// CompleteJob marks the worker's attempt succeeded. ErrLeaseLost if the
	// worker no longer holds the job.
	CompleteJob(ctx context.Context, f FinishParams) error
	// FailJob records a failed attempt. With a non-zero RetryAt the job runs
	// again then; with a zero RetryAt it is marked failed for good.
	FailJob(ctx context.Context, f FinishParams) error
	// ExtendJobLease moves the lease of a job the worker holds to until.
	ExtendJobLease(ctx context.Context, id, worker string, attempt int, until time.Time) error
	// RetryJob makes a finished job (succeeded or failed) runnable now with
	// extraAttempts more attempts; the attempt history is kept.
	// ErrConflict if the job is still available or running.
	RetryJob(ctx context.Context, id string, now time.Time, extraAttempts int) error
	// GetJob and ListJobAttempts are for internal use (workers, the console
	// after it has checked the job's owner via its domain record).
	GetJob(ctx context.Context, id string) (Job, error)
	ListJobAttempts(ctx context.Context, jobID string) ([]JobAttempt, error)
}

// Queries is everything that can run inside one transaction.
type Queries interface {
	Accounts
	APIKeys
	EligibilityChecks
	Usage
	Jobs
	Events
	Partners
	Idempotency
	DentalClaims
	ClaimStatus
	ClaimLifecycles
	Executions
	Webhooks
	SFTPUsers
	AuditLog
	MockPayerScenarios
	PracticeProviders
	SimulatedAnswers
	Retention
	InlineBlobs
	UpstreamCursors
	ClaimResends
	UpstreamSubmissions
	ClaimStatusInquiries
}

// Store is an open database.
type Store interface {
	Queries
	ControlNumbers
	// InTx runs fn in one transaction: committed if fn returns nil, rolled
	// back otherwise. Use it to enqueue a job together with the change that
	// needs it. Inside fn use only tx: on SQLite the transaction holds the
	// single writer connection, so a write through the Store itself would
	// wait for it forever.
	InTx(ctx context.Context, fn func(tx Queries) error) error
	// GroupInTx is InTx for short, hot transactions: on SQLite it shares
	// one commit with the calls that arrive meanwhile, each in its own
	// savepoint (see sqlStore.GroupInTx).
	GroupInTx(ctx context.Context, fn func(tx Queries) error) error
	// Ping reports whether the database answers reads and commits writes
	// (for /readyz).
	Ping(ctx context.Context) error
	// Engine is "sqlite" or "postgres".
	Engine() string
	Close() error
}

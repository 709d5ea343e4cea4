package store

import "time"

// Account is a tenant.
type Account struct {
	ID        string
	Name      string
	CreatedAt time.Time
}

// APIKey is a key record. Hash is the hex SHA-256 of the whole key string.
type APIKey struct {
	ID        string // public key id, embedded in the key
	AccountID string
	Mode      string // ModeTest or ModeProduction
	Name      string // free label given at creation
	Hash      string
	CreatedAt time.Time
	RevokedAt time.Time // zero while the key is active
	// LastUsedAt is when the key last made an API call, to the minute
	// (zero: never); ListAPIKeys fills it, GetAPIKey does not.
	LastUsedAt time.Time
}

// Revoked reports whether the key has been revoked.
func (k APIKey) Revoked() bool { return !k.RevokedAt.IsZero() }

// EligibilityCheck is one eligibility call: the JSON request, the X12 270 and
// 271 exchanged with the payer, and the JSON answered to the caller.
type EligibilityCheck struct {
	ID                      string
	AccountID               string
	KeyID                   string
	Mode                    string // ModeTest or ModeProduction
	TradingPartnerServiceID string
	PayerName               string
	ControlNumber           string // ISA13 of the 270 we sent
	// SubmitterControlNumber is the caller's own number for the check (the
	// request's controlNumber, carried as BHT03).
	SubmitterControlNumber string
	Status                 string // "active", "inactive", "error", "rejected", ...
	RequestJSON            []byte
	X12Request             []byte
	X12Response            []byte
	ResponseJSON           []byte
	HTTPStatus             int
	CreatedAt              time.Time
	DurationMicros         int64
	CostMicros             int64 // forced to 0 for test mode
	// Route is the connection that answered (a payer's routes fail over
	// from one to the next); "" when none did.
	Route string

	// Search keys of the history, taken from the request: the patient (the
	// dependent if there is one, else the subscriber), upper case as X12
	// carries names; the subscriber's member id, upper case; the patient's
	// date of birth and the date of service (the request's, else the day
	// the check ran), both YYYYMMDD.
	PatientName      string
	MemberID         string
	PatientBirthDate string
	ServiceDate      string

	// Simulation, when the payer simulator answered the check, is stored
	// with it (simulated_answers; its account, mode and subject are the
	// check's).
	Simulation *SimulatedAnswer

	// Packed is the stored payload packed ahead of the insert (Pack), or
	// nil: the insert packs it. Never read back.
	Packed *PackedPayload
}

// EligibilityFilter narrows ListEligibilityChecks. Zero fields do not filter.
type EligibilityFilter struct {
	PayerID string // matches TradingPartnerServiceID exactly
	// PayerIDs matches any of these ids (with PayerID, both must match).
	PayerIDs []string
	// PatientName matches checks whose patient name contains it, ignoring
	// case; MemberID, PatientBirthDate and ServiceDate match exactly
	// (member ids ignoring case).
	PatientName      string
	MemberID         string
	PatientBirthDate string // YYYYMMDD
	ServiceDate      string // YYYYMMDD
	// SentOnly leaves out checks that never reached a payer: those without a
	// 270 (invalid requests, unknown or unconfigured payers) and those the
	// test-mode mock set refused (HTTP 403).
	SentOnly bool
	Status   string
	Mode     string    // ModeTest or ModeProduction: the mode of the key that ran the check
	From     time.Time // CreatedAt >= From
	To       time.Time // CreatedAt < To
	Limit    int       // default 50, at most 500
	Cursor   string    // from the previous page
}

// UsageRecord is one metered call.
type UsageRecord struct {
	ID         string
	AccountID  string
	KeyID      string
	Mode       string
	Kind       string // e.g. UsageEligibilityCheck
	RefID      string // id of the record the call created
	CostMicros int64
	CreatedAt  time.Time
}

// Usage kinds.
const UsageEligibilityCheck = "eligibility_check"

// UsageTotal sums usage of one key, kind and mode.
type UsageTotal struct {
	KeyID      string
	Kind       string
	Mode       string
	Count      int64
	CostMicros int64
}

// Job states.
const (
	JobAvailable = "available" // waiting for RunAt
	JobRunning   = "running"   // leased to a worker
	JobSucceeded = "succeeded"
	JobFailed    = "failed" // out of attempts, or failed without retry
)

// Outcomes of job attempts.
const (
	AttemptRunning      = "running"
	AttemptSucceeded    = "succeeded"
	AttemptFailed       = "failed"
	AttemptLeaseExpired = "lease_expired" // the worker died or stalled
)

// NewJob is what EnqueueJob needs. ID is generated when empty; RunAt zero
// means now (CreatedAt's clock).
type NewJob struct {
	ID          string
	Kind        string
	AccountID   string // owner, "" for system jobs
	Mode        string // the owner's mode (ModeTest, ModeProduction), "" for system jobs
	Payload     []byte // JSON, no file content
	MaxAttempts int    // at least 1
	RunAt       time.Time
	CreatedAt   time.Time
}

// Job is a queued unit of work.
type Job struct {
	ID          string
	Kind        string
	AccountID   string
	Mode        string
	Payload     []byte
	State       string
	Attempt     int // attempts started so far
	MaxAttempts int
	RunAt       time.Time
	LockedBy    string
	LockedUntil time.Time
	LastError   string
	CreatedAt   time.Time
	UpdatedAt   time.Time
	FinishedAt  time.Time
}

// JobAttempt is one run of a job, kept for the Events tab.
type JobAttempt struct {
	JobID      string
	Attempt    int
	Worker     string
	StartedAt  time.Time
	FinishedAt time.Time
	Outcome    string
	Error      string
}

// ClaimParams are the arguments of ClaimJobs.
type ClaimParams struct {
	Worker string
	Kinds  []string // empty: any kind
	Now    time.Time
	Lease  time.Duration
	Limit  int
	// AvailableOnly claims only available jobs: no sweep of expired
	// leases, no job of a dead worker taken again. A queue claims so
	// between its periodic full claims, saving two statements a claim.
	AvailableOnly bool
	// ExcludeScopes are accounts in a mode none of whose jobs is claimed:
	// those already running as many jobs as the claimer lets one account
	// and mode run. A scope of Mode "" is the account's modeless jobs.
	ExcludeScopes []Scope
}

// FinishParams identify the attempt being finished and its result.
type FinishParams struct {
	ID      string
	Worker  string
	Attempt int
	Now     time.Time
	Error   string    // FailJob only
	RetryAt time.Time // FailJob only; zero means no more attempts
}

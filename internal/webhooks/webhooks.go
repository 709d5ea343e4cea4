// Package webhooks delivers an account's stored events to the HTTP
// endpoints it registers, signed the Standard Webhooks way
// (https://www.standardwebhooks.com): body {"event": <envelope>}, headers
// webhook-id (the event id, the same on every attempt), webhook-timestamp
// and webhook-signature.
//
// Delivery is an outbox of durable jobs:
//
//   - events.dispatch (enqueued by events.Emitter.Emit with the event) fans the
//     event out: one delivery row per matching webhook, in one transaction.
//     The delivery row is unique per (event, webhook), so a dispatch that
//     runs twice creates nothing twice. Where the webhook has a free
//     concurrency slot (a lease on the delivery row, counted under the
//     webhook's row lock, so the limit holds across replicas) the dispatch
//     job takes it, owns the delivery and makes the first attempt itself
//     right after that commit: no job to enqueue, claim and complete before
//     the first POST (for at most MaxFirstAttempts webhooks per event). A
//     dispatch job whose worker died runs again and attempts the
//     deliveries it still owns.
//   - webhooks.deliver makes every other attempt (retries, re-emits, and
//     first attempts that found every slot taken or the dispatch's share
//     used): it takes a slot, POSTs,
//     and records the attempt.
//
// An attempt is recorded in one transaction with what follows from it (the
// delivery finished or failed, or its next attempt enqueued on the retry
// schedule) and with its job's completion (jobs.Complete).
//
// The delivery row names the job that owns its next attempt; any other job
// that finds it (a duplicate, or one superseded by a re-emit) does nothing.
// Every outgoing call goes through the SSRF guard (package netguard).
package webhooks

import (
	"context"
	"errors"
	"log/slog"
	"math/rand/v2"
	"net/http"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/problem"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Job kinds.
const (
	// DispatchKind is enqueued with every stored event (events.Emitter.Emit); its
	// payload is events.DispatchPayload.
	DispatchKind = events.DispatchKind
	// DeliverKind makes one attempt of one delivery.
	DeliverKind = "webhooks.deliver"
)

// Defaults and limits.
const (
	// DefaultTimeout: an attempt succeeds with a 2xx answer within it.
	DefaultTimeout = 5 * time.Second
	// DefaultDisableAfter: a webhook whose every attempt failed for this
	// long is disabled, with the reason.
	DefaultDisableAfter = 5 * 24 * time.Hour
	// DefaultSecretGrace: after a rotation the old secret signs too, for
	// this long.
	DefaultSecretGrace = 24 * time.Hour
	// DefaultJitter: each retry delay moves by up to ±10 %.
	DefaultJitter = 0.1
	// MaxWebhooks per account and mode.
	MaxWebhooks = 50
	// DefaultConcurrency and MaxConcurrency bound the attempts in flight to
	// one webhook, across replicas.
	DefaultConcurrency = 5
	MaxConcurrency     = 50
	// MaxFirstAttempts is how many first attempts one dispatch makes
	// itself, at once; the event's other deliveries get jobs of their own,
	// which the outbound lane caps per account (jobs.Lane.PerAccount). An
	// event to an account's 50 webhooks is thus not 50 calls held by one
	// worker past the account's share.
	MaxFirstAttempts = 4
	// ExcerptBytes of each answer are kept in the attempt log.
	ExcerptBytes = 1024
	// waitRetry is how soon a delivery that found every slot taken looks
	// again (a finishing attempt also wakes the longest-waiting one).
	waitRetry = time.Second
	// slotGrace is added to the timeout to make a slot's lease: a worker
	// that dies mid-attempt frees its slot after it.
	slotGrace = 25 * time.Second
)

// DefaultSchedule is the Standard Webhooks example schedule: the delay
// before each attempt, the first immediate.
var DefaultSchedule = []time.Duration{0, 5 * time.Second, 5 * time.Minute, 30 * time.Minute, 2 * time.Hour,
	5 * time.Hour, 10 * time.Hour, 14 * time.Hour, 20 * time.Hour, 24 * time.Hour}

// Event is what delivery needs of a stored event.
type Event struct {
	ID         string
	AccountID  string
	Mode       string
	DetailType string
	Envelope   []byte // the spec §2.5 envelope, JSON
}

// EventSource reads a stored event of an account; store.ErrNotFound when
// there is none.
type EventSource func(ctx context.Context, accountID, id string) (Event, error)

// Config builds a Service.
type Config struct {
	Store store.Store
	// Queue runs the jobs; New registers DispatchKind and DeliverKind on it.
	Queue  *jobs.Queue
	Events EventSource
	// Emitter names the region of test events (SendTest), as of every
	// stored event (default events.New with its defaults).
	Emitter *events.Emitter
	// Secrets seals signing secrets and credentials; without a key,
	// creating a webhook fails with ErrNoSecretsKey.
	Secrets *secrets.Box
	// Guard checks every address dialled (default: netguard.New with
	// private addresses refused).
	Guard  *netguard.Guard
	Clock  clock.Clock
	Logger *slog.Logger
	// Schedule is the delay before each attempt (DefaultSchedule); its
	// length is the number of attempts before a delivery fails.
	Schedule []time.Duration
	// Jitter moves each retry delay by up to ±Jitter of it (DefaultJitter;
	// negative: none).
	Jitter       float64
	Timeout      time.Duration // DefaultTimeout
	DisableAfter time.Duration // DefaultDisableAfter
	SecretGrace  time.Duration // DefaultSecretGrace
}

// Service manages webhooks and delivers events to them.
type Service struct {
	cfg    Config
	store  store.Store
	queue  *jobs.Queue
	client *http.Client
	log    *slog.Logger
}

// ErrNoSecretsKey: the server has no secrets key, so it cannot keep a
// webhook's signing secret.
var ErrNoSecretsKey = problem.New(problem.Unavailable, "webhooks", "this server has no secrets key (--secrets-key or CLEARHOUSE_SECRETS_KEY; make one with: openssl rand -base64 32), so it cannot store webhook secrets")

// New returns the service and registers its job kinds on cfg.Queue.
func New(cfg Config) (*Service, error) {
	if cfg.Store == nil || cfg.Queue == nil || cfg.Events == nil {
		return nil, errors.New("webhooks: Store, Queue and Events are required")
	}
	if cfg.Guard == nil {
		cfg.Guard = netguard.New(netguard.Options{})
	}
	if cfg.Emitter == nil {
		cfg.Emitter = events.New(events.Options{})
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.System{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if len(cfg.Schedule) == 0 {
		cfg.Schedule = DefaultSchedule
	}
	if cfg.Jitter == 0 {
		cfg.Jitter = DefaultJitter
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.DisableAfter <= 0 {
		cfg.DisableAfter = DefaultDisableAfter
	}
	if cfg.SecretGrace <= 0 {
		cfg.SecretGrace = DefaultSecretGrace
	}
	s := &Service{cfg: cfg, store: cfg.Store, queue: cfg.Queue, client: cfg.Guard.Client(cfg.Timeout), log: cfg.Logger}
	// Both kinds call receivers (a dispatch makes the first attempts):
	// the outbound lane, never the workers of files and claims.
	cfg.Queue.Register(DispatchKind, jobs.Policy{MaxAttempts: 10, Timeout: 30 * time.Second, Lane: jobs.LaneOutbound}, s.dispatch)
	cfg.Queue.Register(DeliverKind, jobs.Policy{MaxAttempts: 5, Timeout: cfg.Timeout + 20*time.Second, Lane: jobs.LaneOutbound}, s.deliver)
	return s, nil
}

// Caller is who asks: an account, through a key of one mode. Webhooks and
// events of the other mode are invisible to it.
type Caller struct {
	AccountID string
	Mode      string
}

// tenant is q as the caller sees it (store.Tenant: another account's or
// mode's webhook is ErrNotFound).
func (c Caller) tenant(q store.Queries) store.Tenant {
	return store.ForTenant(q, store.Scope{AccountID: c.AccountID, Mode: c.Mode})
}

// delay is the wait before attempt n (1-based) of a round, with jitter.
func (s *Service) delay(n int) time.Duration {
	d := s.cfg.Schedule[min(n, len(s.cfg.Schedule))-1]
	if d <= 0 || s.cfg.Jitter <= 0 {
		return d
	}
	return time.Duration(float64(d) * (1 + s.cfg.Jitter*(2*rand.Float64()-1)))
}

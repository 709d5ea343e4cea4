// Package delivery sends outbound files (generated EDI, such as the 837D of
// a dental claim) to the connection of their partnership, as durable jobs:
// the execution and its Kind job are written in one database transaction
// (Enqueue, also core's OutboundHook), and the job delivers through the
// Transport of the connection's type.
//
// Success marks the execution DELIVERED and emits file.delivered.v2; a
// failure is tried again after the retry interval (6 minutes, spec §3),
// and after the last attempt (3 in all) the execution is FAILED with
// file.failed.v2 and fault DELIVERY_FAILURE. Each attempt is logged and
// recorded as a job attempt. The state change and its event commit
// together, and only from PENDING_DELIVERY, so a rerun never reports a
// delivery twice.
//
// A Transport is one small interface: the MOCK connection is in this
// package (mock.go); SFTP and other connections add theirs to
// Options.Transports.
package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/logsafe"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Kind is the job that delivers one outbound execution.
const Kind = "delivery.deliver"

// Defaults of the delivery schedule (spec §3, §8).
const (
	DefaultAttempts      = 3
	DefaultRetryInterval = 6 * time.Minute
	// DefaultTimeout bounds one attempt.
	DefaultTimeout = 2 * time.Minute
	// MaxFileBytes bounds a file the delivery reads into memory.
	MaxFileBytes = 64 << 20
)

// FaultDeliveryFailure is the file.failed.v2 fault code of an undeliverable
// file.
const FaultDeliveryFailure = "DELIVERY_FAILURE"

// File is one outbound file to deliver.
type File struct {
	Execution  store.Execution
	Connection store.Connection // ID and Type always set; Settings as stored
	Body       []byte
}

// Transport delivers files over one connection type. Deliver must be safe
// for concurrent use, honour ctx's deadline, and return an error when the
// file did not arrive. Message says where it went ("File was delivered to
// 'sftp.example.com/in/claims-1.x12'"), for file.delivered.v2.
type Transport interface {
	Deliver(ctx context.Context, f File) (message string, err error)
}

// RoutedTransport is implemented by transports that may deliver through
// another connection than the partnership's (CLEARINGHOUSE_API claims fail
// over to the payer's next upstream): via is the connection that took the
// file, which the execution and file.delivered.v2 then name.
type RoutedTransport interface {
	DeliverRouted(ctx context.Context, f File) (message string, via store.Connection, err error)
}

// AfterDelivery is implemented by transports with more to do once the
// delivery is recorded; Delivered runs inside the transaction that marks
// the execution DELIVERED (the MOCK connection enqueues its answers there,
// so they exist exactly when the delivery does).
type AfterDelivery interface {
	Delivered(ctx context.Context, tx store.Queries, f File) error
}

// Options configure a Service.
type Options struct {
	Store  store.Store
	Blob   blob.Store
	Jobs   *jobs.Queue
	Clock  clock.Clock
	Logger *slog.Logger
	// Events records file.delivered.v2 and file.failed.v2 (default
	// events.New with its defaults).
	Events *events.Emitter
	// Attempts is the number of delivery attempts in total (default 3);
	// RetryInterval the wait after a failed one (default 6 minutes).
	Attempts      int
	RetryInterval time.Duration
	Timeout       time.Duration
	// Transports maps connection types (store.ConnectionMock, ...) to
	// their transport.
	Transports map[string]Transport
	// Failed, when set, runs in the transaction that records a file's
	// final delivery failure (the claims lifecycle marks its claim).
	Failed func(ctx context.Context, tx store.Queries, e store.Execution, at time.Time) error
}

// Service delivers outbound executions.
type Service struct{ opts Options }

// New builds the service and registers Kind on opts.Jobs.
func New(opts Options) (*Service, error) {
	if opts.Store == nil || opts.Blob == nil || opts.Jobs == nil {
		return nil, errors.New("delivery: Store, Blob and Jobs are required")
	}
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Events == nil {
		opts.Events = events.New(events.Options{})
	}
	if opts.Attempts < 1 {
		opts.Attempts = DefaultAttempts
	}
	if opts.RetryInterval <= 0 {
		opts.RetryInterval = DefaultRetryInterval
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	s := &Service{opts: opts}
	// A delivery waits on the partner's server: the outbound lane.
	opts.Jobs.Register(Kind, jobs.Policy{MaxAttempts: opts.Attempts, Backoff: jobs.Fixed(opts.RetryInterval),
		Timeout: opts.Timeout, Lane: jobs.LaneOutbound}, s.deliverJob)
	return s, nil
}

type payload struct {
	ExecutionID string `json:"executionId"`
	AccountID   string `json:"accountId"`
}

// Enqueue queues the delivery of an outbound execution through tx, the
// transaction that records the execution. It has the signature of
// core.OutboundHook.
func (s *Service) Enqueue(ctx context.Context, tx store.Queries, e store.Execution) error {
	return EnqueueOn(s.opts.Jobs)(ctx, tx, e)
}

// EnqueueOn is Enqueue on queue q, before any Service exists: the hook the
// core and the claims service are built with, while the Service (whose MOCK
// transport answers through the core) is built after them. The job it
// enqueues runs once New has registered Kind on q.
func EnqueueOn(q *jobs.Queue) core.OutboundHook {
	return func(ctx context.Context, tx store.Queries, e store.Execution) error {
		_, err := q.Enqueue(ctx, tx, Kind, payload{ExecutionID: e.ID, AccountID: e.AccountID}, jobs.ForTenant(e.AccountID, e.Mode),
			jobs.WithID(JobID(e.ID)))
		return err
	}
}

// JobID is the id of the job that delivers execution id: its attempts and
// next attempt time are read from it (the console's files and claims).
func JobID(executionID string) string { return "delivery-" + executionID }

func (s *Service) deliverJob(ctx context.Context, job store.Job) error {
	var p payload
	if err := jobs.Decode(job, &p); err != nil {
		return jobs.Permanent(err)
	}
	st := s.opts.Store
	e, err := st.GetExecution(ctx, p.AccountID, p.ExecutionID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return jobs.Permanent(err)
		}
		return err
	}
	if e.Status != store.ExecutionPendingDelivery {
		return nil // delivered or failed already (a rerun after the commit)
	}
	last := job.Attempt >= job.MaxAttempts
	log := s.opts.Logger.With("execution", e.ID, "account", e.AccountID, "attempt", job.Attempt, "of", job.MaxAttempts)
	f, transport, err := s.load(ctx, e)
	if err == nil {
		var msg string
		if r, ok := transport.(RoutedTransport); ok {
			var via store.Connection
			if msg, via, err = r.DeliverRouted(ctx, f); err == nil && via.ID != "" {
				f.Connection = via
			}
		} else {
			msg, err = transport.Deliver(ctx, f)
		}
		if err == nil {
			log.Info("delivery: delivered", "connection", f.Connection.ID, "type", f.Connection.Type)
			return s.delivered(ctx, f, transport, msg)
		}
	}
	if ctx.Err() != nil && !last {
		return err
	}
	if !last {
		log.Warn("delivery: attempt failed; trying again", logsafe.Error(err), "retryIn", s.opts.RetryInterval.String())
		return err
	}
	log.Warn("delivery: last attempt failed; the file is FAILED", logsafe.Error(err))
	return s.failed(ctx, e, f.Connection, fmt.Sprintf("The file could not be delivered after %d attempts: %v", job.Attempt, err))
}

// load reads the file and finds its connection and transport.
func (s *Service) load(ctx context.Context, e store.Execution) (File, Transport, error) {
	f := File{Execution: e}
	if e.ConnectionID == "" {
		return f, nil, errors.New("the file has no connection to deliver through")
	}
	c, err := s.opts.Store.GetConnection(ctx, e.AccountID, e.Mode, e.ConnectionID)
	if err != nil {
		return f, nil, fmt.Errorf("connection %q: %w", e.ConnectionID, err)
	}
	f.Connection = c
	t := s.opts.Transports[c.Type]
	if t == nil {
		return f, nil, fmt.Errorf("connection %q is of type %s, which this server cannot deliver to", c.ID, c.Type)
	}
	rc, err := s.opts.Blob.Get(ctx, e.Output.Key)
	if err != nil {
		return f, nil, fmt.Errorf("read the file: %w", err)
	}
	defer rc.Close()
	var buf bytes.Buffer
	if _, err := io.Copy(&buf, io.LimitReader(rc, MaxFileBytes+1)); err != nil {
		return f, nil, fmt.Errorf("read the file: %w", err)
	}
	if buf.Len() > MaxFileBytes {
		return f, nil, fmt.Errorf("the file is larger than %d bytes", MaxFileBytes)
	}
	f.Body = buf.Bytes()
	return f, t, nil
}

// DeliveredDetail is the detail of file.delivered.v2 (spec §6).
type DeliveredDetail struct {
	FileExecutionID string          `json:"fileExecutionId"`
	ProcessedAt     string          `json:"processedAt"`
	Artifacts       []core.Artifact `json:"artifacts"`
	Connection      ConnectionRef   `json:"connection"`
	Delivery        DeliveryReport  `json:"delivery"`
}

// ConnectionRef names the connection of a delivery.
type ConnectionRef struct {
	ConnectionType string `json:"connectionType"`
	ConnectionID   string `json:"connectionId"`
}

// DeliveryReport is the outcome of a delivery.
type DeliveryReport struct {
	Status     string `json:"status"`
	Message    string `json:"message"`
	ArtifactID string `json:"artifactId"`
}

// FailedDetail is the detail of file.failed.v2 for an undeliverable file.
type FailedDetail struct {
	FileExecutionID string               `json:"fileExecutionId"`
	Direction       string               `json:"direction"`
	ProcessedAt     string               `json:"processedAt"`
	Source          core.Source          `json:"source"`
	Artifacts       []core.Artifact      `json:"artifacts"`
	ConnectionID    string               `json:"connectionId,omitempty"`
	Partnership     *core.PartnershipRef `json:"partnership,omitempty"`
	Errors          []core.Fault         `json:"errors"`
}

func (s *Service) delivered(ctx context.Context, f File, t Transport, msg string) error {
	now := s.opts.Clock.Now().UTC()
	e := f.Execution
	e.Status, e.ProcessedAt, e.UpdatedAt = store.ExecutionDelivered, now, now
	e.ConnectionID = f.Connection.ID // the route that took it
	return s.opts.Store.InTx(ctx, func(tx store.Queries) error {
		if err := tx.UpdateExecution(ctx, e, store.ExecutionPendingDelivery); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return nil // another worker recorded it first
			}
			return err
		}
		size := e.Output.Size
		if _, err := s.opts.Events.Emit(ctx, tx, events.Event{
			AccountID: e.AccountID, Mode: e.Mode, DetailType: events.FileDelivered, ExecutionID: e.ID,
			Resources: []string{s.opts.Events.ExecutionURL(e.ID)}, Time: now,
			Detail: DeliveredDetail{
				FileExecutionID: e.ID, ProcessedAt: now.Format(time.RFC3339Nano),
				Artifacts: []core.Artifact{
					{ArtifactType: "application/edi-x12", Usage: "input", URL: s.opts.Events.ExecutionURL(e.ID, "input"), SizeBytes: &size, Model: "execution"},
					{ArtifactType: "application/edi-x12", Usage: "output", URL: s.opts.Events.ExecutionURL(e.ID, "output"), SizeBytes: &size, Model: "execution"},
				},
				Connection: ConnectionRef{ConnectionType: f.Connection.Type, ConnectionID: f.Connection.ID},
				Delivery:   DeliveryReport{Status: store.ExecutionDelivered, Message: msg, ArtifactID: e.ID},
			},
		}); err != nil {
			return err
		}
		if a, ok := t.(AfterDelivery); ok {
			return a.Delivered(ctx, tx, f)
		}
		return nil
	})
}

func (s *Service) failed(ctx context.Context, e store.Execution, c store.Connection, msg string) error {
	now := s.opts.Clock.Now().UTC()
	e.Status, e.FaultCode, e.FaultMessage, e.ProcessedAt, e.UpdatedAt = store.ExecutionFailed, FaultDeliveryFailure, msg, now, now
	return s.opts.Store.InTx(ctx, func(tx store.Queries) error {
		if err := tx.UpdateExecution(ctx, e, store.ExecutionPendingDelivery); err != nil {
			if errors.Is(err, store.ErrConflict) {
				return nil
			}
			return err
		}
		var ship *core.PartnershipRef
		if e.PartnershipID != "" {
			if p, err := tx.GetPartnership(ctx, e.AccountID, e.Mode, e.PartnershipID); err == nil {
				ship = &core.PartnershipRef{PartnershipID: p.ID, PartnershipType: store.PartnershipTypeX12,
					Sender: core.ProfileRef{ProfileID: p.LocalProfileID}, Receiver: core.ProfileRef{ProfileID: p.PartnerProfileID}}
			}
		}
		size := e.Output.Size
		_, err := s.opts.Events.Emit(ctx, tx, events.Event{
			AccountID: e.AccountID, Mode: e.Mode, DetailType: events.FileFailed, ExecutionID: e.ID,
			Resources: []string{s.opts.Events.ExecutionURL(e.ID)}, Time: now,
			Detail: FailedDetail{
				FileExecutionID: e.ID, Direction: store.DirectionOutbound, ProcessedAt: now.Format(time.RFC3339Nano),
				Source: core.Source{Dirname: e.SourceDirname, Name: e.SourceName},
				Artifacts: []core.Artifact{{ArtifactType: "application/edi-x12", Usage: "input",
					URL: s.opts.Events.ExecutionURL(e.ID, "input"), SizeBytes: &size, Model: "execution"}},
				ConnectionID: c.ID, Partnership: ship,
				Errors: []core.Fault{{Message: msg, FaultCode: FaultDeliveryFailure}},
			},
		})
		if err != nil || s.opts.Failed == nil {
			return err
		}
		return s.opts.Failed(ctx, tx, e, now)
	})
}

// Transport returns the transport of a connection type (nil when none).
func (s *Service) Transport(connectionType string) Transport {
	return s.opts.Transports[connectionType]
}

// Package core is the EDI core: file executions, their transactions,
// Guide JSON, fragments, the execution metadata document and the events
// that report them (docs/api/files.md).
//
// Every transport hands a file over through one entry point, Receive: the
// bytes go to the blob store, then the execution row and its durable
// "core.process" job are written in one database transaction. The job
// streams the file once (envelopes, guide validation, Guide JSON, fragments,
// business identifiers) into the blob store and then records the outcome,
// transactions and events in one database transaction: a process killed at
// any point leaves either nothing (the job runs again and overwrites the
// same blob keys) or everything.
package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
)

// ProcessKind is the job that processes a received inbound file.
const ProcessKind = "core.process"

// Limits of inbound files (README "Limits").
const (
	// DefaultMaxFileBytes is the largest file Receive accepts.
	DefaultMaxFileBytes = 2 << 30
	// MaxTransactionSets is the most transaction sets one file may hold.
	MaxTransactionSets = 10000
	// MaxIdentifiersPerSet bounds the business identifiers kept per
	// transaction set (the first ones in the set); memory stays bounded
	// whatever the set's size.
	MaxIdentifiersPerSet = 20000
	// MaxFindingsInMessage bounds the findings listed in a failure message.
	MaxFindingsInMessage = 20
	// DefaultProcessTimeout bounds one processing attempt.
	DefaultProcessTimeout = 10 * time.Minute
)

// Partners finds the partnership of an interchange and the transaction
// setting of a set. store.Queries satisfies it.
type Partners interface {
	FindPartnershipByInterchange(ctx context.Context, accountID, mode, senderQualifier, senderID, receiverQualifier, receiverID string) (store.Partnership, error)
	FindTransactionSetting(ctx context.Context, accountID, mode, partnershipID, direction, transactionSetIdentifier, guideID string) (store.TransactionSetting, error)
}

// Options configure a Service.
type Options struct {
	Store  store.Store
	Blob   blob.Store
	Jobs   *jobs.Queue
	Clock  clock.Clock  // default clock.System
	Logger *slog.Logger // default slog.Default
	// Events records the core's events and builds the URLs in them and in
	// download links (default events.New with its defaults).
	Events *events.Emitter
	// Partners defaults to Store.
	Partners Partners
	// MaxFileBytes bounds received files (default DefaultMaxFileBytes).
	MaxFileBytes int64
	// ProcessTimeout bounds one processing attempt (default
	// DefaultProcessTimeout).
	ProcessTimeout time.Duration
	// DownloadSecret signs download links of the embedded blob store; a
	// random one is made when empty (links then die with the process).
	DownloadSecret []byte
	// DownloadTTL is how long a signed download link works (default 60 min).
	DownloadTTL time.Duration
	// Outbound is called for every outbound execution the core records (a
	// 999 back to a sender), inside the transaction that records it, so its
	// delivery is enqueued with it (delivery.EnqueueOn); nil: none.
	Outbound OutboundHook
	// Inbound is called for every inbound transaction inside the
	// transaction that records it (the claims a 999, 277CA or 835 answers:
	// claimstatus.Linker); nil: none.
	Inbound InboundHook
}

// Service is the EDI core of one process.
type Service struct {
	opts    Options
	numbers *store.PartnershipControlNumbers
	// docSuffix ends the keys of an inbound set's Guide JSON and fragments:
	// blob.CompressedSuffix when the blob store compresses them, else "".
	docSuffix string
}

// New builds the service and registers its job kinds on opts.Jobs.
func New(opts Options) (*Service, error) {
	if opts.Store == nil || opts.Blob == nil || opts.Jobs == nil {
		return nil, errors.New("core: Store, Blob and Jobs are required")
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
	if opts.Partners == nil {
		opts.Partners = opts.Store
	}
	if opts.MaxFileBytes <= 0 {
		opts.MaxFileBytes = DefaultMaxFileBytes
	}
	if opts.ProcessTimeout <= 0 {
		opts.ProcessTimeout = DefaultProcessTimeout
	}
	if opts.DownloadTTL <= 0 {
		opts.DownloadTTL = time.Hour
	}
	if len(opts.DownloadSecret) == 0 {
		secret, err := randomSecret()
		if err != nil {
			return nil, err
		}
		opts.DownloadSecret = secret
	}
	s := &Service{opts: opts, numbers: store.NewPartnershipControlNumbers(opts.Store, 0)}
	if blob.CompressDocuments(opts.Blob) {
		s.docSuffix = blob.CompressedSuffix
	}
	opts.Jobs.Register(ProcessKind, jobs.Policy{MaxAttempts: 5, Timeout: opts.ProcessTimeout,
		Backoff: jobs.Exponential(10*time.Second, 10*time.Minute)}, s.processJob)
	return s, nil
}

// MaxFileBytes is the size limit of received files.
func (s *Service) MaxFileBytes() int64 { return s.opts.MaxFileBytes }

// Store is the service's store (for the retrieval endpoints).
func (s *Service) Store() store.Store { return s.opts.Store }

// Blob is the service's blob store.
func (s *Service) Blob() blob.Store { return s.opts.Blob }

// Blob keys: made from record ids, never from user input. An inbound set's
// Guide JSON and fragments (about fourteen times the X12) are stored
// compressed where the server serves its downloads itself (docSuffix,
// blob.CompressDocuments; read back as they were written); those recorded
// before, or on an object store, are named without the suffix and read as
// they are.
func executionInputKey(id string) string    { return "executions/" + id + "/input" }
func executionOutputKey(id string) string   { return "executions/" + id + "/output" }
func executionMetadataKey(id string) string { return "executions/" + id + "/metadata.json" }
func transactionInputKey(id string) string  { return "transactions/" + id + "/input.x12" }
func transactionOutputKey(id, suffix string) string {
	return "transactions/" + id + "/output.json" + suffix
}
func fragmentKey(id string, i int, suffix string) string {
	return fmt.Sprintf("transactions/%s/fragments/%d.json%s", id, i, suffix)
}

package claims

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/audit"
	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// OutboundHook queues the delivery of an outbound execution inside the
// transaction that records it (delivery.Service.Enqueue).
type OutboundHook = core.OutboundHook

// Options configure a Service.
type Options struct {
	Store     store.Store
	Blob      blob.Store
	Clock     clock.Clock
	Logger    *slog.Logger
	Directory *payers.Directory // default payers.Default()
	Outbound  OutboundHook
	// Events records the outbound claim file's events (default events.New
	// with its defaults).
	Events *events.Emitter
	// IdempotencyLease is how long a request holds its Idempotency-Key in
	// flight before another replica may take it over (default 2 minutes).
	IdempotencyLease time.Duration
	// TestOnlyPayers are payer ids that exist only in test mode (the mock
	// payer whose connection always fails); production keys get 403.
	TestOnlyPayers []string
}

// Service submits dental claims: rules, the 837D for the payer's
// partnership, and its outbound execution, transaction, claim record,
// event and delivery job in one database transaction.
type Service struct {
	opts    Options
	numbers *store.PartnershipControlNumbers
	ships   partnershipCache
}

// NewService builds a Service.
func NewService(opts Options) (*Service, error) {
	if opts.Store == nil || opts.Blob == nil || opts.Outbound == nil {
		return nil, errors.New("claims: Store, Blob and Outbound are required")
	}
	if opts.Clock == nil {
		opts.Clock = clock.System{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.Default()
	}
	if opts.Directory == nil {
		opts.Directory = payers.Default()
	}
	if opts.Events == nil {
		opts.Events = events.New(events.Options{})
	}
	if opts.IdempotencyLease <= 0 {
		opts.IdempotencyLease = 2 * time.Minute
	}
	return &Service{opts: opts, numbers: store.NewPartnershipControlNumbers(opts.Store, 0)}, nil
}

// Caller is who submits: the API key's account, id and mode.
type Caller struct {
	AccountID, KeyID, Mode string
}

// Submission is one call of the submission endpoint.
type Submission struct {
	Caller  Caller
	Request *Request
	// Body is the request body as sent (the Idempotency-Key's request hash).
	Body []byte
	// Route names the endpoint in the hash (one key, one endpoint).
	Route                string
	IdempotencyKey       string
	TransactionSettingID string
	// TraceID is meta.traceId (a UUID); made when empty.
	TraceID string
	// Resends is the id of one of the caller's claims that this one is
	// sent in place of (the console's correct-and-resend, replace and
	// void), recorded with the claim so both timelines link; "" for a new
	// claim. Not a field of the contract's request.
	Resends string
}

// Result is a submission's answer: the status and body to send. Replayed
// is set when they are the stored answer of an earlier call with the same
// Idempotency-Key.
type Result struct {
	Status   int
	Body     []byte
	Replayed bool
	Response *Response // nil when replayed
}

// Errors of Submit besides *ValidationError.
type (
	// ForbiddenError is 403: a test key with a payer outside test mode, or
	// a production key with a test-only payer.
	// Field, when set, is the JSON Pointer of the request field at fault
	// (the payer's /tradingPartnerServiceId).
	ForbiddenError struct{ Message, Field string }
	// NotConfiguredError is 400: the payer is unknown, does not take
	// dental claims, or has no connection for the key's mode.
	NotConfiguredError struct{ Message, Field string }
	// InFlightError is 409: the Idempotency-Key's first call is still
	// running; retry after RetryAfter.
	InFlightError struct{ RetryAfter time.Duration }
	// KeyReusedError is 422: the Idempotency-Key was used with another body.
	KeyReusedError struct{}
)

func (e *ForbiddenError) Error() string     { return e.Message }
func (e *NotConfiguredError) Error() string { return e.Message }
func (e *InFlightError) Error() string {
	return "a request with this Idempotency-Key is still in progress; retry after it finishes"
}
func (e *KeyReusedError) Error() string {
	return "this Idempotency-Key was already used with a different request body; use a new key for a different claim"
}

type submitFunc func(ctx context.Context, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error)

// withIdempotency runs do under the submission's Idempotency-Key: the same
// key and body within 24 hours answer the stored response, a key in flight
// is 409, a key with another body 422; a failed call forgets the key.
func (s *Service) withIdempotency(ctx context.Context, sub Submission, now time.Time, do submitFunc) (*Result, error) {
	if sub.IdempotencyKey == "" {
		return do(ctx, sub, now, nil)
	}
	if n := len(sub.IdempotencyKey); n > 255 {
		return nil, invalid([]FieldError{{Path: "Idempotency-Key", Message: fmt.Sprintf("must be 1 to 255 characters; got %d", n)}}, 0)
	}
	h := sha256.Sum256(append([]byte(sub.Route+"\n"+sub.Caller.Mode+"\n"), sub.Body...))
	// A key belongs to the account and the mode: the same key sent with a
	// test key and a live key names two requests (the live one got the
	// test one's 422, or with the same body its stored answer).
	rec := store.IdempotencyRecord{AccountID: sub.Caller.AccountID, Key: idempotencyScope(sub.Caller.Mode, sub.IdempotencyKey), RequestHash: hex.EncodeToString(h[:]),
		Owner: store.NewID(), LeaseUntil: now.Add(s.opts.IdempotencyLease), CreatedAt: now, ExpiresAt: now.Add(store.IdempotencyWindow)}
	existing, started, err := s.opts.Store.StartIdempotentRequest(ctx, rec)
	if err != nil {
		return nil, err
	}
	if !started {
		switch {
		case existing.State == store.IdempotencyInFlight:
			wait := existing.LeaseUntil.Sub(now)
			if wait > 5*time.Second || wait <= 0 {
				wait = 5 * time.Second
			}
			return nil, &InFlightError{RetryAfter: wait}
		case existing.RequestHash != rec.RequestHash:
			return nil, &KeyReusedError{}
		default:
			return &Result{Status: existing.ResponseStatus, Body: existing.ResponseBody, Replayed: true}, nil
		}
	}
	res, err := do(ctx, sub, now, &rec)
	if err != nil {
		// Nothing was committed: forget the key so the caller can retry.
		if rerr := s.opts.Store.ReleaseIdempotentRequest(context.WithoutCancel(ctx), rec.AccountID, rec.Key, rec.Owner); rerr != nil {
			s.opts.Logger.Warn("claims: release idempotency key", "error", rerr.Error())
		}
	}
	return res, err
}

// idempotencyScope is the stored key of a caller's Idempotency-Key:
// "test/k-1", "production/k-1" (modes hold no '/', so no two scopes meet).
func idempotencyScope(mode, key string) string { return mode + "/" + key }

// route is where a claim goes: the payer, its partnership and profiles,
// the outbound setting and connection.
type route struct {
	payer          payers.Payer
	ship           store.Partnership
	local, partner store.Profile
	setting        store.TransactionSetting
	connectionID   string
}

func (r *route) envelope() Envelope {
	return Envelope{SenderQualifier: r.local.ISAQualifier, SenderID: r.local.ISAID, SenderCode: r.local.ApplicationCode,
		ReceiverQualifier: r.partner.ISAQualifier, ReceiverID: r.partner.ISAID, ReceiverCode: r.partner.ApplicationCode}
}

func (s *Service) route(ctx context.Context, k *claimKind, c Caller, payerID, settingID string) (*route, error) {
	p, ok := s.opts.Directory.Lookup(strings.TrimSpace(payerID))
	if !ok {
		msg := fmt.Sprintf("Payer %s is not configured: unknown payer id: tradingPartnerServiceId %q names no payer in this server's directory.%s Check tradingPartnerServiceId: %s",
			payerID, payerID, payers.DidYouMean(s.opts.Directory.Suggest(payerID, 3)), payers.WhereToFindPayers)
		return nil, &NotConfiguredError{Message: msg, Field: "/tradingPartnerServiceId"}
	}
	if !p.Supports(k.transaction) {
		return nil, &NotConfiguredError{Message: fmt.Sprintf("Payer connection does not support %s: payer %s (%s) does not take %s claims electronically", k.form, p.ID, p.Name, k.name),
			Field: "/tradingPartnerServiceId"}
	}
	if err := s.opts.Directory.CheckEnrollment(p, k.transaction, c.Mode == store.ModeProduction, c.AccountID); err != nil {
		return nil, &ForbiddenError{Message: err.Error(), Field: "/tradingPartnerServiceId"}
	}
	testOnly := false
	for _, id := range s.opts.TestOnlyPayers {
		testOnly = testOnly || strings.EqualFold(p.ID, id)
	}
	if testOnly && c.Mode == store.ModeProduction {
		return nil, &ForbiddenError{Message: fmt.Sprintf("payer %s is a test-mode mock; a production key cannot send claims to it", p.ID)}
	}
	r := &route{payer: p}
	found, err := s.ships.find(ctx, s.opts.Store, c.AccountID, c.Mode, p.ID, k.version, s.opts.Clock.Now())
	ship := found.ship
	switch {
	case errors.Is(err, store.ErrNotFound) && c.Mode == store.ModeTest:
		return nil, &ForbiddenError{Message: fmt.Sprintf("test keys send claims only to the mock payers of the account's test partnerships; payer %s (%s) has none. Use a production key for real payers, or a mock payer such as 52133", p.ID, p.Name)}
	case errors.Is(err, store.ErrNotFound):
		return nil, &NotConfiguredError{Message: fmt.Sprintf("Payer %s is not configured: no production partnership and connection is configured for this payer; add one (clearhouse partners apply) before sending claims", p.ID)}
	case err != nil:
		return nil, err
	}
	r.ship, r.local, r.partner = ship, found.local, found.partner
	if settingID != "" {
		st, err := s.opts.Store.GetTransactionSetting(ctx, c.AccountID, c.Mode, settingID)
		if errors.Is(err, store.ErrNotFound) || (err == nil && (st.PartnershipID != ship.ID || st.Direction != store.DirectionOutbound || st.TransactionSetIdentifier != "837")) {
			return nil, invalid([]FieldError{{Path: "Service-Transaction-Setting-Id",
				Message: fmt.Sprintf("%q is not an outbound 837 transaction setting of partnership %s; leave the header out to use the default", settingID, ship.ID)}}, 0)
		}
		if err != nil {
			return nil, err
		}
		r.setting = st
	} else {
		r.setting = found.setting
	}
	// A setting made with the kind's guide id may hold an older id of the
	// same guide: the partners API stores a guide by the id its guide data
	// has (005010X223A3 is kept as 005010X223A2).
	if r.setting.GuideID != "" && r.setting.GuideID != k.version && !slices.Contains(k.alsoAccepts, r.setting.GuideID) {
		return nil, invalid([]FieldError{{Path: "Service-Transaction-Setting-Id",
			Message: fmt.Sprintf("the setting uses guide %s; this server writes %s claims in %s only", r.setting.GuideID, k.name, k.version)}}, 0)
	}
	r.connectionID = r.setting.ConnectionID
	if r.connectionID == "" {
		r.connectionID = ship.ConnectionID
	}
	if r.connectionID == "" {
		if c.Mode == store.ModeTest {
			return nil, &ForbiddenError{Message: fmt.Sprintf("the test partnership %s has no connection; give it the MOCK connection", ship.ID)}
		}
		return nil, &NotConfiguredError{Message: fmt.Sprintf("Payer %s is not configured: partnership %s has no connection to deliver claims through", p.ID, ship.ID)}
	}
	return r, nil
}

// shipNumbers draws ISA13 and GS06 from the partnership's sequences.
type shipNumbers struct {
	ctx context.Context
	c   *store.PartnershipControlNumbers
	p   store.Partnership
}

func (n *shipNumbers) Next(k x12.ControlKind) (int64, error) {
	switch k {
	case x12.InterchangeControl:
		return n.c.NextInterchange(n.ctx, n.p)
	case x12.GroupControl:
		return n.c.NextGroup(n.ctx, n.p)
	}
	return 1, nil
}

// outboundClaim is what recording a claim needs, whatever its type: the
// built 837, the numbers the claims list shows and the answer to store.
type outboundClaim struct {
	kind                 *claimKind
	built                *Built
	correlationID        string // claimReference.correlationId: the claim's id
	controlNumber        string // the response's controlNumber
	patientControlNumber string
	chargeCents          int64
	patientName          string
	body                 []byte // the 200 answer
	resends              string // Submission.Resends
	frequency            string // CLM05-3
}

// record writes the claim's 837 and its Guide JSON, the outbound file
// (execution, transaction, events, delivery job), the claim and the
// idempotency answer in one database transaction. The 837 and the Guide
// JSON are rows of that transaction when the blob store reads inline
// documents (inlineable); otherwise they are blobs made durable before it.
func (s *Service) record(ctx context.Context, c Caller, oc outboundClaim, r *route, now time.Time, idem *store.IdempotencyRecord) error {
	k, built := oc.kind, oc.built
	execID, txID := store.NewTimeUUID(), store.NewTimeUUID()
	fileKey, jsonKey := claimKeys(now, execID, txID)
	var guideJSON bytes.Buffer
	out, err := s.guideJSON(ctx, k, &guideJSON, built.X12, r.setting, txID)
	if err != nil {
		return err
	}
	stored := out.keys()
	inline := inlineable(s.opts.Blob, built.X12, guideJSON.Bytes())
	if inline {
		fileKey, jsonKey = blob.InlinePrefix+fileKey, blob.InlinePrefix+jsonKey
	} else {
		if err := blob.PutNew(ctx, s.opts.Blob, fileKey, built.X12, "application/edi-x12"); err != nil {
			s.discard(stored...)
			return fmt.Errorf("claims: store the %s: %w", k.form, err)
		}
		stored = append(stored, fileKey)
		if err := blob.PutNew(ctx, s.opts.Blob, jsonKey, guideJSON.Bytes(), "application/json"); err != nil {
			s.discard(stored...)
			return fmt.Errorf("claims: store the %s's Guide JSON: %w", k.form, err)
		}
		stored = append(stored, jsonKey)
	}
	file := store.Artifact{Key: fileKey, ContentType: "application/edi-x12", Size: int64(len(built.X12))}
	e := store.Execution{ID: execID, AccountID: c.AccountID, Mode: c.Mode, Direction: store.DirectionOutbound,
		Status: store.ExecutionPendingDelivery, FileType: "x12", SourceDirname: k.sourceDirname,
		SourceName: k.form + "-" + oc.correlationID + ".x12", ConnectionID: r.connectionID, PartnershipID: r.ship.ID,
		Input: file, Output: file, TransactionCount: 1,
		Detail: []byte(`{"claimId":"` + oc.correlationID + `"}`), CreatedAt: now, UpdatedAt: now}
	ctl := built.Controls
	set := core.WrittenSet{Controls: ctl, FunctionalID: "HC", Release: k.version, SetID: "837", Written: now,
		Partnership: r.ship, Sender: r.local, Receiver: r.partner, TransactionSettingID: r.setting.ID}
	ids := []store.BusinessIdentifier{{Element: "BHT-03", ElementID: "127", Name: "Originator Application Transaction Identifier", Value: oc.correlationID},
		{Element: "CLM-01", ElementID: "1028", Name: "Patient Control Number", Value: oc.patientControlNumber}}
	t := store.Transaction{ID: txID, AccountID: c.AccountID, Mode: c.Mode, ExecutionID: execID, Direction: store.DirectionOutbound,
		Status: store.TransactionSucceeded, TransactionSetID: "837", ControlNumber: ctl.Transaction, GuideID: k.version,
		PartnershipID: r.ship.ID, TransactionSettingID: r.setting.ID,
		Sender: r.local.ISAQualifier + "/" + r.local.ISAID, Receiver: r.partner.ISAQualifier + "/" + r.partner.ISAID,
		Input: file, Output: store.Artifact{Key: jsonKey, ContentType: "application/json", Size: int64(guideJSON.Len())},
		Identifiers: ids, ProcessedAt: now, CreatedAt: now}
	out.into(&t)
	outbound := core.OutboundFile{Execution: e, Transaction: &core.OutboundTransaction{Record: t,
		Partnership: set.OutboundPartnership(), X12: set.X12(), Fragments: out.info}}
	claim := store.DentalClaim{ID: oc.correlationID, AccountID: c.AccountID, Mode: c.Mode,
		PatientControlNumber: oc.patientControlNumber, PayerID: r.payer.ID, ChargeCents: oc.chargeCents,
		ControlNumber: oc.controlNumber, ExecutionID: execID, TransactionID: txID, Response: oc.body, CreatedAt: now,
		GroupControlNumber: ctl.Group, PatientName: oc.patientName, Lifecycle: lifecycle(k, built.X12)}
	// GroupInTx: on SQLite, claims arriving together share one commit.
	// rolledBack: the work failed inside the transaction, so nothing was
	// committed. An error from the commit itself (say the request was
	// cancelled as it ran) leaves the outcome unknown: the claim may be
	// recorded, so its blobs must stay.
	rolledBack := false
	join := audit.Join(ctx)
	err = s.opts.Store.GroupInTx(ctx, func(tx store.Queries) (err error) {
		defer func() { rolledBack = err != nil }()
		if inline {
			if err := tx.PutInlineBlob(ctx, c.AccountID, c.Mode, fileKey, built.X12, now); err != nil {
				return err
			}
			if err := tx.PutInlineBlob(ctx, c.AccountID, c.Mode, jsonKey, guideJSON.Bytes(), now); err != nil {
				return err
			}
		}
		if err := core.RecordOutbound(ctx, tx, s.opts.Events, outbound, s.opts.Outbound); err != nil {
			return err
		}
		if err := tx.InsertDentalClaim(ctx, claim); err != nil {
			return err
		}
		if oc.resends != "" {
			if err := recordResend(ctx, tx, c, oc, now); err != nil {
				return err
			}
		}
		if idem != nil {
			if err := tx.CompleteIdempotentRequest(ctx, idem.AccountID, idem.Key, idem.Owner, 200, oc.body); err != nil {
				return err
			}
		}
		// The request's audit entry commits with the claim (audit.Join).
		return join.Record(ctx, tx, 200, oc.correlationID)
	})
	join.Committed(err == nil)
	if err != nil {
		if rolledBack { // the blobs were written under fresh keys nothing refers to
			s.discard(stored...)
		}
		return fmt.Errorf("claims: record the claim: %w", err)
	}
	return nil
}

// claimKeys are the blob keys of a claim's 837D (the execution's input and
// output, the transaction's input) and its Guide JSON: fresh ids in one
// directory per hour, so a claim creates two files and no directory.
func claimKeys(now time.Time, execID, txID string) (x12Key, jsonKey string) {
	dir := "claims/" + now.UTC().Format("2006-01-02T15") + "/"
	return dir + execID + ".x12", dir + txID + ".json"
}

// recordResend links the claim to the caller's claim it is sent in place
// of, refusing a claim of another account or mode.
func recordResend(ctx context.Context, tx store.Queries, c Caller, oc outboundClaim, now time.Time) error {
	prev, err := tx.GetDentalClaim(ctx, c.AccountID, oc.resends)
	if err == nil && prev.Mode != c.Mode {
		err = store.ErrNotFound
	}
	if err != nil {
		return fmt.Errorf("claims: the claim resent (%s): %w", oc.resends, err)
	}
	frequency := oc.frequency
	if frequency == "" {
		frequency = "1"
	}
	return tx.RecordClaimResend(ctx, store.ClaimResend{AccountID: c.AccountID, Mode: c.Mode, ClaimID: oc.correlationID,
		PreviousClaimID: oc.resends, Frequency: frequency, CreatedAt: now})
}

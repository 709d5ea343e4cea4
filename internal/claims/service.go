package claims

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

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
type OutboundHook func(ctx context.Context, tx store.Queries, e store.Execution) error

// Options configure a Service.
type Options struct {
	Store     store.Store
	Blob      blob.Store
	Clock     clock.Clock
	Logger    *slog.Logger
	Directory *payers.Directory // default payers.Default()
	Outbound  OutboundHook
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
	ForbiddenError struct{ Message string }
	// NotConfiguredError is 400: the payer is unknown, does not take
	// dental claims, or has no connection for the key's mode.
	NotConfiguredError struct{ Message string }
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

// Submit validates and submits one claim (see Service).
func (s *Service) Submit(ctx context.Context, sub Submission) (*Result, error) {
	return s.withIdempotency(ctx, sub, s.opts.Clock.Now().UTC(), s.submit)
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
		return nil, &ValidationError{Fields: []FieldError{{Path: "Idempotency-Key", Message: fmt.Sprintf("must be 1 to 255 characters; got %d", n)}}}
	}
	h := sha256.Sum256(append([]byte(sub.Route+"\n"+sub.Caller.Mode+"\n"), sub.Body...))
	rec := store.IdempotencyRecord{AccountID: sub.Caller.AccountID, Key: sub.IdempotencyKey, RequestHash: hex.EncodeToString(h[:]),
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

func (s *Service) submit(ctx context.Context, sub Submission, now time.Time, idem *store.IdempotencyRecord) (*Result, error) {
	req := sub.Request
	if err := Validate(req); err != nil {
		return nil, err
	}
	r, err := s.route(ctx, sub.Caller, req.TradingPartnerServiceID, sub.TransactionSettingID)
	if err != nil {
		return nil, err
	}
	if sub.Caller.Mode == store.ModeTest {
		req.UsageIndicator = "T" // test keys send test claims, whatever the body says
	}
	correlationID := store.NewID()
	traceID := sub.TraceID
	if traceID == "" {
		traceID = store.NewUUID()
	}
	built, err := Build837D(req, BuildOptions{
		Envelope: r.envelope(), Numbers: &shipNumbers{ctx: ctx, c: s.numbers, p: r.ship},
		PayerID: r.payer.ID, PayerName: r.payer.Name, CorrelationID: correlationID, Now: now,
		LineID: func(int) string { return store.NewID() },
	})
	if err != nil {
		return nil, fmt.Errorf("claims: build the 837D: %w", err)
	}
	info := ResponseInfo{CorrelationID: correlationID, TraceID: traceID, Mode: sub.Caller.Mode, PayerID: r.payer.ID,
		PayerName: r.payer.Name, SenderID: r.local.ISAID, Now: now}
	ack, err := ClearinghouseAck(req, built, info, Ack277Options{Numbers: &x12.SequentialControlNumbers{}, Now: now})
	if err != nil {
		return nil, fmt.Errorf("claims: write our 277CA: %w", err)
	}
	info.Ack277 = ack
	return s.finish(ctx, sub.Caller, req, built, r, info, now, idem)
}

// finish records a built claim and answers its response.
func (s *Service) finish(ctx context.Context, c Caller, req *Request, built *Built, r *route, info ResponseInfo, now time.Time,
	idem *store.IdempotencyRecord) (*Result, error) {
	resp := NewResponse(req, built, info)
	body, err := json.Marshal(resp)
	if err != nil {
		return nil, err
	}
	if err := s.record(ctx, c, req, built, r, resp, body, now, idem); err != nil {
		return nil, err
	}
	return &Result{Status: 200, Body: body, Response: resp}, nil
}

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

func (s *Service) route(ctx context.Context, c Caller, payerID, settingID string) (*route, error) {
	p, ok := s.opts.Directory.Lookup(strings.TrimSpace(payerID))
	if !ok {
		return nil, &NotConfiguredError{Message: fmt.Sprintf("Payer %s is not configured: unknown payer id; check the payer list for the id to use (tradingPartnerServiceId)", payerID)}
	}
	if !p.Supports(payers.DentalClaim) {
		return nil, &NotConfiguredError{Message: fmt.Sprintf("Payer connection does not support 837D: payer %s (%s) does not take dental claims electronically", p.ID, p.Name)}
	}
	testOnly := false
	for _, id := range s.opts.TestOnlyPayers {
		testOnly = testOnly || strings.EqualFold(p.ID, id)
	}
	if testOnly && c.Mode == store.ModeProduction {
		return nil, &ForbiddenError{Message: fmt.Sprintf("payer %s is a test-mode mock; a production key cannot send claims to it", p.ID)}
	}
	r := &route{payer: p}
	found, err := s.ships.find(ctx, s.opts.Store, c.AccountID, c.Mode, p.ID, s.opts.Clock.Now())
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
			return nil, &ValidationError{Fields: []FieldError{{Path: "Service-Transaction-Setting-Id",
				Message: fmt.Sprintf("%q is not an outbound 837 transaction setting of partnership %s; leave the header out to use the default", settingID, ship.ID)}}}
		}
		if err != nil {
			return nil, err
		}
		r.setting = st
	} else {
		r.setting = found.setting
	}
	if r.setting.GuideID != "" && r.setting.GuideID != Version837D {
		return nil, &ValidationError{Fields: []FieldError{{Path: "Service-Transaction-Setting-Id",
			Message: fmt.Sprintf("the setting uses guide %s; this server writes dental claims in %s only", r.setting.GuideID, Version837D)}}}
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

// transactionDetail is transaction.processed.v2's detail (spec §6).
type transactionDetail struct {
	TransactionID   string               `json:"transactionId"`
	Direction       string               `json:"direction"`
	Mode            string               `json:"mode"`
	FileExecutionID string               `json:"fileExecutionId"`
	ProcessedAt     string               `json:"processedAt"`
	Fragments       *core.FragmentsInfo  `json:"fragments"`
	Artifacts       []core.Artifact      `json:"artifacts"`
	Partnership     *core.PartnershipRef `json:"partnership"`
	X12             core.X12Detail       `json:"x12"`
	ConnectionID    string               `json:"connectionId,omitempty"`
}

// record writes the 837D and its Guide JSON to the blob store, then the
// execution, transaction, claim, event, delivery job and idempotency
// answer in one database transaction.
func (s *Service) record(ctx context.Context, c Caller, req *Request, built *Built, r *route, resp *Response, body []byte,
	now time.Time, idem *store.IdempotencyRecord) error {
	execID, txID := store.NewTimeUUID(), store.NewTimeUUID()
	fileKey, jsonKey := claimKeys(now, execID, txID)
	var guideJSON bytes.Buffer
	out, err := s.guideJSON(ctx, &guideJSON, built.X12, r.setting, txID)
	if err != nil {
		return err
	}
	stored := out.keys()
	if err := blob.PutNew(ctx, s.opts.Blob, fileKey, built.X12, "application/edi-x12"); err != nil {
		s.discard(stored...)
		return fmt.Errorf("claims: store the 837D: %w", err)
	}
	stored = append(stored, fileKey)
	if err := blob.PutNew(ctx, s.opts.Blob, jsonKey, guideJSON.Bytes(), "application/json"); err != nil {
		s.discard(stored...)
		return fmt.Errorf("claims: store the 837D's Guide JSON: %w", err)
	}
	stored = append(stored, jsonKey)
	file := store.Artifact{Key: fileKey, ContentType: "application/edi-x12", Size: int64(len(built.X12))}
	name := "837D-" + resp.ClaimReference.CorrelationID + ".x12"
	e := store.Execution{ID: execID, AccountID: c.AccountID, Mode: c.Mode, Direction: store.DirectionOutbound,
		Status: store.ExecutionPendingDelivery, FileType: "x12", SourceDirname: "dental-claims", SourceName: name,
		ConnectionID: r.connectionID, PartnershipID: r.ship.ID, Input: file, Output: file, TransactionCount: 1,
		Detail: []byte(`{"claimId":"` + resp.ClaimReference.CorrelationID + `"}`), CreatedAt: now, UpdatedAt: now}
	ctl := built.Controls
	x := core.X12Detail{
		Metadata: core.X12Metadata{
			Interchange: core.InterchangeMeta{AcknowledgmentRequestedCode: "0", ControlNumber: atoi(ctl.Interchange)},
			FunctionalGroup: &core.GroupMeta{ControlNumber: atoi(ctl.Group), Release: Version837D, Date: now.Format("2006-01-02"),
				Time: now.Format("15:04:00"), FunctionalIdentifierCode: "HC"},
			Transaction: &core.TransactionMeta{ControlNumber: ctl.Transaction, TransactionSetIdentifier: "837"},
			Sender:      core.PartyMeta{ApplicationCode: r.local.ApplicationCode, ISA: core.ISAPart{Qualifier: r.local.ISAQualifier, ID: r.local.ISAID}},
			Receiver:    core.PartyMeta{ApplicationCode: r.partner.ApplicationCode, ISA: core.ISAPart{Qualifier: r.partner.ISAQualifier, ID: r.partner.ISAID}},
		},
		TransactionSetting: &core.SettingRef{GuideID: Version837D, TransactionSettingID: r.setting.ID},
	}
	ship := &core.PartnershipRef{PartnershipID: r.ship.ID, PartnershipType: store.PartnershipTypeX12,
		Sender: core.ProfileRef{ProfileID: r.local.ID}, Receiver: core.ProfileRef{ProfileID: r.partner.ID}}
	detail, err := json.Marshal(core.TransactionRecord{Partnership: ship, X12: x, Fragments: out.info})
	if err != nil {
		return err
	}
	ids := []store.BusinessIdentifier{{Element: "BHT-03", ElementID: "127", Name: "Originator Application Transaction Identifier", Value: resp.ClaimReference.CorrelationID},
		{Element: "CLM-01", ElementID: "1028", Name: "Patient Control Number", Value: req.ClaimInformation.PatientControlNumber}}
	t := store.Transaction{ID: txID, AccountID: c.AccountID, Mode: c.Mode, ExecutionID: execID, Direction: store.DirectionOutbound,
		Status: store.TransactionSucceeded, TransactionSetID: "837", ControlNumber: ctl.Transaction, GuideID: Version837D,
		PartnershipID: r.ship.ID, TransactionSettingID: r.setting.ID,
		Sender: r.local.ISAQualifier + "/" + r.local.ISAID, Receiver: r.partner.ISAQualifier + "/" + r.partner.ISAID,
		Input: file, Output: store.Artifact{Key: jsonKey, ContentType: "application/json", Size: int64(guideJSON.Len())},
		Identifiers: ids, Detail: detail, ProcessedAt: now, CreatedAt: now}
	out.into(&t)
	charge, _ := parseCents(req.ClaimInformation.ClaimChargeAmount)
	claim := store.DentalClaim{ID: resp.ClaimReference.CorrelationID, AccountID: c.AccountID, Mode: c.Mode,
		PatientControlNumber: req.ClaimInformation.PatientControlNumber, PayerID: r.payer.ID, ChargeCents: charge,
		ControlNumber: resp.ControlNumber, ExecutionID: execID, TransactionID: txID, Response: body, CreatedAt: now,
		GroupControlNumber: ctl.Group, PatientName: patientName(req)}
	processedAt := now.Format("2006-01-02T15:04:05.000Z")
	// GroupInTx: on SQLite, claims arriving together share one commit.
	// rolledBack: the work failed inside the transaction, so nothing was
	// committed. An error from the commit itself (say the request was
	// cancelled as it ran) leaves the outcome unknown: the claim may be
	// recorded, so its blobs must stay.
	rolledBack := false
	err = s.opts.Store.GroupInTx(ctx, func(tx store.Queries) (err error) {
		defer func() { rolledBack = err != nil }()
		if err := tx.InsertExecution(ctx, e); err != nil {
			return err
		}
		if err := tx.InsertTransaction(ctx, t); err != nil {
			return err
		}
		if err := tx.InsertDentalClaim(ctx, claim); err != nil {
			return err
		}
		if _, err := events.Emit(ctx, tx, events.Event{AccountID: c.AccountID, Mode: c.Mode, DetailType: events.TransactionProcessed,
			ExecutionID: execID, TransactionID: txID, Resources: []string{events.TransactionURL(txID)}, Time: now,
			Detail: transactionDetail{TransactionID: txID, Direction: store.DirectionOutbound, Mode: c.Mode, FileExecutionID: execID,
				ProcessedAt: processedAt, Fragments: out.info, Partnership: ship, X12: x, ConnectionID: r.connectionID,
				Artifacts: []core.Artifact{
					{ArtifactType: "application/edi-x12", Usage: "input", URL: events.TransactionURL(txID, "input"), SizeBytes: &file.Size, Model: "transaction"},
					{ArtifactType: "application/json", Usage: "output", URL: events.TransactionURL(txID, "output"), SizeBytes: &t.Output.Size, Model: "transaction"},
				}}}); err != nil {
			return err
		}
		for i := range t.Fragments {
			if _, err := events.Emit(ctx, tx, core.FragmentEvent(t, *out.info, i, ship, x, now)); err != nil {
				return err
			}
		}
		if err := s.opts.Outbound(ctx, tx, e); err != nil {
			return err
		}
		if idem != nil {
			return tx.CompleteIdempotentRequest(ctx, idem.AccountID, idem.Key, idem.Owner, 200, body)
		}
		return nil
	})
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

func atoi(s string) int64 {
	var n int64
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0
		}
		n = n*10 + int64(s[i]-'0')
	}
	return n
}

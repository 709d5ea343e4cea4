package delivery

import (
	"bytes"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// AnswerKind is the job in which the mock payer answers a delivered file.
const AnswerKind = "delivery.mock-answer"

// Mock is the MOCK connection: test mode's trading partner. A delivery
// succeeds unless the mock rules say the payer is unreachable; once it is
// recorded, the mock payer reads the 837D and its 999 and 277CA come back
// as inbound files on the same account, through core.Receive, in their
// own job (so a delivery is never reported before the file arrived, and
// the answers exist exactly when the delivery does).
type Mock struct {
	payer      MockPayer
	core       *core.Service
	store      store.Store
	blob       blob.Store
	jobs       *jobs.Queue
	logger     *slog.Logger
	now        func() time.Time
	remitDelay time.Duration
}

// MockPayer is the payer behind the MOCK connection. The composition root
// gives internal/mockpayer's; delivery never imports it, so the mock stays
// at the edge of the graph.
type MockPayer interface {
	// Reachable fails when the payer a claim file names never answers
	// (the delivery fails as a real unreachable payer's would).
	Reachable(file []byte) error
	// AnswerClaims reads a claim file as the payer would and answers it.
	AnswerClaims(ctx context.Context, file []byte) (MockAnswer, error)
	// Remit is the 835 paying what the payer accepted of a claim file; nil
	// when it pays nothing.
	Remit(ctx context.Context, file []byte) ([]byte, error)
}

// MockAnswer is the mock payer's answer to a claim file.
type MockAnswer struct {
	Ack999   []byte
	Ack277CA []byte // nil when the 999 rejects the file or the payer stays silent
	// Rejected counts the claims the 277CA rejects.
	Rejected int
}

// MockOptions configure the MOCK transport.
type MockOptions struct {
	Payer  MockPayer
	Core   *core.Service
	Store  store.Store
	Blob   blob.Store
	Jobs   *jobs.Queue
	Logger *slog.Logger
	// Now is the clock the 835's delay is counted on (time.Now when nil).
	Now func() time.Time
	// RemitDelay is how long after the 277CA the 835 arrives
	// (DefaultRemitDelay when zero).
	RemitDelay time.Duration
}

// NewMock builds the MOCK transport and registers AnswerKind and RemitKind.
func NewMock(o MockOptions) (*Mock, error) {
	if o.Payer == nil || o.Core == nil || o.Store == nil || o.Blob == nil || o.Jobs == nil {
		return nil, errors.New("delivery: the MOCK transport needs Payer, Core, Store, Blob and Jobs")
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.RemitDelay == 0 {
		o.RemitDelay = DefaultRemitDelay
	}
	m := &Mock{payer: o.Payer, core: o.Core, store: o.Store, blob: o.Blob, jobs: o.Jobs, logger: o.Logger, now: o.Now, remitDelay: o.RemitDelay}
	o.Jobs.Register(AnswerKind, jobs.Policy{MaxAttempts: 5, Backoff: jobs.Exponential(5e9, 6e10)}, m.answerJob)
	o.Jobs.Register(RemitKind, jobs.Policy{MaxAttempts: 5, Backoff: jobs.Exponential(5e9, 6e10)}, m.remitJob)
	return m, nil
}

// Deliver hands the file to the mock payer. Test files only: a production
// file never reaches a mock.
func (m *Mock) Deliver(ctx context.Context, f File) (string, error) {
	if f.Execution.Mode != store.ModeTest {
		return "", errors.New("the MOCK connection takes test-mode files only")
	}
	if err := m.payer.Reachable(f.Body); err != nil {
		return "", err
	}
	return fmt.Sprintf("File was delivered to the mock payer '%s'", f.Execution.SourceName), nil
}

// Delivered queues the mock payer's answer in the delivery's transaction.
// Only claim files (GS01 HC) get an answer: a 999 we send the mock is
// taken without reply, as payers do.
func (m *Mock) Delivered(ctx context.Context, tx store.Queries, f File) error {
	if !claimFile(f.Body) {
		return nil
	}
	_, err := m.jobs.Enqueue(ctx, tx, AnswerKind, payload{ExecutionID: f.Execution.ID, AccountID: f.Execution.AccountID},
		jobs.ForTenant(f.Execution.AccountID, f.Execution.Mode))
	return err
}

func (m *Mock) answerJob(ctx context.Context, job store.Job) error {
	var p payload
	if err := jobs.Decode(job, &p); err != nil {
		return jobs.Permanent(err)
	}
	e, err := m.store.GetExecution(ctx, p.AccountID, p.ExecutionID)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return jobs.Permanent(err)
		}
		return err
	}
	rc, err := m.blob.Get(ctx, e.Output.Key)
	if err != nil {
		return err
	}
	body, err := io.ReadAll(io.LimitReader(rc, MaxFileBytes))
	rc.Close()
	if err != nil {
		return err
	}
	// The payer answers as the account's simulator scenarios say.
	ctx = payers.WithCaller(ctx, payers.Caller{AccountID: e.AccountID, Mode: payers.Mode(e.Mode)})
	ctx, sims := payers.WithSimulationLog(ctx)
	ans, err := m.payer.AnswerClaims(ctx, body)
	if err != nil {
		return jobs.Permanent(fmt.Errorf("mock payer: %w", err))
	}
	if err := m.recordSimulations(ctx, e, sims); err != nil {
		return err
	}
	files := []struct {
		name string
		body []byte
	}{{"999-" + e.ID + ".x12", ans.Ack999}, {"277CA-" + e.ID + ".x12", ans.Ack277CA}}
	for _, f := range files {
		if f.body == nil {
			continue
		}
		// Each answer's execution id is derived from the claim file and the
		// answer's name, so a rerun after a crash between the two receipts
		// finds the first answer already received instead of receiving it
		// twice (Receive is idempotent by execution id).
		if _, err := m.core.Receive(ctx, core.ReceiveParams{AccountID: e.AccountID, Mode: e.Mode, Name: f.name,
			Dirname: "mock", ConnectionID: e.ConnectionID, Body: bytes.NewReader(f.body),
			ExecutionID: answerExecutionID(e.ID, f.name)}); err != nil {
			return err
		}
	}
	if ans.Ack277CA != nil { // the payer pays what it accepted (Remit skips the rejected)
		if err := m.scheduleRemit(ctx, e); err != nil {
			return err
		}
	}
	m.logger.Info("delivery: the mock payer answered", "execution", e.ID, "account", e.AccountID, "rejectedClaims", ans.Rejected,
		"attempt", job.Attempt)
	return nil
}

// recordSimulations stores which scenario produced each answer about each
// claim of execution e, before the answers are received: a claim's answer
// is never visible without its scenario. A rerun keeps the first records.
func (m *Mock) recordSimulations(ctx context.Context, e store.Execution, sims *payers.SimulationLog) error {
	all := sims.All()
	if len(all) == 0 {
		return nil
	}
	rows := make([]store.SimulatedAnswer, len(all))
	for i, s := range all {
		rows[i] = store.SimulatedAnswer{AccountID: e.AccountID, Mode: e.Mode, Subject: store.ClaimSubject(e.ID, s.Claim),
			Kind: s.Kind, Scenario: s.Scenario, Index: s.Index, Line: s.Line, CreatedAt: m.now()}
	}
	return m.store.PutSimulatedAnswers(ctx, rows)
}

// claimFile reports whether a file's first functional group holds claims
// (GS01 "HC").
func claimFile(b []byte) bool {
	r := x12.NewReader(bytes.NewReader(b))
	for range 4 {
		seg, err := r.Next()
		if err != nil {
			return false
		}
		if seg.Is("GS") {
			return seg.Element(1) == "HC"
		}
	}
	return false
}

// answerExecutionID is the id of the mock payer's answer named name to the
// outbound execution id: the same on every run of the answer job.
func answerExecutionID(executionID, name string) string {
	sum := sha256.Sum256([]byte("clearhouse mock answer\x00" + executionID + "\x00" + name))
	var b [16]byte
	copy(b[:], sum[:])
	return store.FormatUUID(b, 8)
}

package delivery

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// RemitKind is the job in which the mock payer pays the claims it accepted:
// an 835 arrives as an inbound file some time after the 277CA, as a real
// payer's remittance follows its acknowledgment.
const RemitKind = "delivery.mock-remit"

// DefaultRemitDelay is how long after its 277CA the mock payer's 835
// arrives.
const DefaultRemitDelay = 5 * time.Second

// scheduleRemit queues the 835 of a claim file the mock accepted. The job's
// id comes from the file, so an answer job that runs again (a crash after
// this commit) finds it queued instead of queuing a second payment.
func (m *Mock) scheduleRemit(ctx context.Context, e store.Execution) error {
	_, err := m.jobs.Enqueue(ctx, m.store, RemitKind, payload{ExecutionID: e.ID, AccountID: e.AccountID},
		jobs.ForTenant(e.AccountID, e.Mode), jobs.WithID(answerExecutionID(e.ID, "835-job")), jobs.At(m.now().Add(m.remitDelay)))
	if errors.Is(err, store.ErrConflict) {
		return nil
	}
	return err
}

func (m *Mock) remitJob(ctx context.Context, job store.Job) error {
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
	ctx = payers.WithCaller(ctx, payers.Caller{AccountID: e.AccountID, Mode: payers.Mode(e.Mode)})
	ctx, sims := payers.WithSimulationLog(ctx)
	era, err := m.payer.Remit(ctx, body)
	if err != nil {
		return jobs.Permanent(fmt.Errorf("mock payer: %w", err))
	}
	if err := m.recordSimulations(ctx, e, sims); err != nil {
		return err
	}
	if era == nil {
		return nil // every claim was rejected: nothing to pay
	}
	name := "835-" + e.ID + ".x12"
	// Receive is idempotent by execution id: a rerun finds the 835 there.
	if _, err := m.core.Receive(ctx, core.ReceiveParams{AccountID: e.AccountID, Mode: e.Mode, Name: name,
		Dirname: "mock", ConnectionID: e.ConnectionID, Body: bytes.NewReader(era),
		ExecutionID: answerExecutionID(e.ID, name)}); err != nil {
		return err
	}
	m.logger.Info("delivery: the mock payer paid", "execution", e.ID, "account", e.AccountID, "attempt", job.Attempt)
	return nil
}

package core

import (
	"context"
	"encoding/json"
	"time"

	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// OutboundFile is a file the server sends to a partner: its execution and,
// when the file carries a transaction set the server wrote for a caller (a
// claim), that set's transaction. A 999 going back to a sender has no
// Transaction: it is recorded as an execution only.
type OutboundFile struct {
	Execution   store.Execution
	Transaction *OutboundTransaction
}

// OutboundTransaction is the one transaction set of an outbound file, with
// what its events say about it. Record.Detail is filled by RecordOutbound.
type OutboundTransaction struct {
	Record      store.Transaction
	Partnership *PartnershipRef
	X12         X12Detail
	Fragments   *FragmentsInfo // nil when the setting cuts no fragments
}

// RecordOutbound records an outbound file inside tx, the one way every
// outbound file is recorded: the execution; its transaction, if any, with
// transaction.processed.v2 and one fragment.processed.v2 per fragment (spec
// §6, direction OUTBOUND); then deliver (delivery.Service.Enqueue), so the
// file's delivery job commits with it. The content must already be in the
// blob store under the execution's keys.
func RecordOutbound(ctx context.Context, tx store.Queries, em *events.Emitter, f OutboundFile, deliver OutboundHook) error {
	e := f.Execution
	if err := tx.InsertExecution(ctx, e); err != nil {
		return err
	}
	if ot := f.Transaction; ot != nil {
		if err := recordOutboundTransaction(ctx, tx, em, e, ot); err != nil {
			return err
		}
	}
	if deliver != nil {
		return deliver(ctx, tx, e)
	}
	return nil
}

func recordOutboundTransaction(ctx context.Context, tx store.Queries, em *events.Emitter, e store.Execution, ot *OutboundTransaction) error {
	t := ot.Record
	detail, err := json.Marshal(TransactionRecord{Partnership: ot.Partnership, X12: ot.X12, Fragments: ot.Fragments})
	if err != nil {
		return err
	}
	t.Detail = detail
	if err := tx.InsertTransaction(ctx, t); err != nil {
		return err
	}
	now := t.ProcessedAt
	if _, err := em.Emit(ctx, tx, events.Event{AccountID: t.AccountID, Mode: t.Mode, DetailType: events.TransactionProcessed,
		ExecutionID: e.ID, TransactionID: t.ID, Resources: []string{em.TransactionURL(t.ID)}, Time: now,
		Detail: transactionDetail{TransactionID: t.ID, Direction: t.Direction, Mode: t.Mode, FileExecutionID: e.ID,
			ProcessedAt: timestamp(now), Fragments: ot.Fragments, Partnership: ot.Partnership, X12: ot.X12, ConnectionID: e.ConnectionID,
			Artifacts: []Artifact{
				artifact(t.Input.ContentType, "input", em.TransactionURL(t.ID, "input"), t.Input.Size, "transaction"),
				artifact(t.Output.ContentType, "output", em.TransactionURL(t.ID, "output"), t.Output.Size, "transaction"),
			}}}); err != nil {
		return err
	}
	if ot.Fragments == nil {
		return nil
	}
	for i := range t.Fragments {
		// Each a microsecond later, so lists keep the transaction first
		// and the fragments in order (as the inbound path's events).
		at := now.Add(time.Duration(i+1) * time.Microsecond)
		if _, err := em.Emit(ctx, tx, FragmentEvent(em, t, *ot.Fragments, i, ot.Partnership, ot.X12, at)); err != nil {
			return err
		}
	}
	return nil
}

// WrittenSet describes a transaction set the server wrote and enveloped
// itself: its control numbers, guide and the two profiles of the
// partnership it goes through.
type WrittenSet struct {
	Controls             x12.Controls
	FunctionalID         string // GS01, e.g. HC
	Release              string // GS08, the guide id, e.g. 005010X222A1
	SetID                string // ST01, e.g. 837
	Written              time.Time
	Partnership          store.Partnership
	Sender, Receiver     store.Profile // local, partner
	TransactionSettingID string
}

// OutboundPartnership is the partnership of an outbound file: we send, the
// partner receives.
func (w WrittenSet) OutboundPartnership() *PartnershipRef {
	return &PartnershipRef{PartnershipID: w.Partnership.ID, PartnershipType: store.PartnershipTypeX12,
		Sender: ProfileRef{w.Sender.ID}, Receiver: ProfileRef{w.Receiver.ID}}
}

// X12 is the x12 object of the set's events and record, from what the
// server wrote in its envelopes (ISA14 0: our outbound files ask for no
// TA1).
func (w WrittenSet) X12() X12Detail {
	c := w.Controls
	return X12Detail{
		Metadata: X12Metadata{
			Interchange: InterchangeMeta{AcknowledgmentRequestedCode: "0", ControlNumber: controlNumber(c.Interchange)},
			FunctionalGroup: &GroupMeta{ControlNumber: controlNumber(c.Group), Release: w.Release, Date: w.Written.Format("2006-01-02"),
				Time: w.Written.Format("15:04:00"), FunctionalIdentifierCode: w.FunctionalID},
			Transaction: &TransactionMeta{ControlNumber: c.Transaction, TransactionSetIdentifier: w.SetID},
			Sender:      PartyMeta{ApplicationCode: w.Sender.ApplicationCode, ISA: ISAPart{Qualifier: w.Sender.ISAQualifier, ID: w.Sender.ISAID}},
			Receiver:    PartyMeta{ApplicationCode: w.Receiver.ApplicationCode, ISA: ISAPart{Qualifier: w.Receiver.ISAQualifier, ID: w.Receiver.ISAID}},
		},
		TransactionSetting: &SettingRef{GuideID: w.Release, TransactionSettingID: w.TransactionSettingID},
	}
}

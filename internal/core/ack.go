package core

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"io"

	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// ackFile is a 999 (with TA1s when asked) going back to the sender of an
// inbound file, as an outbound execution.
type ackFile struct {
	execution store.Execution
	body      []byte
}

// OutboundHook is called inside the transaction that records an outbound
// execution the core made (a 999 back to a sender), so the delivery module
// can enqueue its delivery in the same transaction.
type OutboundHook func(ctx context.Context, tx store.Queries, e store.Execution) error

// buildAck renders the acknowledgment of a pass when a transaction setting
// of the file asks for a 999; TA1s are included when a setting asks for
// them and ISA14 requests one.
func (s *Service) buildAck(ctx context.Context, e store.Execution, p *pass, rep *x12.Report) (*ackFile, error) {
	ask999, askTA1 := false, false
	for _, set := range p.sets {
		ask999 = ask999 || set.setting.Ack999
		askTA1 = askTA1 || set.setting.AckTA1
	}
	if !ask999 || len(p.interchanges) == 0 || p.interchanges[0].partnership.ID == "" {
		return nil, nil
	}
	pt := p.interchanges[0].partnership
	opts := x12.AckOptions{Numbers: &ackNumbers{ctx: ctx, c: s.numbers, p: pt}, Date: s.opts.Clock.Now().UTC(), TA1: x12.TA1Never}
	if askTA1 {
		opts.TA1 = x12.TA1WhenRequested
	}
	var buf bytes.Buffer
	if err := x12.WriteAcks(&buf, rep, opts); err != nil {
		return nil, err
	}
	sum := sha256.Sum256([]byte(e.ID + "/ack"))
	var id [16]byte
	copy(id[:], sum[:16])
	now := s.opts.Clock.Now().UTC()
	ackID := store.FormatUUID(id, 5)
	return &ackFile{body: buf.Bytes(), execution: store.Execution{
		ID: ackID, AccountID: e.AccountID, Mode: e.Mode, Direction: store.DirectionOutbound,
		Status: store.ExecutionPendingDelivery, FileType: FileTypeX12, SourceName: "999-" + e.SourceName,
		ConnectionID: pt.ConnectionID, PartnershipID: pt.ID,
		Output:    store.Artifact{Key: executionOutputKey(ackID), ContentType: "application/edi-x12", Size: int64(buf.Len())},
		Detail:    []byte(`{"acknowledges":"` + e.ID + `"}`),
		CreatedAt: now, UpdatedAt: now,
	}}, nil
}

// recordAck stores the acknowledgment's content and its outbound execution
// (inside the caller's transaction; the content first, under a key of its
// own that a rerun overwrites).
func (s *Service) recordAck(ctx context.Context, tx store.Queries, ack *ackFile) error {
	if ack == nil {
		return nil
	}
	if err := s.opts.Blob.Put(ctx, ack.execution.Output.Key, bytes.NewReader(ack.body), "application/edi-x12"); err != nil {
		return err
	}
	return RecordOutbound(ctx, tx, s.opts.Events, OutboundFile{Execution: ack.execution}, s.opts.Outbound)
}

// ackNumbers takes the acknowledgment's ISA13 and GS06 from the
// partnership's sequences; ST02 counts from 1 within the file.
type ackNumbers struct {
	ctx context.Context
	c   *store.PartnershipControlNumbers
	p   store.Partnership
	st  int64
}

func (a *ackNumbers) Next(kind x12.ControlKind) (int64, error) {
	switch kind {
	case x12.InterchangeControl:
		return a.c.NextInterchange(a.ctx, a.p)
	case x12.GroupControl:
		return a.c.NextGroup(a.ctx, a.p)
	}
	a.st++
	return a.st, nil
}

func jsonEncode(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

package core

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/findings"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
)

// processJob is the ProcessKind handler.
func (s *Service) processJob(ctx context.Context, j store.Job) error {
	var p processPayload
	if err := jobs.Decode(j, &p); err != nil {
		return jobs.Permanent(err)
	}
	e, err := s.opts.Store.GetExecution(ctx, p.AccountID, p.ExecutionID)
	if errors.Is(err, store.ErrNotFound) {
		return jobs.Permanent(fmt.Errorf("core: execution %s not found", p.ExecutionID))
	}
	if err != nil {
		return err
	}
	if e.Status != store.ExecutionReceived && e.Status != store.ExecutionProcessing {
		return nil // an earlier attempt recorded the outcome and died before completing the job
	}
	if e.Status == store.ExecutionReceived {
		// Visible while a long file is read; the outcome moves it on.
		e.Status, e.UpdatedAt = store.ExecutionProcessing, s.opts.Clock.Now().UTC()
		if err := s.opts.Store.UpdateExecution(ctx, e, store.ExecutionReceived); err != nil && !errors.Is(err, store.ErrConflict) {
			return err
		}
	}
	if e.FileType != FileTypeX12 {
		return s.recordNonEDI(ctx, e)
	}
	return s.processX12(ctx, e)
}

// timestamp is the contract's processedAt format (UTC, milliseconds).
func timestamp(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// recordNonEDI completes a file that is stored but not parsed.
func (s *Service) recordNonEDI(ctx context.Context, e store.Execution) error {
	now := s.opts.Clock.Now().UTC()
	return s.record(ctx, func(tx store.Queries) error {
		done := e
		done.Status, done.ProcessedAt, done.UpdatedAt = store.ExecutionCompleted, now, now
		if err := tx.UpdateExecution(ctx, done, store.ExecutionReceived, store.ExecutionProcessing); err != nil {
			return err
		}
		_, err := s.opts.Events.Emit(ctx, tx, events.Event{
			AccountID: e.AccountID, Mode: e.Mode, DetailType: events.FileProcessed, ExecutionID: e.ID,
			Resources: []string{s.opts.Events.ExecutionURL(e.ID)}, Time: now,
			Detail: fileProcessedDetail{FileExecutionID: e.ID, ProcessedAt: timestamp(now), ConnectionID: e.ConnectionID,
				Source:    Source{Dirname: e.SourceDirname, Name: e.SourceName},
				Artifacts: []Artifact{artifact(e.Input.ContentType, "input", s.opts.Events.ExecutionURL(e.ID, "input"), e.Input.Size, "execution")}},
		})
		return err
	})
}

// record runs fn in one transaction; ErrConflict from the execution's
// status change means another worker recorded the outcome first.
func (s *Service) record(ctx context.Context, fn func(tx store.Queries) error) error {
	err := s.opts.Store.InTx(ctx, fn)
	if errors.Is(err, store.ErrConflict) {
		s.opts.Logger.Info("core: execution already recorded by another attempt", "error", err.Error())
		return nil
	}
	return err
}

type fileProcessedDetail struct {
	FileExecutionID string     `json:"fileExecutionId"`
	ProcessedAt     string     `json:"processedAt"`
	PartnershipID   string     `json:"partnershipId,omitempty"`
	ConnectionID    string     `json:"connectionId,omitempty"`
	Source          Source     `json:"source"`
	Artifacts       []Artifact `json:"artifacts"`
}

type fileFailedDetail struct {
	FileExecutionID string          `json:"fileExecutionId"`
	Direction       string          `json:"direction"`
	ProcessedAt     string          `json:"processedAt"`
	Source          Source          `json:"source"`
	Artifacts       []Artifact      `json:"artifacts"`
	ConnectionID    string          `json:"connectionId,omitempty"`
	Partnership     *PartnershipRef `json:"partnership,omitempty"`
	Errors          []Fault         `json:"errors"`
	X12             *failedX12      `json:"x12,omitempty"`
}

type failedX12 struct {
	Metadata struct {
		Interchange InterchangeMeta `json:"interchange"`
		Receiver    struct {
			ISA ISAPart `json:"isa"`
		} `json:"receiver"`
		Sender struct {
			ISA ISAPart `json:"isa"`
		} `json:"sender"`
	} `json:"metadata"`
}

type transactionDetail struct {
	TransactionID   string          `json:"transactionId"`
	Direction       string          `json:"direction"`
	Mode            string          `json:"mode"`
	FileExecutionID string          `json:"fileExecutionId"`
	ProcessedAt     string          `json:"processedAt"`
	Fragments       *FragmentsInfo  `json:"fragments"`
	Artifacts       []Artifact      `json:"artifacts"`
	Partnership     *PartnershipRef `json:"partnership"`
	X12             X12Detail       `json:"x12"`
	ConnectionID    string          `json:"connectionId,omitempty"`
}

type fragmentDetail struct {
	FileExecutionID string          `json:"fileExecutionId"`
	TransactionID   string          `json:"transactionId"`
	Direction       string          `json:"direction"`
	Mode            string          `json:"mode"`
	ProcessedAt     string          `json:"processedAt"`
	Fragments       FragmentsInfo   `json:"fragments"`
	FragmentIndex   int             `json:"fragmentIndex"`
	Artifacts       []Artifact      `json:"artifacts"`
	Partnership     *PartnershipRef `json:"partnership"`
	X12             X12Detail       `json:"x12"`
}

// TransactionRecord is the JSON kept in a transaction's Detail: what its
// events and GET /transactions/{id} say beyond the columns.
type TransactionRecord struct {
	Partnership *PartnershipRef `json:"partnership,omitempty"`
	X12         X12Detail       `json:"x12"`
	Fragments   *FragmentsInfo  `json:"fragments"`
}

func (s *Service) processX12(ctx context.Context, e store.Execution) error {
	r, err := s.opts.Blob.Get(ctx, e.Input.Key)
	if errors.Is(err, blob.ErrNotFound) {
		return s.recordFailure(ctx, e, nil, nil, []Fault{{FaultFileNotFound, "The file's content is missing from the blob store."}}, nil)
	}
	if err != nil {
		return err
	}
	defer r.Close()
	p, err := s.newPass(ctx, e)
	if err != nil {
		return err
	}
	defer p.close()
	rep, err := p.run(r)
	if err != nil {
		p.discardSets()
		return err // storage trouble: the job retries
	}
	faults := p.faults
	if len(faults) == 0 {
		faults = faultsOf(rep)
	}
	if len(faults) == 0 && len(p.sets) == 0 {
		faults = []Fault{{FaultNoTransactionSets, "The file holds no transaction set (ST..SE)."}}
	}
	ack, err := s.buildAck(ctx, e, p, rep)
	if err != nil {
		p.discardSets()
		return err
	}
	if len(faults) > 0 {
		p.discardSets()
		return s.recordFailure(ctx, e, p, rep, faults, ack)
	}
	return s.recordSuccess(ctx, e, p, ack)
}

// discardSets removes the stored outputs of a pass that records no
// transaction (best effort: keys are per execution, a rerun overwrites them).
func (p *pass) discardSets() {
	for _, set := range p.sets {
		p.s.discard(transactionInputKey(set.txID))
		p.s.discard(transactionOutputKey(set.txID, p.s.docSuffix))
		for _, f := range set.fragments {
			p.s.discard(f.key)
		}
	}
}

// faultsOf turns the validator's rejecting findings into the file's faults:
// one per fault code, with up to MaxFindingsInMessage findings, one a line.
func faultsOf(rep *x12.Report) []Fault {
	var parse, translate []string
	nParse, nTranslate := 0, 0
	for _, f := range rep.All() {
		if !f.Rejects() {
			continue
		}
		line := describe(f)
		if f.Level() == x12.LevelSegment {
			nTranslate++
			if len(translate) < MaxFindingsInMessage {
				translate = append(translate, line)
			}
			continue
		}
		nParse++
		if len(parse) < MaxFindingsInMessage {
			parse = append(parse, line)
		}
	}
	var out []Fault
	if nParse > 0 {
		out = append(out, Fault{FaultParse, joinFindings(parse, nParse)})
	}
	if nTranslate > 0 {
		out = append(out, Fault{FaultTranslate, joinFindings(translate, nTranslate)})
	}
	return out
}

func joinFindings(lines []string, total int) string {
	if total > len(lines) {
		lines = append(lines, fmt.Sprintf("… and %d more.", total-len(lines)))
	}
	return strings.Join(lines, "\n")
}

// describe says where a finding is and what is wrong, for a person.
func describe(f x12.Finding) string {
	var b strings.Builder
	if f.Line > 0 {
		fmt.Fprintf(&b, "Line %d", f.Line)
		if f.Column > 0 {
			fmt.Fprintf(&b, ", column %d", f.Column)
		}
	} else if f.Offset >= 0 {
		fmt.Fprintf(&b, "Byte %d", f.Offset)
	}
	if f.SegmentID != "" {
		fmt.Fprintf(&b, ", segment %s", f.SegmentID)
		if f.Position > 0 {
			fmt.Fprintf(&b, " (position %d in its transaction set", f.Position)
			if f.LoopID != "" {
				fmt.Fprintf(&b, ", loop %s", f.LoopID)
			}
			b.WriteString(")")
		}
		if f.Element > 0 {
			fmt.Fprintf(&b, ", element %s%02d", f.SegmentID, f.Element)
		}
	}
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	b.WriteString(f.Message)
	// A message may quote the element it is about, which may be megabytes
	// long: the fault (in the execution, its event and every webhook
	// delivery of it) stays small whatever the file holds.
	return findings.Clip(b.String())
}

func (s *Service) recordFailure(ctx context.Context, e store.Execution, p *pass, rep *x12.Report, faults []Fault, ack *ackFile) error {
	now := s.opts.Clock.Now().UTC()
	detail := fileFailedDetail{
		FileExecutionID: e.ID, Direction: store.DirectionInbound, ProcessedAt: timestamp(now),
		Source:       Source{Dirname: e.SourceDirname, Name: e.SourceName},
		Artifacts:    []Artifact{artifact(e.Input.ContentType, "input", s.opts.Events.ExecutionURL(e.ID, "input"), e.Input.Size, "execution")},
		ConnectionID: e.ConnectionID, Errors: faults,
	}
	done := e
	if p != nil && len(p.interchanges) > 0 {
		ic := p.interchanges[0]
		detail.Partnership = inboundPartnership(ic.partnership)
		done.PartnershipID = ic.partnership.ID
		x := &failedX12{}
		x.Metadata.Interchange = InterchangeMeta{AcknowledgmentRequestedCode: ic.ackCode, ControlNumber: controlNumber(ic.control)}
		x.Metadata.Sender.ISA = ISAPart{ic.senderQual, ic.senderID}
		x.Metadata.Receiver.ISA = ISAPart{ic.recvQual, ic.recvID}
		detail.X12 = x
	}
	done.Status, done.ProcessedAt, done.UpdatedAt = store.ExecutionFailed, now, now
	done.FaultCode, done.FaultMessage = faults[0].FaultCode, faults[0].Message
	return s.record(ctx, func(tx store.Queries) error {
		if err := tx.UpdateExecution(ctx, done, store.ExecutionReceived, store.ExecutionProcessing); err != nil {
			return err
		}
		if _, err := s.opts.Events.Emit(ctx, tx, events.Event{AccountID: e.AccountID, Mode: e.Mode, DetailType: events.FileFailed,
			ExecutionID: e.ID, Resources: []string{s.opts.Events.ExecutionURL(e.ID)}, Time: now, Detail: detail}); err != nil {
			return err
		}
		if p != nil {
			// The search rows its pass stored name transactions that will
			// never exist.
			if err := p.deleteValues(ctx, tx); err != nil {
				return err
			}
		}
		return s.recordAck(ctx, tx, ack)
	})
}

func (s *Service) recordSuccess(ctx context.Context, e store.Execution, p *pass, ack *ackFile) error {
	// The metadata document goes to the blob store before the records that
	// point at it.
	mdKey := executionMetadataKey(e.ID)
	w, err := s.opts.Blob.Create(ctx, mdKey, "application/json")
	if err != nil {
		return err
	}
	mdN := countingWriter{w: w}
	if err := p.writeMetadata(&mdN); err != nil {
		w.Abort()
		return err
	}
	if err := w.Commit(); err != nil {
		return err
	}
	now := s.opts.Clock.Now().UTC()
	processedAt := timestamp(now)
	first := p.interchanges[0]
	done := e
	done.Status, done.ProcessedAt, done.UpdatedAt = store.ExecutionCompleted, now, now
	done.PartnershipID, done.TransactionCount = first.partnership.ID, len(p.sets)
	done.Metadata = store.Artifact{Key: mdKey, ContentType: "application/json", Size: mdN.n}
	return s.record(ctx, func(tx store.Queries) error {
		if err := tx.UpdateExecution(ctx, done, store.ExecutionReceived, store.ExecutionProcessing); err != nil {
			return err
		}
		tick := 0 // events of one file get increasing times, so lists keep their order
		at := func() time.Time { tick++; return now.Add(time.Duration(tick) * time.Microsecond) }
		for _, set := range p.sets {
			if err := s.recordSet(ctx, tx, e, set, p.ids, now, processedAt, at); err != nil {
				return err
			}
		}
		_, err := s.opts.Events.Emit(ctx, tx, events.Event{
			AccountID: e.AccountID, Mode: e.Mode, DetailType: events.FileProcessed, ExecutionID: e.ID,
			Resources: []string{s.opts.Events.ExecutionURL(e.ID)}, Time: at(),
			Detail: fileProcessedDetail{FileExecutionID: e.ID, ProcessedAt: processedAt, PartnershipID: first.partnership.ID,
				ConnectionID: e.ConnectionID, Source: Source{Dirname: e.SourceDirname, Name: e.SourceName},
				Artifacts: []Artifact{
					artifact(e.Input.ContentType, "input", s.opts.Events.ExecutionURL(e.ID, "input"), e.Input.Size, "execution"),
					artifact("application/json", "metadata", s.opts.Events.ExecutionURL(e.ID, "metadata"), mdN.n, "execution"),
				}},
		})
		if err != nil {
			return err
		}
		return s.recordAck(ctx, tx, ack)
	})
}

// recordSet stores one transaction and emits its events.
func (s *Service) recordSet(ctx context.Context, tx store.Queries, e store.Execution, set *setResult,
	ids *identifierSpill, now time.Time, processedAt string, at func() time.Time) error {
	ic, g := set.ic, set.grp
	x := X12Detail{
		Metadata: X12Metadata{
			Interchange:     InterchangeMeta{AcknowledgmentRequestedCode: ic.ackCode, ControlNumber: controlNumber(ic.control)},
			FunctionalGroup: &GroupMeta{ControlNumber: controlNumber(g.control), Release: g.release, Date: gsDate(g.date), Time: hhmmss(g.time), FunctionalIdentifierCode: g.functionalID},
			Transaction:     &TransactionMeta{ControlNumber: set.control, TransactionSetIdentifier: set.id},
			Sender:          PartyMeta{ApplicationCode: g.senderCode, ISA: ISAPart{ic.senderQual, ic.senderID}},
			Receiver:        PartyMeta{ApplicationCode: g.recvCode, ISA: ISAPart{ic.recvQual, ic.recvID}},
		},
		TransactionSetting: &SettingRef{GuideID: set.guideID, TransactionSettingID: set.setting.ID},
	}
	var frags *FragmentsInfo
	t := store.Transaction{
		ID: set.txID, AccountID: e.AccountID, Mode: e.Mode, ExecutionID: e.ID, SetIndex: set.index,
		Direction: store.DirectionInbound, Status: store.TransactionSucceeded, TransactionSetID: set.id,
		ControlNumber: set.control, GuideID: set.guideID, PartnershipID: ic.partnership.ID,
		TransactionSettingID: set.setting.ID, Sender: ic.senderQual + "/" + ic.senderID, Receiver: ic.recvQual + "/" + ic.recvID,
		Input:       store.Artifact{Key: transactionInputKey(set.txID), ContentType: "application/edi-x12", Size: set.inputSize},
		Output:      store.Artifact{Key: transactionOutputKey(set.txID, s.docSuffix), ContentType: "application/json", Size: set.outputSize},
		ProcessedAt: now, CreatedAt: now,
	}
	artifacts := []Artifact{
		artifact("application/edi-x12", "input", s.opts.Events.TransactionURL(t.ID, "input"), t.Input.Size, "transaction"),
		artifact("application/json", "output", s.opts.Events.TransactionURL(t.ID, "output"), t.Output.Size, "transaction"),
	}
	if set.passThrough { // no guide, so no Guide JSON
		t.Output, artifacts = store.Artifact{}, artifacts[:1]
	}
	if set.fragmentsOn {
		frags = &FragmentsInfo{BatchSize: batchSize(set.setting), FragmentCount: len(set.fragments), KeyName: set.setting.FragmentsKeyName}
		t.FragmentCount, t.FragmentBatchSize, t.FragmentKeyName = frags.FragmentCount, frags.BatchSize, frags.KeyName
		for i, f := range set.fragments {
			t.Fragments = append(t.Fragments, store.Fragment{Index: i, Output: store.Artifact{Key: f.key, ContentType: "application/json", Size: f.size}})
		}
	}
	partnership := inboundPartnership(ic.partnership)
	var err error
	if t.Detail, err = jsonBytes(TransactionRecord{Partnership: partnership, X12: x, Fragments: frags}); err != nil {
		return err
	}
	if err := tx.InsertTransaction(ctx, t); err != nil {
		return err
	}
	// The identifiers are stored a batch at a time from the spill; the hook
	// sees the first HookIdentifiers of each element.
	stored, perElement := 0, map[string]int{}
	err = ids.batches(set.index, func(batch []store.BusinessIdentifier) error {
		// The search rows are stored (the pass's valueSink): the runs remain.
		if err := tx.InsertIdentifierRuns(ctx, t.ID, stored, batch); err != nil {
			return err
		}
		stored += len(batch)
		for _, id := range batch {
			if perElement[id.Element] < HookIdentifiers {
				perElement[id.Element]++
				t.Identifiers = append(t.Identifiers, id)
			}
		}
		return nil
	})
	if err != nil {
		return err
	}
	if s.opts.Inbound != nil {
		if err := s.opts.Inbound(ctx, tx, t); err != nil {
			return err
		}
	}
	resources := []string{s.opts.Events.TransactionURL(t.ID)}
	_, err = s.opts.Events.Emit(ctx, tx, events.Event{
		AccountID: e.AccountID, Mode: e.Mode, DetailType: events.TransactionProcessed, ExecutionID: e.ID, TransactionID: t.ID,
		Resources: resources, Time: at(),
		Detail: transactionDetail{TransactionID: t.ID, Direction: t.Direction, Mode: e.Mode, FileExecutionID: e.ID,
			ProcessedAt: processedAt, Fragments: frags, Partnership: partnership, X12: x, ConnectionID: e.ConnectionID,
			Artifacts: artifacts},
	})
	if err != nil {
		return err
	}
	for i, f := range set.fragments {
		_, err := s.opts.Events.Emit(ctx, tx, events.Event{
			AccountID: e.AccountID, Mode: e.Mode, DetailType: events.FragmentProcessed, ExecutionID: e.ID, TransactionID: t.ID,
			Resources: resources, Time: at(),
			Detail: fragmentDetail{FileExecutionID: e.ID, TransactionID: t.ID, Direction: t.Direction, Mode: e.Mode,
				ProcessedAt: processedAt, Fragments: *frags, FragmentIndex: i, Partnership: partnership, X12: x,
				Artifacts: []Artifact{artifact("application/json", "output", s.opts.Events.TransactionURL(t.ID, "fragments", fmt.Sprint(i), "output"), f.size, "fragment")}},
		})
		if err != nil {
			return err
		}
	}
	return nil
}

func batchSize(s store.TransactionSetting) int {
	if s.FragmentsBatchSize > 0 {
		return s.FragmentsBatchSize
	}
	return store.DefaultFragmentsBatchSize
}

func jsonBytes(v any) ([]byte, error) {
	var b bytes.Buffer
	if err := jsonEncode(&b, v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}

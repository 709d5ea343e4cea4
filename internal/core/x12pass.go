package core

import (
	"bufio"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// pass reads one inbound X12 file once: x12.Validate checks the envelopes
// and hands every transaction set to the pass (it is the x12.SetValidator),
// which validates it against its guide while writing its Guide JSON, its
// enveloped EDI and its fragments to the blob store. The pass decides
// nothing durable: process records its outcome.
type pass struct {
	ctx   context.Context
	s     *Service
	e     store.Execution
	blobs *writeQueue // the blob store, written beside the pass

	// envelope state
	ic  *interchange
	grp *group
	set *setRun

	interchanges []*interchange
	sets         []*setResult
	nsets        int
	// commits are the outcomes of the finished sets' blobs committing in
	// the background (queuedWriter.commitAsync).
	commits []<-chan error
	ids     *identifierSpill
	vals    *valueSink // the identifiers' search rows, stored beside the pass

	// settings are the inbound transaction settings the file's sets found,
	// by partnership, ST01 and guide version (settingKey): a file of sets of
	// 1,000 claims asked the database 321 times for the same row, and each
	// read waited for the WAL to be durable behind the identifiers' batches.
	settings map[settingKey]settingFound

	// faults that stop the file (configuration, limits); findings of the
	// validator are read from the report afterwards.
	faults []Fault
	stop   error // why reading stopped early (a fault or a storage error)
}

type settingKey struct{ partnership, id, version string }

type settingFound struct {
	setting store.TransactionSetting
	err     error // nil or store.ErrNotFound
}

// transactionSetting is Partners.FindTransactionSetting, asked once per
// file for each partnership, set and guide version: every set of the file
// is processed with the setting its first such set found.
func (p *pass) transactionSetting(partnership, id, version string) (store.TransactionSetting, error) {
	k := settingKey{partnership, id, version}
	if f, ok := p.settings[k]; ok {
		return f.setting, f.err
	}
	setting, err := p.s.opts.Partners.FindTransactionSetting(p.ctx, p.e.AccountID, p.e.Mode, partnership,
		store.DirectionInbound, id, version)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return setting, err // a storage error is not kept
	}
	if p.settings == nil {
		p.settings = map[settingKey]settingFound{}
	}
	p.settings[k] = settingFound{setting, err}
	return setting, err
}

// errStop makes the reader end the pass early.
var errStop = errors.New("core: processing stopped")

type interchange struct {
	raw        string
	ieaRaw     string
	d          x12.Delimiters
	start, end int64
	senderQual string
	senderID   string // ISA06 trimmed, for matching
	recvQual   string
	recvID     string // ISA08 trimmed, for matching
	// ISA06 and ISA08 as sent (space-padded), for the metadata document.
	sentSenderID, sentRecvID string
	date, time               string
	version                  string
	control                  string
	ackCode                  string
	usage                    string
	ieaGroups                string
	ieaControl               string
	partnership              store.Partnership
	groups                   []*group
}

type group struct {
	raw, geRaw           string
	start, end           int64
	functionalID         string
	senderCode, recvCode string
	date, time           string
	control              string
	agency, release      string
	geSets, geControl    string
	sets                 []*setResult
}

// setRun is the set being read.
type setRun struct {
	res      *setResult
	g        *guide.Guide
	enc      *guide.JSONEncoder
	input    blob.Writer
	inputBuf *bufio.Writer // segments are small: write the blob in large pieces
	inputN   countingWriter
	output   blob.Writer
	outputN  countingWriter
	frag     *fragmenter
	segments int
}

// setResult is what a set left: the future transaction record.
type setResult struct {
	index       int
	txID        string
	ic          *interchange
	grp         *group
	id          string // ST01
	control     string // ST02
	reference   string // ST03
	guideID     string
	setting     store.TransactionSetting
	inputSize   int64
	outputSize  int64
	fragments   []fragmentResult
	start, end  int64
	seCount     string
	seControl   string
	fragmentsOn bool
	passThrough bool // no guide: stored as X12, no Guide JSON output
}

// transactionID is derived from the execution and the set's position, so
// a rerun after a crash writes the same blob keys and records.
func transactionID(executionID string, index int) string {
	sum := sha256.Sum256([]byte(fmt.Sprintf("%s/set/%d", executionID, index)))
	var b [16]byte
	copy(b[:], sum[:16])
	return store.FormatUUID(b, 5)
}

// newPass starts a pass over e.
func (s *Service) newPass(ctx context.Context, e store.Execution) (*pass, error) {
	ids, err := newIdentifierSpill()
	if err != nil {
		return nil, err
	}
	return &pass{ctx: ctx, s: s, e: e, blobs: newWriteQueue(s.opts.Blob), ids: ids,
		vals: newValueSink(ctx, s.opts.Store)}, nil
}

func (p *pass) close() {
	p.ids.close()
	if p.set != nil {
		p.abortSet()
	}
	p.committed()
	p.vals.close()
	p.blobs.close()
}

// committed waits for the blobs of the finished sets that commit in the
// background, and for them to be durable, and returns the first error.
func (p *pass) committed() error {
	err := waitCommits(p.commits)
	p.commits = p.commits[:0]
	if serr := p.blobs.sync(); err == nil {
		err = serr
	}
	return err
}

// run reads the file and returns the validator's report.
func (p *pass) run(src io.Reader) (*x12.Report, error) {
	rep, err := x12.Validate(&stopReader{r: src, p: p}, x12.ValidateOptions{Sets: p, OnSegment: p.segment})
	if p.set != nil {
		p.abortSet()
	}
	if cerr := p.committed(); cerr != nil {
		p.storageError(cerr)
	}
	if verr := p.vals.close(); verr != nil {
		p.storageError(verr)
	}
	if errors.Is(err, errStop) {
		err = nil
	}
	if err == nil && p.stop != nil && !errors.Is(p.stop, errStop) {
		err = p.stop
	}
	return rep, err
}

// stopReader ends the input once the pass has stopped.
type stopReader struct {
	r io.Reader
	p *pass
}

func (s *stopReader) Read(b []byte) (int, error) {
	if s.p.stop != nil {
		return 0, errStop
	}
	return s.r.Read(b)
}

// fail records a fault that decides the file's failure and stops reading.
func (p *pass) fail(code, format string, args ...any) {
	p.faults = append(p.faults, Fault{FaultCode: code, Message: fmt.Sprintf(format, args...)})
	if p.stop == nil {
		p.stop = errStop
	}
}

// storageError stops the pass for an error that is not the file's fault
// (the job retries).
func (p *pass) storageError(err error) {
	if p.stop == nil || errors.Is(p.stop, errStop) {
		p.stop = err
	}
}

// segment sees every segment (x12.ValidateOptions.OnSegment).
func (p *pass) segment(seg *x12.Segment) {
	if p.stop != nil {
		return
	}
	switch string(seg.IDBytes()) {
	case "ISA":
		p.beginInterchange(seg)
	case "IEA":
		if p.ic != nil {
			p.ic.ieaRaw, p.ic.end = string(seg.Raw()), seg.End()
			p.ic.ieaGroups, p.ic.ieaControl = seg.Element(1), seg.Element(2)
			p.ic = nil
		}
	case "GS":
		p.beginGroup(seg)
	case "GE":
		if p.grp != nil {
			p.grp.geRaw, p.grp.end = string(seg.Raw()), seg.End()
			p.grp.geSets, p.grp.geControl = seg.Element(1), seg.Element(2)
			p.grp = nil
		}
	}
}

func (p *pass) beginInterchange(seg *x12.Segment) {
	ic := &interchange{
		raw: string(seg.Raw()), d: seg.Delimiters(), start: seg.Offset(),
		senderQual: strings.TrimSpace(seg.Element(5)), senderID: strings.TrimSpace(seg.Element(6)),
		recvQual: strings.TrimSpace(seg.Element(7)), recvID: strings.TrimSpace(seg.Element(8)),
		sentSenderID: seg.Element(6), sentRecvID: seg.Element(8),
		date: seg.Element(9), time: seg.Element(10), version: seg.Element(12), control: seg.Element(13),
		ackCode: seg.Element(14), usage: seg.Element(15),
	}
	p.ic, p.grp = ic, nil
	p.interchanges = append(p.interchanges, ic)
	switch {
	case ic.senderID == "":
		p.fail(FaultMissingSenderID, "The interchange at byte %d has no sender id (ISA06).", ic.start)
		return
	case ic.recvID == "":
		p.fail(FaultMissingReceiverID, "The interchange at byte %d has no receiver id (ISA08).", ic.start)
		return
	}
	pt, err := p.s.opts.Partners.FindPartnershipByInterchange(p.ctx, p.e.AccountID, p.e.Mode,
		ic.senderQual, ic.senderID, ic.recvQual, ic.recvID)
	switch {
	case errors.Is(err, store.ErrNotFound):
		p.fail(FaultFindPartnership, "No %s partnership has partner profile ISA %s/%s (sender, ISA05/ISA06) and local profile ISA %s/%s (receiver, ISA07/ISA08). "+
			"Add the profiles and a partnership (clearhouse partners apply, or /2023-08-01/x12/partnerships), then send the file again.",
			p.e.Mode, ic.senderQual, ic.senderID, ic.recvQual, ic.recvID)
	case err != nil:
		p.storageError(err)
	default:
		ic.partnership = pt
	}
}

func (p *pass) beginGroup(seg *x12.Segment) {
	g := &group{raw: string(seg.Raw()), start: seg.Offset(), functionalID: seg.Element(1),
		senderCode: seg.Element(2), recvCode: seg.Element(3), date: seg.Element(4), time: seg.Element(5),
		control: seg.Element(6), agency: seg.Element(7), release: seg.Element(8)}
	p.grp = g
	if p.ic != nil {
		p.ic.groups = append(p.ic.groups, g)
	}
}

// BeginSet implements x12.SetValidator: find the guide and the setting,
// open the set's outputs.
func (p *pass) BeginSet(h x12.SetHeader, report func(x12.Finding)) {
	if p.stop != nil {
		return
	}
	if p.ic == nil || p.grp == nil {
		return // the envelope validator reports the missing ISA or GS
	}
	if p.nsets >= MaxTransactionSets {
		p.fail(FaultNotSupported, "The file holds more than %d transaction sets; split it into smaller files.", MaxTransactionSets)
		return
	}
	g, ok := guide.For(h.GroupVersion, h.ID, h.ImplementationRef)
	version := h.ImplementationRef
	if version == "" {
		version = h.GroupVersion
	}
	if !ok {
		p.beginUnguidedSet(h, version)
		return
	}
	setting, err := p.transactionSetting(p.ic.partnership.ID, h.ID, g.Version)
	switch {
	case errors.Is(err, store.ErrNotFound):
		p.fail(FaultInvalidConfig, "Partnership %s has no inbound transaction setting for %s (%s). "+
			"Add one (clearhouse partners apply, or POST /2023-08-01/x12/partnerships/%s/inbound-transactions), then send the file again.",
			p.ic.partnership.ID, h.ID, g.Version, p.ic.partnership.ID)
		return
	case err != nil:
		p.storageError(err)
		return
	}
	run := p.newSetRun(h, setting, g)
	res := run.res
	run.enc = guide.NewJSONEncoder(&run.outputN) // writes once the blobs are open below
	run.enc.SetValidation(guide.Options{}, report)
	if setting.FragmentsEnabled {
		size := setting.FragmentsBatchSize
		if size <= 0 {
			size = store.DefaultFragmentsBatchSize
		}
		if !hasLoop(g, setting.FragmentsKeyName) {
			p.fail(FaultInvalidConfig, "Transaction setting %s enables fragments on %q, which is not a loop of guide %s (%s). "+
				"Set fragments.keyName to a repeating loop's Guide JSON key, such as %q.",
				setting.ID, setting.FragmentsKeyName, g.Version, g.ID, exampleLoopKey(g))
			return
		}
		res.fragmentsOn = true
		run.frag = newFragmenter(p.ctx, p.blobs, g, run.enc, res.txID, p.s.docSuffix, setting.FragmentsKeyName, size)
	}
	if run.input, err = p.blobs.Create(p.ctx, transactionInputKey(res.txID), "application/edi-x12"); err != nil {
		p.storageError(err)
		return
	}
	if run.output, err = p.blobs.Create(p.ctx, transactionOutputKey(res.txID, p.s.docSuffix), "application/json"); err != nil {
		run.input.Abort()
		p.storageError(err)
		return
	}
	p.startSet(run)
}

func (p *pass) newSetRun(h x12.SetHeader, setting store.TransactionSetting, g *guide.Guide) *setRun {
	res := &setResult{index: p.nsets, txID: transactionID(p.e.ID, p.nsets), ic: p.ic, grp: p.grp,
		id: h.ID, control: h.ControlNumber, reference: h.ImplementationRef, setting: setting, start: h.Offset}
	if g != nil {
		res.guideID = g.Version
	}
	p.nsets++
	return &setRun{res: res, g: g}
}

// startSet makes run the open set once its blobs exist and writes the
// envelope its input starts with: the ISA and GS it came in.
func (p *pass) startSet(run *setRun) {
	run.inputBuf = bufio.NewWriterSize(run.input, 256<<10)
	run.inputN.w = run.inputBuf
	if run.output != nil {
		run.outputN.w = run.output
	}
	p.set = run
	p.writeInput(p.ic.raw)
	p.writeInput(p.grp.raw)
}

// beginUnguidedSet handles a set no embedded guide matches: it can be
// neither validated nor translated, so it fails the file, unless the
// partnership's inbound setting for its ST01 passes such sets through; then
// it is stored as its X12 alone (a transaction with no Guide JSON output).
func (p *pass) beginUnguidedSet(h x12.SetHeader, version string) {
	setting, err := p.transactionSetting(p.ic.partnership.ID, h.ID, "")
	switch {
	case err != nil && !errors.Is(err, store.ErrNotFound):
		p.storageError(err)
		return
	case err != nil || !setting.PassThrough:
		p.fail(FaultUnsupportedTransaction, "Transaction set %s (ST02 %s) at byte %d names %s %s, which Clearhouse has no implementation guide for, "+
			"so it can be neither checked nor translated. Supported: %s. To store such sets untranslated, add an inbound %s setting with "+
			"passThrough true (and no guideId) to partnership %s.",
			h.ID, h.ControlNumber, h.Offset, h.ID, version, supportedGuides(), h.ID, p.ic.partnership.ID)
		return
	}
	run := p.newSetRun(h, setting, nil)
	if run.input, err = p.blobs.Create(p.ctx, transactionInputKey(run.res.txID), "application/edi-x12"); err != nil {
		p.storageError(err)
		return
	}
	run.res.passThrough = true
	p.startSet(run)
}

func (p *pass) writeInput(raw string) {
	run := p.set
	run.inputN.Write([]byte(raw))
	run.inputN.Write([]byte{p.ic.d.Segment})
}

// Segment implements x12.SetValidator.
func (p *pass) Segment(seg *x12.Segment, position int, report func(x12.Finding)) {
	run := p.set
	if run == nil || p.stop != nil {
		return
	}
	run.segments++
	run.inputN.Write(seg.Raw())
	run.inputN.Write([]byte{seg.Delimiters().Segment})
	if run.g == nil { // passed through: stored, not translated
		p.noteSE(run, seg)
		return
	}
	var step guide.Step
	if position == 1 {
		run.enc.Begin(run.g, seg)
		if run.frag != nil {
			if err := run.frag.begin(seg); err != nil {
				p.fail(FaultTranslate, "Transaction set %s (ST02 %s): %v.", run.res.id, run.res.control, err)
			}
		}
		return
	}
	run.enc.Segment(seg)
	step = run.enc.LastStep()
	if id, ok, err := p.ids.add(run.res.index, seg, step.Segment); err != nil {
		p.storageError(err)
		return
	} else if ok {
		if err := p.vals.add(run.res.txID, id); err != nil {
			p.storageError(err)
			return
		}
	}
	if run.frag != nil {
		if err := run.frag.segment(seg, step); err != nil {
			p.fail(FaultTranslate, "Transaction set %s (ST02 %s), fragments of %s: %v.", run.res.id, run.res.control, run.frag.keyName, err)
		}
	}
	p.noteSE(run, seg)
}

func (p *pass) noteSE(run *setRun, seg *x12.Segment) {
	if string(seg.IDBytes()) == "SE" {
		run.res.seCount, run.res.seControl = seg.Element(1), seg.Element(2)
		run.res.end = seg.End()
	}
}

// EndSet implements x12.SetValidator: close and store the set's outputs.
func (p *pass) EndSet(report func(x12.Finding)) {
	run := p.set
	if run == nil {
		return
	}
	if p.stop != nil {
		p.abortSet()
		return
	}
	if run.enc != nil {
		run.enc.End()
		if err := run.enc.Flush(); err != nil {
			p.storageError(err)
			p.abortSet()
			return
		}
	}
	ge := fmt.Sprintf("GE%c1%c%s", p.ic.d.Element, p.ic.d.Element, p.grp.control)
	iea := fmt.Sprintf("IEA%c1%c%s", p.ic.d.Element, p.ic.d.Element, p.ic.control)
	p.writeInput(ge)
	p.writeInput(iea)
	if run.inputN.err == nil {
		run.inputN.err = run.inputBuf.Flush()
	}
	if run.inputN.err != nil {
		p.storageError(run.inputN.err)
		p.abortSet()
		return
	}
	if run.frag != nil {
		frags, commits, err := run.frag.end()
		if err != nil {
			p.storageError(err)
			p.abortSet()
			return
		}
		run.res.fragments = frags
		p.commits = append(p.commits, commits...)
	}
	// The set's blobs commit (fsync, rename, directory fsync) beside the
	// next set's pass; run waits for every one before it returns, so no
	// record names a blob before it is durable.
	for _, w := range []blob.Writer{run.input, run.output} {
		if w == nil {
			continue
		}
		if qw, ok := w.(*queuedWriter); ok {
			p.commits = append(p.commits, qw.commitAsync())
			continue
		}
		if err := w.Commit(); err != nil {
			p.storageError(err)
			p.abortSet()
			return
		}
	}
	run.res.inputSize, run.res.outputSize = run.inputN.n, run.outputN.n
	if run.res.end == 0 {
		run.res.end = run.res.start
	}
	p.sets = append(p.sets, run.res)
	p.grp.sets = append(p.grp.sets, run.res)
	p.set = nil
}

func (p *pass) abortSet() {
	run := p.set
	p.set = nil
	run.input.Abort()
	if run.output != nil {
		run.output.Abort()
	}
	if run.frag != nil {
		run.frag.abort()
	}
}

func supportedGuides() string {
	var out []string
	for _, g := range guide.Guides() {
		out = append(out, g.Transaction+" "+g.Version)
	}
	return strings.Join(out, ", ")
}

// exampleLoopKey names a repeating loop of g, for messages.
func exampleLoopKey(g *guide.Guide) string {
	var found string
	var walk func(l *guide.Loop)
	walk = func(l *guide.Loop) {
		for _, c := range l.Children {
			if c.Loop == nil || found != "" {
				continue
			}
			if c.Loop.Max != 1 && strings.Contains(c.Loop.Key, "CL") {
				found = c.Loop.Key
				return
			}
			walk(c.Loop)
		}
	}
	walk(g.Root())
	if found == "" {
		return g.Root().Key
	}
	return found
}

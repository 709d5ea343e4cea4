package core

import (
	"bytes"
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/events"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// Fragments cuts the Guide JSON of one transaction set made outside the
// inbound path (an outbound claim's 837D) into the fragments its transaction
// setting enables, the same way the inbound path does: feed it each segment
// right after the encoder that writes the set's Guide JSON took it, with
// that encoder's step.
type Fragments struct {
	f    *fragmenter
	info FragmentsInfo
}

// NewFragments returns the fragmenter of transaction txID under setting s,
// or nil when s does not enable fragments; main is the encoder of the set's
// Guide JSON. It fails when the setting's keyName is not a loop of g.
func NewFragments(ctx context.Context, blobs blob.Store, g *guide.Guide, main *guide.JSONEncoder, txID string, s store.TransactionSetting) (*Fragments, error) {
	if !s.FragmentsEnabled {
		return nil, nil
	}
	if !hasLoop(g, s.FragmentsKeyName) {
		return nil, fmt.Errorf("transaction setting %s enables fragments on %q, which is not a loop of guide %s; set fragments.keyName to a repeating loop's Guide JSON key, such as %q",
			s.ID, s.FragmentsKeyName, g.Version, exampleLoopKey(g))
	}
	size := batchSize(s)
	// A claim's fragments are small (one claim's Guide JSON): stored as
	// they are, without the inbound path's compression.
	return &Fragments{f: newFragmenter(ctx, freshKeys{blobs}, g, main, txID, "", s.FragmentsKeyName, size),
		info: FragmentsInfo{BatchSize: size, KeyName: s.FragmentsKeyName}}, nil
}

// Begin takes the set's ST.
func (f *Fragments) Begin(st *x12.Segment) error { return f.f.begin(st) }

// Segment takes the next segment and the step the encoder placed it with
// (guide.JSONEncoder.LastStep).
func (f *Fragments) Segment(seg *x12.Segment, step guide.Step) error { return f.f.segment(seg, step) }

// End stores the last fragment and returns them all, for the transaction
// record.
func (f *Fragments) End() ([]store.Fragment, error) {
	res, commits, err := f.f.end()
	if err != nil {
		return nil, err
	}
	f.f.commits = commits // none without a writeQueue; waited for all the same
	if err := f.f.committed(); err != nil {
		return nil, err
	}
	out := make([]store.Fragment, len(res))
	for i, r := range res {
		out[i] = store.Fragment{Index: i, Output: store.Artifact{Key: r.key, ContentType: "application/json", Size: r.size}}
	}
	f.info.FragmentCount = len(out)
	return out, nil
}

// Abort discards the fragment being written and returns the keys of those
// already stored, for the caller to delete when it records no transaction.
func (f *Fragments) Abort() []string {
	f.f.abort()
	keys := make([]string, len(f.f.results))
	for i, r := range f.f.results {
		keys[i] = r.key
	}
	return keys
}

// Info is the transaction's fragments object (after End).
func (f *Fragments) Info() *FragmentsInfo {
	info := f.info
	return &info
}

// FragmentEvent is the fragment.processed.v2 event of fragment i of t, whose
// transaction.processed.v2 has partnership ship and x12 x (spec §6: one per
// fragment, inbound or outbound).
func FragmentEvent(em *events.Emitter, t store.Transaction, info FragmentsInfo, i int, ship *PartnershipRef, x X12Detail, at time.Time) events.Event {
	out := em.TransactionURL(t.ID, "fragments", strconv.Itoa(i), "output")
	return events.Event{AccountID: t.AccountID, Mode: t.Mode, DetailType: events.FragmentProcessed, ExecutionID: t.ExecutionID,
		TransactionID: t.ID, Resources: []string{em.TransactionURL(t.ID)}, Time: at,
		Detail: fragmentDetail{FileExecutionID: t.ExecutionID, TransactionID: t.ID, Direction: t.Direction, Mode: t.Mode,
			ProcessedAt: timestamp(at), Fragments: info, FragmentIndex: i, Partnership: ship, X12: x,
			Artifacts: []Artifact{artifact("application/json", "output", out, t.Fragments[i].Output.Size, "fragment")}}}
}

// freshKeys writes each fragment of an outbound transaction with
// blob.PutNew: its key is new and recorded only after End, and a claim's
// fragments are small, so each is kept in memory and stored in one create
// instead of a temporary file renamed into place.
type freshKeys struct{ blob.Store }

func (s freshKeys) Create(ctx context.Context, key, contentType string) (blob.Writer, error) {
	return &freshWriter{ctx: ctx, s: s.Store, key: key, contentType: contentType}, nil
}

type freshWriter struct {
	ctx              context.Context
	s                blob.Store
	key, contentType string
	buf              bytes.Buffer
	done             bool
}

func (w *freshWriter) Write(p []byte) (int, error) { return w.buf.Write(p) }

func (w *freshWriter) Commit() error {
	if w.done {
		return fmt.Errorf("blob: put %s: already finished", w.key)
	}
	w.done = true
	return blob.PutNew(w.ctx, w.s, w.key, w.buf.Bytes(), w.contentType)
}

func (w *freshWriter) Abort() { w.done = true }

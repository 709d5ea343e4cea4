// Package audit keeps the access audit (HIPAA's audit controls, 45 CFR
// 164.312(b)): who — an API key or a console session's key, with the
// caller's address — did what (read, list, create, download, retry, revoke,
// export) to which PHI-bearing resource (an eligibility check, a claim, a
// file, a transaction, a report, a PDF, an event), in which account and
// mode, when, and with what answer. It records ids and names only, never
// the PHI itself.
//
// Events are appended to one chain per account: each carries
// sha256(previous hash || its canonical form), so changing, removing or
// reordering an event breaks every hash after it (Verify). An event is
// committed before the answer it describes leaves the server (see Wrap),
// with the same durability as every other record.
package audit

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/jsonstr"
	"github.com/clearhouse/clearhouse/internal/store"
)

// Actions.
const (
	ActionRead     = "read"
	ActionList     = "list"
	ActionCreate   = "create"
	ActionDownload = "download"
	ActionRetry    = "retry"
	ActionRevoke   = "revoke"
	ActionExport   = "export"
)

// Actions lists every action (for filters).
var Actions = []string{ActionRead, ActionList, ActionCreate, ActionDownload, ActionRetry, ActionRevoke, ActionExport}

// Resource types.
const (
	ResourceEligibilityCheck = "eligibility_check"
	ResourceClaim            = "claim"
	ResourceFile             = "file"
	ResourceTransaction      = "transaction"
	ResourceReport           = "report"
	ResourcePDF              = "pdf"
	ResourceEvent            = "event"
	ResourceAPIKey           = "api_key"
	ResourceAuditLog         = "audit_log"
)

// ResourceTypes lists every resource type (for filters).
var ResourceTypes = []string{ResourceEligibilityCheck, ResourceClaim, ResourceFile, ResourceTransaction, ResourceReport,
	ResourcePDF, ResourceEvent, ResourceAPIKey, ResourceAuditLog}

// Actor types.
const (
	ActorAPIKey  = "api_key"
	ActorConsole = "console"
	ActorCLI     = "cli"
)

// Entry is what a caller records; the Recorder adds the id, time, place in
// the chain and hashes.
type Entry struct {
	AccountID    string
	Mode         string
	ActorType    string
	ActorID      string
	RemoteAddr   string
	Action       string
	ResourceType string
	ResourceID   string
	Route        string
	Status       int
}

// Recorder appends entries to the accounts' chains.
type Recorder struct {
	store store.Store
	clock clock.Clock
}

// New returns a Recorder on st (clk nil: the system clock).
func New(st store.Store, clk clock.Clock) *Recorder {
	if clk == nil {
		clk = clock.System{}
	}
	return &Recorder{store: st, clock: clk}
}

// Record commits e to its account's chain and returns the stored event.
// On SQLite records arriving together share one commit (GroupInTx).
func (r *Recorder) Record(ctx context.Context, e Entry) (store.AuditEvent, error) {
	var out store.AuditEvent
	err := r.store.GroupInTx(ctx, func(tx store.Queries) error {
		var err error
		out, err = r.RecordTx(ctx, tx, e)
		return err
	})
	return out, err
}

// RecordTx appends e inside the caller's transaction, so the event commits
// (or not) with the change it describes.
func (r *Recorder) RecordTx(ctx context.Context, tx store.Queries, e Entry) (store.AuditEvent, error) {
	if e.AccountID == "" || e.Action == "" || e.ResourceType == "" {
		return store.AuditEvent{}, errors.New("audit: an entry needs an account, an action and a resource type")
	}
	seq, prev, err := tx.LockAuditChain(ctx, e.AccountID)
	if err != nil {
		return store.AuditEvent{}, fmt.Errorf("audit: lock the chain: %w", err)
	}
	ev := store.AuditEvent{ID: store.NewID(), AccountID: e.AccountID, Seq: seq + 1, Mode: e.Mode,
		ActorType: e.ActorType, ActorID: e.ActorID, RemoteAddr: e.RemoteAddr, Action: e.Action,
		ResourceType: e.ResourceType, ResourceID: e.ResourceID, Route: e.Route, Status: e.Status,
		At: r.clock.Now().UTC().Truncate(time.Microsecond), PrevHash: prev}
	ev.Hash = Hash(prev, ev)
	if err := tx.AppendAuditEvent(ctx, ev); err != nil {
		return store.AuditEvent{}, fmt.Errorf("audit: append: %w", err)
	}
	return ev, nil
}

// Canonical is the event's content in the one form its hash covers: a JSON
// array of every field but the hashes, in a fixed order, the time in UTC
// microseconds — the bytes json.Marshal gives for
//
//	[]any{e.ID, e.AccountID, e.Seq, e.Mode, e.ActorType, e.ActorID, e.RemoteAddr, e.Action,
//		e.ResourceType, e.ResourceID, e.Route, e.Status, e.At.UTC().UnixMicro()}
//
// written without reflection, since every access appends one
// (TestCanonicalIsMarshal holds the two to the same bytes).
func Canonical(e store.AuditEvent) []byte {
	return appendCanonical(make([]byte, 0, 256), e)
}

func appendCanonical(b []byte, e store.AuditEvent) []byte {
	b = append(b, '[')
	for i, s := range [...]string{e.ID, e.AccountID} {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsonstr.Append(b, s, true)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, e.Seq, 10)
	for _, s := range [...]string{e.Mode, e.ActorType, e.ActorID, e.RemoteAddr, e.Action, e.ResourceType, e.ResourceID, e.Route} {
		b = append(b, ',')
		b = jsonstr.Append(b, s, true)
	}
	b = append(b, ',')
	b = strconv.AppendInt(b, int64(e.Status), 10)
	b = append(b, ',')
	b = strconv.AppendInt(b, e.At.UTC().UnixMicro(), 10)
	return append(b, ']')
}

// Hash is hex(sha256(prev || Canonical(e))).
func Hash(prev string, e store.AuditEvent) string {
	var buf [512]byte
	b := append(buf[:0], prev...)
	sum := sha256.Sum256(appendCanonical(b, e))
	return hex.EncodeToString(sum[:])
}

// BrokenChain reports where an account's chain stops being what it was.
type BrokenChain struct {
	AccountID string
	Seq       int64
	Reason    string
}

func (b *BrokenChain) Error() string {
	return fmt.Sprintf("audit: the chain of account %s is broken at event %d: %s", b.AccountID, b.Seq, b.Reason)
}

// Verify walks an account's chain from its first event: every sequence
// number follows the last, every event names the previous hash and hashes
// to its own, and the chain ends at the head. It returns the number of
// events checked, or a *BrokenChain.
func Verify(ctx context.Context, st store.Store, accountID string) (int64, error) {
	var n int64
	prev := ""
	err := st.ScanAuditChain(ctx, accountID, func(e store.AuditEvent) error {
		n++
		switch {
		case e.Seq != n:
			return &BrokenChain{accountID, n, fmt.Sprintf("event %d follows event %d (events removed or reordered)", e.Seq, n-1)}
		case e.PrevHash != prev:
			return &BrokenChain{accountID, n, "it does not name the hash of the event before it"}
		case Hash(prev, e) != e.Hash:
			return &BrokenChain{accountID, n, "its content does not match its hash (the event was changed)"}
		}
		prev = e.Hash
		return nil
	})
	if err != nil {
		return n, err
	}
	heads, err := st.AuditChains(ctx)
	if err != nil {
		return n, err
	}
	for _, h := range heads {
		if h.AccountID == accountID && (h.Seq != n || h.Hash != prev) {
			return n, &BrokenChain{accountID, n + 1, fmt.Sprintf("the chain's head says %d events ending in %.12s…, the table holds %d (events removed at the end)", h.Seq, h.Hash, n)}
		}
	}
	return n, nil
}

package audit

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// A handler that commits its own transaction (an eligibility check, a
// claim) can put the request's audit entry into it: one commit instead of
// the record's and then the entry's, and the entry exists exactly when the
// record does. Wrap offers the entry through the request's context (Join);
// the handler records it in its transaction with the status and id it is
// about to answer and says whether the transaction committed. Wrap then
// skips its own commit if the answer is the one recorded, and records as
// usual otherwise (a failed commit answered 503, a different status): an
// entry is never lost, at worst there is a second one.

type joinKey struct{}

// Joined is the audit entry of the request being served, offered to the
// handler's transaction. A nil *Joined (no audited request) does nothing.
type Joined struct {
	a        *auditWriter
	status   int
	id       string
	inTx     bool // recorded in the handler's transaction, not yet known committed
	recorded bool // that transaction committed
}

// Join returns the request's audit entry to record in the handler's own
// transaction, or nil when the request is not audited.
func Join(ctx context.Context) *Joined {
	j, _ := ctx.Value(joinKey{}).(*Joined)
	if j == nil || j.recorded {
		return nil
	}
	return j
}

// Record appends the entry, answered with status for resourceID, inside tx.
func (j *Joined) Record(ctx context.Context, tx store.Queries, status int, resourceID string) error {
	if j == nil {
		return nil
	}
	e := j.a.entry
	e.Status, e.ResourceID = status, resourceID
	if _, err := j.a.rec.RecordTx(ctx, tx, e); err != nil {
		return err
	}
	j.status, j.id, j.inTx = status, resourceID, true
	return nil
}

// Committed says whether the transaction Record ran in has committed.
func (j *Joined) Committed(ok bool) {
	if j == nil {
		return
	}
	j.recorded = ok && j.inTx
	j.inTx = false
}

// covers reports whether the entry committed by the handler is the one
// Wrap would record for the answer it is sending.
func (j *Joined) covers(status int, resourceID string) bool {
	return j != nil && j.recorded && j.status == status && j.id == resourceID
}

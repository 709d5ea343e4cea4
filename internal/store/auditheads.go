package store

// auditHeads are the ends of the audit chains a SQLite transaction has
// moved and not yet written to audit_heads. In a group commit's round
// every check appends to its account's chain; reading the head back and
// rewriting it for each (a SELECT and an UPDATE per check) gives way to
// one read per account and round and one UPDATE before the COMMIT
// (queries.writeHeads). The heads follow the round's savepoints: what a
// caller moved is kept when its savepoint is released and dropped when it
// is rolled back. SQLite only: its single writer holds every chain for the
// whole transaction. On PostgreSQL (nil) each append writes its head, under
// the row lock LockAuditChain took.
type auditHeads struct {
	saved map[string]AuditHead // moved by work the transaction keeps
	open  map[string]AuditHead // moved since the current savepoint began
}

func newAuditHeads() *auditHeads {
	return &auditHeads{saved: map[string]AuditHead{}, open: map[string]AuditHead{}}
}

// get returns the head of accountID as this transaction moved it.
func (a *auditHeads) get(accountID string) (AuditHead, bool) {
	if a == nil {
		return AuditHead{}, false
	}
	if h, ok := a.open[accountID]; ok {
		return h, true
	}
	h, ok := a.saved[accountID]
	return h, ok
}

func (a *auditHeads) moved(h AuditHead) { a.open[h.AccountID] = h }

// keep makes what the current savepoint moved part of the transaction
// (at SAVEPOINT and RELEASE).
func (a *auditHeads) keep() {
	if a == nil {
		return
	}
	for id, h := range a.open {
		a.saved[id] = h
	}
	clear(a.open)
}

// drop forgets what the current savepoint moved (at ROLLBACK TO).
func (a *auditHeads) drop() {
	if a != nil {
		clear(a.open)
	}
}

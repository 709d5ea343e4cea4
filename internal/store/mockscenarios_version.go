package store

import "context"

// bumpMockScenariosVersion raises the scenarios version, inside the
// transaction of the change (migration 00420). On SQLite it raises the
// scenarios signal to the new version before the commit (scenariosSignal):
// the write lock is held from the UPDATE on, so the versions changes write
// come in the order of their commits.
func (q *queries) bumpMockScenariosVersion(ctx context.Context) error {
	sig := q.store.scenarios
	if sig == nil {
		_, err := q.w.exec(ctx, `UPDATE mock_payer_scenarios_version SET version = version + 1 WHERE id = 1`)
		return mapErr(err)
	}
	var v int64
	if err := q.w.queryRow(ctx, `UPDATE mock_payer_scenarios_version SET version = version + 1 WHERE id = 1 RETURNING version`).Scan(&v); err != nil {
		return mapErr(err)
	}
	return sig.changing(v)
}

// MockScenariosVersion reads the scenarios version: one row, read on every
// test-mode check in place of the account's file. On SQLite, outside a
// transaction, the scenarios signal spares the read while no change has
// committed since the last one (scenariosSignal). The read is not tied to
// the request's cancellation: on SQLite a cancellable context costs every
// statement a goroutine that watches it, and a read of one row by its key
// ends on its own (PostgreSQL's statements keep the store's own limit).
func (q *queries) MockScenariosVersion(ctx context.Context) (int64, error) {
	sig := q.store.scenarios
	if q.inTx {
		sig = nil // the transaction's own snapshot
	}
	if sig != nil {
		if v, ok := sig.current(); ok {
			return v, nil
		}
	}
	var v int64
	if err := q.r.queryRow(context.WithoutCancel(ctx), `SELECT version FROM mock_payer_scenarios_version WHERE id = 1`).Scan(&v); err != nil {
		return 0, mapErr(err)
	}
	if sig != nil {
		sig.read(v)
	}
	return v, nil
}

package store

import "context"

// bumpMockScenariosVersion raises the scenarios version, inside the
// transaction of the change (migration 00420).
func (q *queries) bumpMockScenariosVersion(ctx context.Context) error {
	_, err := q.w.exec(ctx, `UPDATE mock_payer_scenarios_version SET version = version + 1 WHERE id = 1`)
	return mapErr(err)
}

// MockScenariosVersion reads the scenarios version: one row, read on every
// test-mode check in place of the account's file. The read is not tied to
// the request's cancellation: on SQLite a cancellable context costs every
// statement a goroutine that watches it, and a read of one row by its key
// ends on its own (PostgreSQL's statements keep the store's own limit).
func (q *queries) MockScenariosVersion(ctx context.Context) (int64, error) {
	var v int64
	err := q.r.queryRow(context.WithoutCancel(ctx), `SELECT version FROM mock_payer_scenarios_version WHERE id = 1`).Scan(&v)
	return v, mapErr(err)
}

package store

import (
	"context"
	"time"
)

// Usage of eligibility checks is read from eligibility_checks: a check's
// row holds what its usage row held (account, key, mode, cost, time, and
// its id as the usage's reference), so a check no longer writes a second
// row into a second B-tree — on SQLite a WAL frame per group round
// (BenchmarkRoundCost). The usage table keeps the calls of other kinds
// and the usage of the checks deleted since (migration 432's trigger
// copies a check's row into it, whoever deletes the check: billing
// outlives the history).
//
// A usage row of kind eligibility_check counts only while its check is
// gone. Rows written before migration 00430 (which deleted those of
// checks still kept), and any written by an older build still running
// against the same database (PostgreSQL replicas during a deploy), would
// otherwise count a check twice.
//
// The usage sums read eligibility_checks_account_mode_created, which
// migration 00431 made carry the key and the cost too: a month of checks
// is summed from that index alone (~100 B an entry, as the usage table's
// rows were), never from the ~2.4 KB rows.

// usageRowsSQL are the usage table's rows that count, with $1 the account
// (a SELECT of usageColumns; more conditions may follow).
const usageRowsSQL = `SELECT ` + usageColumns + ` FROM usage u WHERE account_id = $1
	AND (kind <> '` + UsageEligibilityCheck + `' OR NOT EXISTS (SELECT 1 FROM eligibility_checks c WHERE c.id = u.ref_id))`

// checkUsageSQL are the checks' usage rows, with $1 the account: the
// check's id is both the usage's id and its reference. Both modes are
// named so the (account_id, mode, created_at ...) index serves it.
const checkUsageSQL = `SELECT id, account_id, key_id, mode, '` + UsageEligibilityCheck + `', id, cost_micros, created_at
	FROM eligibility_checks WHERE account_id = $1 AND mode IN ('` + ModeTest + `', '` + ModeProduction + `')`

func (q *queries) ListUsage(ctx context.Context, accountID string) ([]UsageRecord, error) {
	rows, err := q.r.query(ctx, usageRowsSQL+` UNION ALL `+checkUsageSQL+` ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (UsageRecord, error) {
		var u UsageRecord
		var created int64
		err := row.Scan(&u.ID, &u.AccountID, &u.KeyID, &u.Mode, &u.Kind, &u.RefID, &u.CostMicros, &created)
		u.CreatedAt = fromUS(created)
		return u, err
	})
}

func (q *queries) UsageByKey(ctx context.Context, accountID string, from, to time.Time) ([]UsageTotal, error) {
	lo, hi := int64(-1<<63), int64(1<<63-1)
	if !from.IsZero() {
		lo = toUS(from)
	}
	if !to.IsZero() {
		hi = toUS(to)
	}
	const within = ` AND created_at >= $2 AND created_at < $3`
	rows, err := q.r.query(ctx, `SELECT key_id, kind, mode, COUNT(*), COALESCE(SUM(cost_micros), 0)
		FROM (`+usageRowsSQL+within+` UNION ALL `+checkUsageSQL+within+`) calls
		GROUP BY key_id, kind, mode ORDER BY key_id, kind, mode`, accountID, lo, hi)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (UsageTotal, error) {
		var t UsageTotal
		err := row.Scan(&t.KeyID, &t.Kind, &t.Mode, &t.Count, &t.CostMicros)
		return t, err
	})
}

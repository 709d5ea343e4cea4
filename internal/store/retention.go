package store

import (
	"context"
	"strconv"
	"strings"
	"time"
)

// Retention holds each account's retention policy and removes what it no
// longer keeps (package retention runs it).
type Retention interface {
	SetRetentionPolicy(ctx context.Context, p RetentionPolicy) error
	// GetRetentionPolicy returns the account's policy: all zeros (keep
	// everything) when it has none.
	GetRetentionPolicy(ctx context.Context, accountID string) (RetentionPolicy, error)
	ListRetentionPolicies(ctx context.Context) ([]RetentionPolicy, error)
	// PurgeExpired removes up to limit records of each kind that the
	// cutoffs no longer keep, and returns what it removed with the blob
	// keys no record names any more (to delete after the commit). With
	// dryRun it removes nothing and counts everything. Run it in a
	// transaction.
	PurgeExpired(ctx context.Context, accountID string, c PurgeCutoffs, limit int, dryRun bool) (PurgeResult, error)
	// RecordRetentionRun stores what a purge removed.
	RecordRetentionRun(ctx context.Context, accountID string, at time.Time, r PurgeResult) error
}

// RetentionPolicy says how many days an account keeps each kind of record;
// 0 keeps it forever.
type RetentionPolicy struct {
	AccountID       string
	EligibilityDays int
	FileDays        int
	EventDays       int
	UpdatedAt       time.Time
}

// PurgeCutoffs: records created before each time go; a zero time keeps
// every record of its kind.
type PurgeCutoffs struct {
	Eligibility, Files, Events time.Time
}

// PurgeResult counts what a purge removed (or would remove).
type PurgeResult struct {
	Checks, Files, Transactions, Claims, Events int
	// Blobs are the documents of the removed files and transactions.
	Blobs []string
}

// Any reports whether anything was removed.
func (r PurgeResult) Any() bool {
	return r.Checks+r.Files+r.Transactions+r.Claims+r.Events > 0
}

func (q *queries) SetRetentionPolicy(ctx context.Context, p RetentionPolicy) error {
	_, err := q.w.exec(ctx, `INSERT INTO retention_policies (account_id, eligibility_days, file_days, event_days, updated_at)
		VALUES ($1, $2, $3, $4, $5) ON CONFLICT (account_id) DO UPDATE SET eligibility_days = $2, file_days = $3,
		event_days = $4, updated_at = $5`, p.AccountID, p.EligibilityDays, p.FileDays, p.EventDays, toUS(p.UpdatedAt))
	return mapErr(err)
}

func (q *queries) GetRetentionPolicy(ctx context.Context, accountID string) (RetentionPolicy, error) {
	p, err := scanPolicy(q.r.queryRow(ctx, `SELECT account_id, eligibility_days, file_days, event_days, updated_at
		FROM retention_policies WHERE account_id = $1`, accountID))
	if err == ErrNotFound {
		return RetentionPolicy{AccountID: accountID}, nil
	}
	return p, err
}

func (q *queries) ListRetentionPolicies(ctx context.Context) ([]RetentionPolicy, error) {
	rows, err := q.r.query(ctx, `SELECT account_id, eligibility_days, file_days, event_days, updated_at
		FROM retention_policies ORDER BY account_id`)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanPolicy)
}

func scanPolicy(row scanner) (RetentionPolicy, error) {
	var p RetentionPolicy
	var at int64
	if err := row.Scan(&p.AccountID, &p.EligibilityDays, &p.FileDays, &p.EventDays, &at); err != nil {
		return RetentionPolicy{}, mapErr(err)
	}
	p.UpdatedAt = fromUS(at)
	return p, nil
}

func (q *queries) RecordRetentionRun(ctx context.Context, accountID string, at time.Time, r PurgeResult) error {
	_, err := q.w.exec(ctx, `INSERT INTO retention_runs (id, account_id, ran_at, checks, files, transactions, claims, events, blobs)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)`, NewID(), accountID, toUS(at), r.Checks, r.Files, r.Transactions,
		r.Claims, r.Events, len(r.Blobs))
	return mapErr(err)
}

// finishedStatuses are the file states a purge may remove: nothing is
// still to be done with such a file.
const finishedStatuses = `('COMPLETED', 'FAILED', 'DELIVERED')`

func (q *queries) PurgeExpired(ctx context.Context, accountID string, c PurgeCutoffs, limit int, dryRun bool) (PurgeResult, error) {
	var r PurgeResult
	lim := ""
	if limit > 0 {
		lim = " LIMIT " + strconv.Itoa(limit)
	}
	// The conn that sees this transaction's writes (q.w inside one).
	db := q.w
	if dryRun {
		db = q.r
	}
	if !c.Eligibility.IsZero() {
		// One mode at a time: the checks' only time index leads with
		// (account_id, mode), and the schema allows these two modes only.
		var ids []string
		for _, mode := range []string{ModeTest, ModeProduction} {
			modeLim := lim
			if limit > 0 {
				if len(ids) >= limit {
					break
				}
				modeLim = " LIMIT " + strconv.Itoa(limit-len(ids))
			}
			some, err := q.ids(ctx, db, `SELECT id FROM eligibility_checks WHERE account_id = $1 AND mode = $2 AND created_at < $3
				ORDER BY created_at`+modeLim, accountID, mode, toUS(c.Eligibility))
			if err != nil {
				return r, err
			}
			ids = append(ids, some...)
		}
		r.Checks = len(ids)
		// A check is its own usage row (usage.go): migration 432's
		// trigger keeps its usage in the usage table when the check goes.
		if err := q.deleteIn(ctx, dryRun, `DELETE FROM eligibility_checks WHERE account_id = $1 AND id IN `, accountID, ids); err != nil {
			return r, err
		}
		// Which simulator scenario answered them goes with them.
		if err := q.deleteIn(ctx, dryRun, `DELETE FROM simulated_answers WHERE account_id = $1 AND subject IN `, accountID, ids); err != nil {
			return r, err
		}
	}
	if !c.Files.IsZero() {
		if err := q.purgeFiles(ctx, db, accountID, c.Files, lim, dryRun, &r); err != nil {
			return r, err
		}
	}
	if !c.Events.IsZero() {
		// Events whose webhook deliveries are all finished; deliveries go
		// with them (their attempts by cascade).
		ids, err := q.ids(ctx, db, `SELECT id FROM events e WHERE account_id = $1 AND time < $2 AND NOT EXISTS
			(SELECT 1 FROM webhook_deliveries d WHERE d.account_id = e.account_id AND d.event_id = e.id AND d.status = 'PENDING')
			ORDER BY time`+lim, accountID, toUS(c.Events))
		if err != nil {
			return r, err
		}
		r.Events = len(ids)
		if err := q.deleteIn(ctx, dryRun, `DELETE FROM webhook_deliveries WHERE account_id = $1 AND event_id IN `, accountID, ids); err != nil {
			return r, err
		}
		if err := q.deleteIn(ctx, dryRun, `DELETE FROM events WHERE account_id = $1 AND id IN `, accountID, ids); err != nil {
			return r, err
		}
	}
	return r, nil
}

// purgeFiles removes finished executions older than before with their
// transactions, fragments, business identifiers, the claims they carried
// and those claims' answers, and collects their documents' keys.
func (q *queries) purgeFiles(ctx context.Context, db conn, accountID string, before time.Time, lim string, dryRun bool, r *PurgeResult) error {
	rows, err := db.query(ctx, `SELECT id, input_key, output_key, metadata_key FROM executions
		WHERE account_id = $1 AND created_at < $2 AND status IN `+finishedStatuses+` ORDER BY created_at`+lim, accountID, toUS(before))
	if err != nil {
		return err
	}
	var execs []string
	keys := map[string]bool{}
	for rows.Next() {
		var id, in, out, md string
		if err := rows.Scan(&id, &in, &out, &md); err != nil {
			rows.Close()
			return err
		}
		execs = append(execs, id)
		keys[in], keys[out], keys[md] = true, true, true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return err
	}
	if len(execs) == 0 {
		return nil
	}
	txs, err := q.idsAndKeys(ctx, db, `SELECT id, input_key, output_key FROM transactions WHERE account_id = $1 AND execution_id IN `, accountID, execs, keys)
	if err != nil {
		return err
	}
	if len(txs) > 0 {
		if _, err := q.idsAndKeys(ctx, db, `SELECT transaction_id, output_key, '' FROM transaction_fragments WHERE transaction_id IN `, "", txs, keys); err != nil {
			return err
		}
	}
	claims, err := q.idsAndKeys(ctx, db, `SELECT id, '', '' FROM dental_claims WHERE account_id = $1 AND execution_id IN `, accountID, execs, nil)
	if err != nil {
		return err
	}
	r.Files, r.Transactions, r.Claims = len(execs), len(txs), len(claims)
	for k := range keys {
		if k != "" {
			r.Blobs = append(r.Blobs, k)
		}
	}
	steps := []struct {
		sql string
		ids []string
	}{
		{`DELETE FROM claim_answers WHERE account_id = $1 AND claim_id IN `, claims},
		{`DELETE FROM claim_answers WHERE account_id = $1 AND transaction_id IN `, txs},
		{`DELETE FROM unmatched_claim_reports WHERE account_id = $1 AND transaction_id IN `, txs},
		{`DELETE FROM claim_status_inquiries WHERE account_id = $1 AND claim_id IN `, claims},
		{`DELETE FROM claim_resends WHERE account_id = $1 AND claim_id IN `, claims},
		{`DELETE FROM claim_resends WHERE account_id = $1 AND previous_claim_id IN `, claims},
		{`DELETE FROM dental_claims WHERE account_id = $1 AND id IN `, claims},
		{`DELETE FROM business_identifiers WHERE account_id = $1 AND transaction_id IN `, txs},
		{`DELETE FROM identifier_runs WHERE transaction_id IN `, txs},
		{`DELETE FROM transaction_fragments WHERE transaction_id IN `, txs},
		{`DELETE FROM transactions WHERE account_id = $1 AND id IN `, txs},
		{`DELETE FROM upstream_submissions WHERE account_id = $1 AND execution_id IN `, execs},
		{`DELETE FROM executions WHERE account_id = $1 AND id IN `, execs},
		{`DELETE FROM inline_blobs WHERE account_id = $1 AND key IN `, inlineKeys(r.Blobs)},
	}
	// The search rows first: they are found by value through the runs (and
	// the rows from before the runs) that are removed next.
	if err := q.deleteIdentifierValues(ctx, dryRun, txs); err != nil {
		return err
	}
	for _, s := range steps {
		account := accountID
		if !strings.Contains(s.sql, "account_id = $1") {
			account = ""
		}
		if err := q.deleteIn(ctx, dryRun, s.sql, account, s.ids); err != nil {
			return err
		}
	}
	return nil
}

// inList appends "($n, $n+1, …)" for ids after the first args.
func inList(args []any, ids []string) (string, []any) {
	var b strings.Builder
	b.WriteByte('(')
	for i, id := range ids {
		if i > 0 {
			b.WriteByte(',')
		}
		args = append(args, id)
		b.WriteString("$" + strconv.Itoa(len(args)))
	}
	b.WriteByte(')')
	return b.String(), args
}

// deleteIn runs sql (ending in "IN ") over ids, after an account argument
// unless account is "".
// deleteIdentifierValues removes the search rows of the transactions ids:
// their keys, found by value (identifier_keys is stored in value order,
// with no index on its group) from the values the transactions' runs (or
// older business_identifiers rows) hold, then their groups.
func (q *queries) deleteIdentifierValues(ctx context.Context, dryRun bool, ids []string) error {
	if dryRun || len(ids) == 0 {
		return nil
	}
	list, args := inList(nil, ids)
	expand := `SELECT e.v FROM identifier_runs r, jsonb_array_elements_text(r.vals::jsonb) AS e(v)`
	if q.w.sqlite {
		expand = `SELECT e.value FROM identifier_runs r, json_each(r.vals) AS e`
	}
	_, err := q.w.exec(ctx, `DELETE FROM identifier_keys WHERE grp IN (SELECT id FROM identifier_groups WHERE transaction_id IN `+list+`)
		AND value IN (`+expand+` WHERE r.transaction_id IN `+list+
		` UNION ALL SELECT value FROM business_identifiers WHERE transaction_id IN `+list+`)`, args...)
	if err != nil {
		return mapErr(err)
	}
	return q.deleteIdentifierGroups(ctx, ids)
}

func (q *queries) deleteIn(ctx context.Context, dryRun bool, sql, account string, ids []string) error {
	if dryRun || len(ids) == 0 {
		return nil
	}
	var args []any
	if account != "" {
		args = append(args, account)
	}
	list, args := inList(args, ids)
	_, err := q.w.exec(ctx, sql+list, args...)
	return mapErr(err)
}

func (q *queries) ids(ctx context.Context, db conn, sql string, args ...any) ([]string, error) {
	rows, err := db.query(ctx, sql, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (string, error) {
		var id string
		return id, row.Scan(&id)
	})
}

// idsAndKeys runs a query of three text columns over ids (after an account
// argument unless account is ""), returning the first column and adding
// the other two to keys (when keys is not nil).
func (q *queries) idsAndKeys(ctx context.Context, db conn, sql, account string, ids []string, keys map[string]bool) ([]string, error) {
	var args []any
	if account != "" {
		args = append(args, account)
	}
	list, args := inList(args, ids)
	rows, err := db.query(ctx, sql+list, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var a, b, c string
		if err := rows.Scan(&a, &b, &c); err != nil {
			return nil, err
		}
		out = append(out, a)
		if keys != nil {
			keys[b], keys[c] = true, true
		}
	}
	return out, rows.Err()
}

// inlineKeys are the keys among keys whose documents are rows of
// inline_blobs, removed with the records in the same transaction.
func inlineKeys(keys []string) []string {
	var in []string
	for _, k := range keys {
		if strings.HasPrefix(k, InlineBlobPrefix) {
			in = append(in, k)
		}
	}
	return in
}

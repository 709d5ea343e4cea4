package store

import (
	"context"
	"database/sql"
	"time"
)

func (q *queries) CreateAccount(ctx context.Context, a Account) error {
	_, err := q.w.exec(ctx, `INSERT INTO accounts (id, name, created_at) VALUES ($1, $2, $3)`,
		a.ID, a.Name, toUS(a.CreatedAt))
	return mapErr(err)
}

func (q *queries) GetAccount(ctx context.Context, id string) (Account, error) {
	return scanAccount(q.r.queryRow(ctx, `SELECT id, name, created_at FROM accounts WHERE id = $1`, id))
}

func (q *queries) GetAccountByName(ctx context.Context, name string) (Account, error) {
	return scanAccount(q.r.queryRow(ctx, `SELECT id, name, created_at FROM accounts WHERE name = $1`, name))
}

func (q *queries) ListAccounts(ctx context.Context) ([]Account, error) {
	rows, err := q.r.query(ctx, `SELECT id, name, created_at FROM accounts ORDER BY name`)
	if err != nil {
		return nil, err
	}
	return collect(rows, scanAccount)
}

func scanAccount(row scanner) (Account, error) {
	var a Account
	var created int64
	if err := row.Scan(&a.ID, &a.Name, &created); err != nil {
		return Account{}, mapErr(err)
	}
	a.CreatedAt = fromUS(created)
	return a, nil
}

const apiKeyColumns = `id, account_id, mode, name, secret_sha256, created_at, revoked_at`

func (q *queries) CreateAPIKey(ctx context.Context, k APIKey) error {
	_, err := q.w.exec(ctx, `INSERT INTO api_keys (`+apiKeyColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
		k.ID, k.AccountID, k.Mode, k.Name, k.Hash, toUS(k.CreatedAt), nullUS(k.RevokedAt))
	return mapErr(err)
}

func (q *queries) GetAPIKey(ctx context.Context, id string) (APIKey, error) {
	return scanAPIKey(q.r.queryRow(ctx, `SELECT `+apiKeyColumns+` FROM api_keys WHERE id = $1`, id))
}

func (q *queries) ListAPIKeys(ctx context.Context, accountID string) ([]APIKey, error) {
	rows, err := q.r.query(ctx, `SELECT `+apiKeyColumns+`, last_used_at FROM api_keys WHERE account_id = $1 ORDER BY created_at, id`, accountID)
	if err != nil {
		return nil, err
	}
	return collect(rows, func(row scanner) (APIKey, error) {
		var k APIKey
		var created, used int64
		var revoked sql.NullInt64
		if err := row.Scan(&k.ID, &k.AccountID, &k.Mode, &k.Name, &k.Hash, &created, &revoked, &used); err != nil {
			return APIKey{}, mapErr(err)
		}
		k.CreatedAt, k.RevokedAt = fromUS(created), fromNullUS(revoked)
		if used != 0 {
			k.LastUsedAt = fromUS(used)
		}
		return k, nil
	})
}

func (q *queries) NoteAPIKeyUse(ctx context.Context, id string, at time.Time) error {
	_, err := q.w.exec(ctx, `UPDATE api_keys SET last_used_at = $2 WHERE id = $1 AND last_used_at < $2`, id, toUS(at))
	return mapErr(err)
}

func (q *queries) RevokeAPIKey(ctx context.Context, id string, at time.Time) error {
	res, err := q.w.exec(ctx, `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1`, id, toUS(at))
	if err != nil {
		return mapErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	return nil
}

func scanAPIKey(row scanner) (APIKey, error) {
	var k APIKey
	var created int64
	var revoked sql.NullInt64
	if err := row.Scan(&k.ID, &k.AccountID, &k.Mode, &k.Name, &k.Hash, &created, &revoked); err != nil {
		return APIKey{}, mapErr(err)
	}
	k.CreatedAt = fromUS(created)
	k.RevokedAt = fromNullUS(revoked)
	return k, nil
}

// scanner is *sql.Row or *sql.Rows.
type scanner interface{ Scan(dest ...any) error }

// collect scans every row and closes rows.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	var out []T
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

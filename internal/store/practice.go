package store

import (
	"context"
	"time"
)

// Practice provider roles.
const (
	RoleBilling   = "billing"
	RoleRendering = "rendering"
)

// MaxPracticeProviders bounds how many providers of one role an account
// keeps per mode (a practice has a handful; the pickers list them all).
const MaxPracticeProviders = 100

// PracticeProvider is one saved provider of an account in one mode.
type PracticeProvider struct {
	ID        string
	AccountID string
	Mode      string
	Role      string // RoleBilling or RoleRendering
	Default   bool
	Body      []byte // the provider as the API shows it (package practice)
	CreatedAt time.Time
	UpdatedAt time.Time
}

// PracticeProviders stores the providers a practice saved. Every call
// names the account and the mode: nothing reads across them.
type PracticeProviders interface {
	// PutPracticeProvider inserts p or replaces the one with its id (in the
	// same account, mode and role; ErrNotFound when that one is someone
	// else's). A default provider makes the role's others not default: run
	// it in a transaction so both happen or neither.
	PutPracticeProvider(ctx context.Context, p PracticeProvider) error
	GetPracticeProvider(ctx context.Context, accountID, mode, role, id string) (PracticeProvider, error)
	// ListPracticeProviders lists one role's providers, the default first,
	// then oldest first.
	ListPracticeProviders(ctx context.Context, accountID, mode, role string) ([]PracticeProvider, error)
	DeletePracticeProvider(ctx context.Context, accountID, mode, role, id string) error
}

const practiceColumns = `id, account_id, mode, role, is_default, body, created_at, updated_at`

func (q *queries) PutPracticeProvider(ctx context.Context, p PracticeProvider) error {
	def := 0
	if p.Default {
		def = 1
	}
	res, err := q.w.exec(ctx, `INSERT INTO practice_providers (`+practiceColumns+`) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)
		ON CONFLICT (id) DO UPDATE SET is_default = excluded.is_default, body = excluded.body, updated_at = excluded.updated_at
		WHERE practice_providers.account_id = excluded.account_id AND practice_providers.mode = excluded.mode
			AND practice_providers.role = excluded.role`,
		p.ID, p.AccountID, p.Mode, p.Role, def, string(p.Body), toUS(p.CreatedAt), toUS(p.UpdatedAt))
	if err != nil {
		return mapErr(err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return ErrNotFound
	}
	if !p.Default {
		return nil
	}
	// After the upsert, so a refused one (another tenant's id) changes
	// nothing of this tenant's.
	_, err = q.w.exec(ctx, `UPDATE practice_providers SET is_default = 0
		WHERE account_id = $1 AND mode = $2 AND role = $3 AND id <> $4`, p.AccountID, p.Mode, p.Role, p.ID)
	return mapErr(err)
}

func (q *queries) GetPracticeProvider(ctx context.Context, accountID, mode, role, id string) (PracticeProvider, error) {
	return scanPracticeProvider(q.r.queryRow(ctx, `SELECT `+practiceColumns+` FROM practice_providers
		WHERE account_id = $1 AND mode = $2 AND role = $3 AND id = $4`, accountID, mode, role, id))
}

func (q *queries) ListPracticeProviders(ctx context.Context, accountID, mode, role string) ([]PracticeProvider, error) {
	rows, err := q.r.query(ctx, `SELECT `+practiceColumns+` FROM practice_providers
		WHERE account_id = $1 AND mode = $2 AND role = $3 ORDER BY is_default DESC, created_at, id LIMIT $4`,
		accountID, mode, role, MaxPracticeProviders)
	if err != nil {
		return nil, mapErr(err)
	}
	defer rows.Close()
	var out []PracticeProvider
	for rows.Next() {
		p, err := scanPracticeProvider(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, p)
	}
	return out, mapErr(rows.Err())
}

func (q *queries) DeletePracticeProvider(ctx context.Context, accountID, mode, role, id string) error {
	return affected(q.w.exec(ctx, `DELETE FROM practice_providers WHERE account_id = $1 AND mode = $2 AND role = $3 AND id = $4`,
		accountID, mode, role, id))
}

func scanPracticeProvider(row scanner) (PracticeProvider, error) {
	var p PracticeProvider
	var def int
	var body string
	var created, updated int64
	if err := row.Scan(&p.ID, &p.AccountID, &p.Mode, &p.Role, &def, &body, &created, &updated); err != nil {
		return PracticeProvider{}, mapErr(err)
	}
	p.Default, p.Body, p.CreatedAt, p.UpdatedAt = def == 1, []byte(body), fromUS(created), fromUS(updated)
	return p, nil
}

// PracticeProviders lists the tenant's providers of one role.
func (t Tenant) PracticeProviders(ctx context.Context, role string) ([]PracticeProvider, error) {
	return t.q.ListPracticeProviders(ctx, t.scope.AccountID, t.scope.Mode, role)
}

// PracticeProvider is one of the tenant's providers.
func (t Tenant) PracticeProvider(ctx context.Context, role, id string) (PracticeProvider, error) {
	return t.q.GetPracticeProvider(ctx, t.scope.AccountID, t.scope.Mode, role, id)
}

// PutPracticeProvider saves a provider in the tenant's scope.
func (t Tenant) PutPracticeProvider(ctx context.Context, p PracticeProvider) error {
	p.AccountID, p.Mode = t.scope.AccountID, t.scope.Mode
	return t.q.PutPracticeProvider(ctx, p)
}

// DeletePracticeProvider removes one of the tenant's providers.
func (t Tenant) DeletePracticeProvider(ctx context.Context, role, id string) error {
	return t.q.DeletePracticeProvider(ctx, t.scope.AccountID, t.scope.Mode, role, id)
}

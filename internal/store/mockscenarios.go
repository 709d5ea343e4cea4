package store

import (
	"context"
	"time"
)

// MockScenarios is an account's payer simulator scenario file in one mode.
type MockScenarios struct {
	AccountID string
	Mode      string
	Body      []byte // the file as uploaded (validated by the caller)
	UpdatedAt time.Time
}

// MockPayerScenarios stores each account's simulator scenario file per
// mode. Every call names the account and the mode: nothing reads across
// them.
type MockPayerScenarios interface {
	// PutMockScenarios stores the file, replacing the one there.
	PutMockScenarios(ctx context.Context, s MockScenarios) error
	// GetMockScenarios returns the file, or ErrNotFound.
	GetMockScenarios(ctx context.Context, accountID, mode string) (MockScenarios, error)
	// DeleteMockScenarios removes it (ErrNotFound when there is none).
	DeleteMockScenarios(ctx context.Context, accountID, mode string) error
	// MockScenariosVersion is a number that changes, in the same
	// transaction, with every change to any account's file: a reader that
	// keeps the files it has read needs to read them again only when it
	// has changed.
	MockScenariosVersion(ctx context.Context) (int64, error)
}

func (q *queries) PutMockScenarios(ctx context.Context, s MockScenarios) error {
	return q.atomic(ctx, func(q *queries) error {
		_, err := q.w.exec(ctx, `INSERT INTO mock_payer_scenarios (account_id, mode, body, updated_at) VALUES ($1, $2, $3, $4)
		ON CONFLICT (account_id, mode) DO UPDATE SET body = excluded.body, updated_at = excluded.updated_at`,
			s.AccountID, s.Mode, string(s.Body), toUS(s.UpdatedAt))
		if err != nil {
			return mapErr(err)
		}
		return q.bumpMockScenariosVersion(ctx)
	})
}

func (q *queries) GetMockScenarios(ctx context.Context, accountID, mode string) (MockScenarios, error) {
	s := MockScenarios{AccountID: accountID, Mode: mode}
	var body string
	var updated int64
	err := q.r.queryRow(ctx, `SELECT body, updated_at FROM mock_payer_scenarios WHERE account_id = $1 AND mode = $2`, accountID, mode).
		Scan(&body, &updated)
	if err != nil {
		return MockScenarios{}, mapErr(err)
	}
	s.Body, s.UpdatedAt = []byte(body), fromUS(updated)
	return s, nil
}

func (q *queries) DeleteMockScenarios(ctx context.Context, accountID, mode string) error {
	return q.atomic(ctx, func(q *queries) error {
		res, err := q.w.exec(ctx, `DELETE FROM mock_payer_scenarios WHERE account_id = $1 AND mode = $2`, accountID, mode)
		if err != nil {
			return mapErr(err)
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return ErrNotFound
		}
		return q.bumpMockScenariosVersion(ctx)
	})
}

// MockScenarios is the tenant's simulator scenario file (ErrNotFound when
// none was uploaded).
func (t Tenant) MockScenarios(ctx context.Context) (MockScenarios, error) {
	return t.q.GetMockScenarios(ctx, t.scope.AccountID, t.scope.Mode)
}

// PutMockScenarios replaces the tenant's simulator scenario file.
func (t Tenant) PutMockScenarios(ctx context.Context, body []byte, now time.Time) error {
	return t.q.PutMockScenarios(ctx, MockScenarios{AccountID: t.scope.AccountID, Mode: t.scope.Mode, Body: body, UpdatedAt: now})
}

// DeleteMockScenarios removes the tenant's simulator scenario file.
func (t Tenant) DeleteMockScenarios(ctx context.Context) error {
	return t.q.DeleteMockScenarios(ctx, t.scope.AccountID, t.scope.Mode)
}

package scenario

import (
	"context"
	"time"

	"github.com/clearhouse/clearhouse/internal/store"
)

// Files keeps a tenant's payer simulator scenario file: what the API's
// /2024-04-01/mock-payer/scenarios, the console's simulator page and
// `clearhouse mockpayer scenarios apply` read, replace and delete. Only
// test mode reaches the simulator; callers refuse production first, each
// with its own answer.
type Files struct {
	Tenant store.Tenant
	Now    func() time.Time
}

// Get returns the file as uploaded and its scenarios (store.ErrNotFound
// when there is none).
func (f Files) Get(ctx context.Context) (store.MockScenarios, *Set, error) {
	file, err := f.Tenant.MockScenarios(ctx)
	if err != nil {
		return file, nil, err
	}
	set, err := Parse(file.Body)
	return file, set, err
}

// Put validates body whole (an *Error naming the line and field when it
// has a problem, and then nothing changes) and replaces the stored file.
func (f Files) Put(ctx context.Context, body []byte) (*Set, error) {
	set, err := Parse(body)
	if err != nil {
		return nil, err
	}
	now := time.Now
	if f.Now != nil {
		now = f.Now
	}
	if err := f.Tenant.PutMockScenarios(ctx, body, now()); err != nil {
		return nil, err
	}
	return set, nil
}

// Delete removes the file: the published mocks answer alone again
// (store.ErrNotFound when there was none).
func (f Files) Delete(ctx context.Context) error {
	return f.Tenant.DeleteMockScenarios(ctx)
}

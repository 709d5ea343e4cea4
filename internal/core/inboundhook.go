package core

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// InboundHook is called for each inbound transaction inside the database
// transaction that records it (after the transaction row is written), so
// what it records about the transaction (the claims a 999, 277CA or 835
// answers) commits or rolls back with it. The set's enveloped X12 is
// already in the blob store under t.Input.Key.
type InboundHook func(ctx context.Context, tx store.Queries, t store.Transaction) error

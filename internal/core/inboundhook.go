package core

import (
	"context"

	"github.com/clearhouse/clearhouse/internal/store"
)

// InboundHook is called for each inbound transaction inside the database
// transaction that records it (after the transaction row is written), so
// what it records about the transaction (the claims a 999, 277CA or 835
// answers) commits or rolls back with it. The set's enveloped X12 is
// already in the blob store under t.Input.Key. t.Identifiers holds the
// first HookIdentifiers identifiers of each element, in the set's order
// (all of them are stored): a set of a million claims is not held whole.
type InboundHook func(ctx context.Context, tx store.Queries, t store.Transaction) error

// HookIdentifiers bounds the identifiers of each element an InboundHook is
// given (claimstatus reads the first 10,000 patient control numbers).
const HookIdentifiers = 10000

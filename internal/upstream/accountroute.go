package upstream

import (
	"context"
	"errors"
	"fmt"

	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// AccountRoute is a payer's eligibility or claim status route that names
// no connection of the --payers file: each exchange resolves it to the
// caller's own stored CLEARINGHOUSE_API connection of that id (one
// connection model for routing: the operator's file, or the account's
// store), so a check goes out with the account's own key at the upstream
// and never with another account's. An account without one is answered as
// a payer that is not configured, and no other route is tried for it.
type AccountRoute struct {
	Name     string
	Delivery *Delivery // Store and the clients (key, guard, timeout)
}

// Exchange satisfies payers.Connection.
func (r *AccountRoute) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	caller, ok := payers.CallerFrom(ctx)
	if !ok || r.Delivery == nil || r.Delivery.Store == nil {
		return nil, r.missing(request, "it names no connection of the --payers file and the exchange has no account")
	}
	conn, err := r.Delivery.Store.GetConnection(ctx, caller.AccountID, string(caller.Mode), r.Name)
	if errors.Is(err, store.ErrNotFound) || (err == nil && conn.Type != store.ConnectionClearinghouseAPI) {
		return nil, r.missing(request, "neither the --payers file nor this account's stored connections ("+string(caller.Mode)+" mode) have it")
	}
	if err != nil {
		return nil, err
	}
	c, err := r.Delivery.Client(delivery.File{Connection: conn})
	if err != nil {
		return nil, &Error{Connection: r.Name, Op: "route", Message: err.Error(), refused: true}
	}
	return c.Exchange(ctx, request)
}

func (r *AccountRoute) missing(request []byte, why string) error {
	return &notInAccountError{nc: &payers.NotConfiguredError{PayerID: PayerID(request),
		Reason: fmt.Sprintf("its connection %q is not available on this server: %s", r.Name, why)}}
}

// notInAccountError is a route the caller's account does not have: the
// payer is not configured for it (a 400 to the client), and no failover.
type notInAccountError struct{ nc *payers.NotConfiguredError }

func (e *notInAccountError) Error() string  { return e.nc.Error() }
func (e *notInAccountError) Unwrap() error  { return e.nc }
func (e *notInAccountError) FailOver() bool { return false }

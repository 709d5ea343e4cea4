package payers

import "context"

// Caller is the account and mode a payer exchange is made for. An
// in-process payer (the test-mode mock) reads it to answer about that
// account's own claims; a real connection never sees it.
type Caller struct {
	AccountID string
	Mode      Mode
}

type callerKey struct{}

// WithCaller returns ctx carrying the caller of an exchange.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return context.WithValue(ctx, callerKey{}, c)
}

// CallerFrom returns the caller ctx carries, if any.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

package payers

import "context"

// Connection carries one X12 exchange to a payer: one 270 interchange in,
// the payer's 271 interchange out, within ctx's deadline. Implementations
// must be safe for concurrent use.
type Connection interface {
	Exchange(ctx context.Context, request []byte) (response []byte, err error)
}

// TestOnly is implemented by connections that answer with test data (the
// mock payers). The Router refuses to route production traffic to one, so a
// misconfiguration cannot hand a real patient's check to a mock.
type TestOnly interface {
	TestOnly() bool
}

// ConnectionFunc adapts a function to Connection.
type ConnectionFunc func(ctx context.Context, request []byte) ([]byte, error)

// Exchange calls f.
func (f ConnectionFunc) Exchange(ctx context.Context, request []byte) ([]byte, error) {
	return f(ctx, request)
}

func isTestOnly(c Connection) bool {
	t, ok := c.(TestOnly)
	return ok && t.TestOnly()
}

// ExchangeError is implemented by the errors of connections that reach
// real payers over a protocol with its own error codes (CAQH CORE's
// ErrorCode): the payer, or the way to it, gave no X12 answer. The
// eligibility service answers these as the payer being unable to respond
// (AAA 42), naming the code.
type ExchangeError interface {
	error
	// ErrorCode is the protocol's code ("UnAuthorized", "Timeout", ...).
	ErrorCode() string
	// Timeout reports whether the connection's time limit ran out.
	Timeout() bool
}

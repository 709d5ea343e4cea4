package payers

import "context"

// Caller is the account and mode a payer exchange is made for. An
// in-process payer (the test-mode mock) reads it to answer about that
// account's own claims; a real connection never sees it.
type Caller struct {
	AccountID string
	Mode      Mode
}

// exchangeValues is what an exchange's context carries for the payers it
// reaches: its caller, the record of routes tried and the simulations
// noted. The three share one context value (each With… function copies the
// nearest one and replaces its own part), so what a lookup finds is the
// innermost of each, as with a value apiece, while WithExchange sets all
// three with one value and one allocation: an eligibility check sets them
// for every exchange.
type exchangeValues struct {
	caller    Caller
	hasCaller bool
	record    *RouteRecord
	sims      *SimulationLog
}

type exchangeKey struct{}

func exchangeFrom(ctx context.Context) *exchangeValues {
	v, _ := ctx.Value(exchangeKey{}).(*exchangeValues)
	return v
}

// with returns ctx carrying the nearest values with change applied.
func with(ctx context.Context, change func(*exchangeValues)) context.Context {
	var v exchangeValues
	if old := exchangeFrom(ctx); old != nil {
		v = *old
	}
	change(&v)
	return context.WithValue(ctx, exchangeKey{}, &v)
}

// WithCaller returns ctx carrying the caller of an exchange.
func WithCaller(ctx context.Context, c Caller) context.Context {
	return with(ctx, func(v *exchangeValues) { v.caller, v.hasCaller = c, true })
}

// CallerFrom returns the caller ctx carries, if any.
func CallerFrom(ctx context.Context) (Caller, bool) {
	if v := exchangeFrom(ctx); v != nil && v.hasCaller {
		return v.caller, true
	}
	return Caller{}, false
}

// WithExchange is WithCaller, WithRouteRecord and WithSimulationLog at once:
// ctx carrying the caller, a fresh route record and a fresh simulation log.
func WithExchange(ctx context.Context, c Caller) (context.Context, *RouteRecord, *SimulationLog) {
	x := &exchangeContext{Context: ctx, v: exchangeValues{caller: c, hasCaller: true}}
	x.v.record, x.v.sims = &x.rec, &x.sims
	return x, &x.rec, &x.sims
}

// exchangeContext is context.WithValue(ctx, exchangeKey{}, &v) with the
// record and log v points to, in one allocation (WithValue's would be a
// second).
type exchangeContext struct {
	context.Context
	v    exchangeValues
	rec  RouteRecord
	sims SimulationLog
}

func (x *exchangeContext) Value(key any) any {
	if key == (exchangeKey{}) {
		return &x.v
	}
	return x.Context.Value(key)
}

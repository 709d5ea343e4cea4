package upstream

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/payers"
	"github.com/clearhouse/clearhouse/internal/store"
)

// TestAccountRouteUsesTheCallersOwnConnection: a route name resolves to
// the calling account's stored connection in the caller's mode, with that
// account's key; another account, the other mode and a call without a
// caller get the payer-not-configured refusal, which no route fails over
// from, and nothing reaches the upstream.
func TestAccountRouteUsesTheCallersOwnConnection(t *testing.T) {
	w := newClaimWorld(t)
	up := newFakeUpstream(t)
	up.set(func(rw http.ResponseWriter, r *http.Request) {
		rw.Write([]byte(`{"x12":"ISA*answer for ` + r.Header.Get("Authorization") + `"}`))
	})
	w.connect(t, w.account, "mine", up, "2s")
	other := w.newAccount(t, "Other")
	route := &AccountRoute{Name: "mine", Delivery: w.d}
	ctx := context.Background()
	as := func(account string, mode payers.Mode) context.Context {
		return payers.WithCaller(ctx, payers.Caller{AccountID: account, Mode: mode})
	}
	answer, err := route.Exchange(as(w.account, payers.ModeProduction), []byte(claim837))
	if err != nil || string(answer) != "ISA*answer for Key key-mine" {
		t.Fatalf("the owner's exchange: %q, %v", answer, err)
	}
	for name, c := range map[string]context.Context{
		"another account": as(other, payers.ModeProduction),
		"the test mode":   as(w.account, payers.ModeTest),
		"no caller":       ctx,
	} {
		_, err := route.Exchange(c, []byte(claim837))
		var nc *payers.NotConfiguredError
		var fo payers.FailOverer
		if !errors.As(err, &nc) || !strings.Contains(nc.Reason, `connection "mine" is not available`) ||
			!errors.As(err, &fo) || fo.FailOver() {
			t.Errorf("%s: %v", name, err)
		}
	}
	if got := up.received(); len(got) != 1 {
		t.Errorf("the upstream got %d requests, want the owner's 1", len(got))
	}
	// A stored connection of another type is no route either.
	c := store.Connection{ID: "files", AccountID: w.account, Mode: store.ModeProduction, Type: store.ConnectionHTTPUpload, Settings: []byte("{}")}
	if err := w.st.CreateConnection(ctx, c); err != nil {
		t.Fatal(err)
	}
	if _, err := (&AccountRoute{Name: "files", Delivery: w.d}).Exchange(as(w.account, payers.ModeProduction), []byte(claim837)); !errors.Is(err, payers.ErrNotConfigured) {
		t.Errorf("an HTTP_UPLOAD connection as a route: %v", err)
	}
}

// TestAccountRouteBreakersAreTheCallers: two accounts each store a
// connection named "mine" (the payer's first eligibility route). Account
// A's upstream is down: A's checks fail over and its breaker of "mine"
// opens, for A only. Account B's checks still go to B's own upstream.
// (Breakers are per mode too: payers.TestBreakersPerTenant.)
func TestAccountRouteBreakersAreTheCallers(t *testing.T) {
	w := newClaimWorld(t)
	downA, upB := newFakeUpstream(t), newFakeUpstream(t)
	downA.set(status(http.StatusInternalServerError))
	upB.set(func(rw http.ResponseWriter, r *http.Request) {
		rw.Write([]byte(`{"x12":"ISA*answer from B's upstream"}`))
	})
	accountB := w.newAccount(t, "Other clinic")
	w.connect(t, w.account, "mine", downA, "2s")
	w.connect(t, accountB, "mine", upB, "2s")

	dir, err := payers.Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["mine", "fallback"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	fallback := payers.ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return []byte("ISA*fallback"), nil })
	r, err := payers.NewRouterWith(dir, payers.ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return nil, nil }),
		map[string]payers.Connection{"mine": &AccountRoute{Name: "mine", Delivery: w.d}, "fallback": fallback},
		payers.RouterOptions{Breakers: map[string]payers.BreakerSettings{"mine": {Failures: 2, OpenFor: time.Hour}}})
	if err != nil {
		t.Fatal(err)
	}
	route, err := r.Route(payers.ModeProduction, "87726", payers.Eligibility)
	if err != nil {
		t.Fatal(err)
	}
	a := payers.Caller{AccountID: w.account, Mode: payers.ModeProduction}
	b := payers.Caller{AccountID: accountB, Mode: payers.ModeProduction}
	send := func(c payers.Caller) string {
		t.Helper()
		answer, err := route.Connection.Exchange(payers.WithCaller(context.Background(), c), []byte("270"))
		if err != nil {
			t.Fatalf("exchange: %v", err)
		}
		return string(answer)
	}
	for i := range 3 {
		if got := send(a); got != "ISA*fallback" {
			t.Fatalf("A's check %d: %q, want the fallback's answer", i+1, got)
		}
	}
	if n := len(downA.received()); n != 2 {
		t.Errorf("A's upstream got %d requests, want 2 (the third skipped: A's breaker is open)", n)
	}
	if s := r.BreakerState(a, "mine"); s != payers.BreakerOpen {
		t.Errorf("A's breaker of mine: %s, want open", s)
	}
	for i := range 3 {
		if got := send(b); got != "ISA*answer from B's upstream" {
			t.Fatalf("B's check %d: %q, want B's own upstream's answer (A's outages must not skip B's route)", i+1, got)
		}
	}
	if s := r.BreakerState(b, "mine"); s != payers.BreakerClosed {
		t.Errorf("B's breaker of mine: %s, want closed", s)
	}
}

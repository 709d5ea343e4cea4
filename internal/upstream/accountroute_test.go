package upstream

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"

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

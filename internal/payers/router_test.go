package payers

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"
)

// fakeConn records that it was used; testOnly marks it as a mock.
type fakeConn struct {
	name     string
	testOnly bool
	calls    int
}

func (f *fakeConn) Exchange(context.Context, []byte) ([]byte, error) {
	f.calls++
	return []byte(f.name), nil
}

func (f *fakeConn) TestOnly() bool { return f.testOnly }

func newTestRouter(t *testing.T) (*Router, *fakeConn, *fakeConn) {
	t.Helper()
	dir, err := Default().WithOverrides([]byte(`{"payers": [
		{"id": "87726", "connection": "core-uhc"},
		{"id": "62308", "connection": "unregistered"}
	]}`))
	if err != nil {
		t.Fatal(err)
	}
	mock := &fakeConn{name: "mock", testOnly: true}
	prod := &fakeConn{name: "core-uhc"}
	r, err := NewRouter(dir, mock, map[string]Connection{"core-uhc": prod})
	if err != nil {
		t.Fatal(err)
	}
	return r, mock, prod
}

func TestRouterTestModeAlwaysMock(t *testing.T) {
	r, mock, prod := newTestRouter(t)
	// Configured, unconfigured and mock-set payers alike go to the mock.
	for _, id := range []string{"87726", "62308", "60054", "00590", "cms"} {
		route, err := r.Route(ModeTest, id, Eligibility)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if route.ConnectionName != MockConnectionName {
			t.Errorf("%s: connection %q", id, route.ConnectionName)
		}
		if _, err := route.Connection.Exchange(context.Background(), nil); err != nil {
			t.Fatal(err)
		}
	}
	if prod.calls != 0 {
		t.Fatalf("test mode reached the production connection %d times", prod.calls)
	}
	if mock.calls != 5 {
		t.Fatalf("mock calls = %d, want 5", mock.calls)
	}
}

func TestRouterProductionNeverMock(t *testing.T) {
	r, mock, prod := newTestRouter(t)
	route, err := r.Route(ModeProduction, "87726", Eligibility)
	if err != nil {
		t.Fatal(err)
	}
	if route.ConnectionName != "core-uhc" || route.Payer.ID != "87726" {
		t.Errorf("route = %+v", route)
	}
	if _, err := route.Connection.Exchange(context.Background(), nil); err != nil {
		t.Fatal(err)
	}
	// Mock-set payers without a connection are not configured in production.
	for _, id := range []string{"60054", "62308", "CMS", "MBILU"} {
		_, err := r.Route(ModeProduction, id, Eligibility)
		var nc *NotConfiguredError
		if !errors.Is(err, ErrNotConfigured) || !errors.As(err, &nc) || nc.PayerID != id {
			t.Errorf("%s: err = %v, want NotConfiguredError", id, err)
		}
	}
	if mock.calls != 0 {
		t.Fatalf("production reached the mock %d times", mock.calls)
	}
	if prod.calls != 1 {
		t.Fatalf("production calls = %d", prod.calls)
	}
}

func TestRouterErrors(t *testing.T) {
	r, _, _ := newTestRouter(t)
	for _, mode := range []Mode{ModeTest, ModeProduction} {
		_, err := r.Route(mode, "FOO", Eligibility)
		if !errors.Is(err, ErrNotConfigured) || err.Error() != "Payer FOO is not configured: unknown payer id; check the payer directory for the id to use" {
			t.Errorf("%s unknown payer: %v", mode, err)
		}
		_, err = r.Route(mode, "52133", ProfessionalClaim)
		if !errors.Is(err, ErrTransactionNotSupported) || err.Error() != "Payer connection does not support 837P" {
			t.Errorf("%s unsupported transaction: %v", mode, err)
		}
		if errors.Is(err, ErrNotConfigured) {
			t.Errorf("%s: unsupported transaction also reads as not configured", mode)
		}
	}
	if _, err := r.Route("information", "87726", Eligibility); err == nil {
		t.Error("unknown mode accepted")
	}
}

func TestNewRouterRefusesMockInProduction(t *testing.T) {
	mock := &fakeConn{name: "mock", testOnly: true}
	tests := map[string]map[string]Connection{
		"test-only connection": {"core": &fakeConn{testOnly: true}},
		"reserved name":        {"Mock": &fakeConn{}},
		"empty name":           {"": &fakeConn{}},
		"nil connection":       {"core": nil},
	}
	for name, prod := range tests {
		if _, err := NewRouter(Default(), mock, prod); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	if _, err := NewRouter(Default(), nil, nil); err == nil {
		t.Error("router without mock accepted")
	}
	if _, err := NewRouter(nil, mock, nil); err == nil {
		t.Error("router without directory accepted")
	}
	r, err := NewRouter(Default(), mock, map[string]Connection{"b": ConnectionFunc(nil), "a": &fakeConn{}})
	if err != nil {
		t.Fatal(err)
	}
	if got := r.ConnectionNames(); len(got) != 2 || got[0] != "a" {
		t.Errorf("ConnectionNames = %v", got)
	}
}

// TestRouteFoundIsRoute: for a payer already looked up, RouteFound gives
// what Route gives — connection, payer, error text — in both modes, for
// configured, unconfigured, mock-set and alias ids (as sent, with spaces
// and in lower case) and unsupported transactions.
func TestRouteFoundIsRoute(t *testing.T) {
	r, _, _ := newTestRouter(t)
	for _, mode := range []Mode{ModeTest, ModeProduction, "information"} {
		for _, id := range []string{"87726", " 87726 ", "62308", "60054", "cms", "CMS", "MBILU", "52133"} {
			for _, tx := range []string{Eligibility, ClaimStatus, ProfessionalClaim} {
				p, ok := r.Directory().Lookup(id)
				if !ok {
					t.Fatalf("%q is not in the directory", id)
				}
				want, wantErr := r.Route(mode, id, tx)
				got, gotErr := r.RouteFound(mode, id, p, tx)
				if fmt.Sprint(wantErr) != fmt.Sprint(gotErr) || reflect.TypeOf(wantErr) != reflect.TypeOf(gotErr) {
					t.Errorf("%s %q %s: error %v, want %v", mode, id, tx, gotErr, wantErr)
				}
				if got.ConnectionName != want.ConnectionName || got.Connection != want.Connection || !reflect.DeepEqual(got.Payer, want.Payer) {
					t.Errorf("%s %q %s: route %+v, want %+v", mode, id, tx, got, want)
				}
			}
		}
	}
}

// TestExchangeValuesNest: WithExchange sets the caller, the route record
// and the simulation log in one value; WithCaller, WithRouteRecord and
// WithSimulationLog replace only their own part, inside or outside it, and
// each lookup finds the innermost of its own part.
func TestExchangeValuesNest(t *testing.T) {
	bg := context.Background()
	if _, ok := CallerFrom(bg); ok || routeRecordFrom(bg) != nil {
		t.Fatal("an empty context carries exchange values")
	}
	NoteSimulation(bg, Simulation{Scenario: "nowhere"}) // no log: nothing happens

	c1, c2 := Caller{AccountID: "a1", Mode: ModeTest}, Caller{AccountID: "a2", Mode: ModeProduction}
	ctx1, rec1, sims1 := WithExchange(bg, c1)
	ctx2 := WithCaller(ctx1, c2)
	ctx3, sims3 := WithSimulationLog(ctx2)
	ctx4, rec4 := WithRouteRecord(ctx3)
	outer, recOuter := WithRouteRecord(WithCaller(bg, c2))
	ctx5, rec5, sims5 := WithExchange(outer, c1)
	for _, tc := range []struct {
		name   string
		ctx    context.Context
		caller Caller
		rec    *RouteRecord
		sims   *SimulationLog
	}{
		{"exchange", ctx1, c1, rec1, sims1},
		{"caller inside", ctx2, c2, rec1, sims1},
		{"log inside", ctx3, c2, rec1, sims3},
		{"record inside", ctx4, c2, rec4, sims3},
		{"caller and record outside", outer, c2, recOuter, nil},
		{"exchange inside them", ctx5, c1, rec5, sims5},
	} {
		if c, ok := CallerFrom(tc.ctx); !ok || c != tc.caller {
			t.Errorf("%s: caller %+v %v, want %+v", tc.name, c, ok, tc.caller)
		}
		if rec := routeRecordFrom(tc.ctx); rec != tc.rec {
			t.Errorf("%s: another route record", tc.name)
		}
		NoteSimulation(tc.ctx, Simulation{Scenario: tc.name})
		if tc.sims != nil {
			if all := tc.sims.All(); len(all) == 0 || all[len(all)-1].Scenario != tc.name {
				t.Errorf("%s: simulation noted elsewhere: %+v", tc.name, all)
			}
		}
	}
	if n := len(sims1.All()); n != 2 {
		t.Errorf("the exchange's own log has %d simulations, want 2", n)
	}
}

// WithExchange is one allocation: its values, record, log and context.
func TestWithExchangeAllocations(t *testing.T) {
	ctx := context.Background()
	c := Caller{AccountID: "a1", Mode: ModeTest}
	if n := testing.AllocsPerRun(100, func() { _, _, _ = WithExchange(ctx, c) }); n != 1 {
		t.Errorf("WithExchange: %v allocations, want 1", n)
	}
}

package payers

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"
)

// outage is an error another route may cure; refusal is one it may not.
type testErr struct{ failOver bool }

func (e testErr) Error() string  { return fmt.Sprintf("test error (failOver=%v)", e.failOver) }
func (e testErr) FailOver() bool { return e.failOver }

// aaa42 is a 271 whose payer says it cannot answer now.
const aaa42 = "ISA*00*          *00*          *ZZ*87726          *ZZ*CLEARHOUSE     *261126*0400*^*00501*000000001*0*P*:~" +
	"GS*HB*87726*CLEARHOUSE*20261126*0400*1*X*005010X279A1~ST*271*0001*005010X279A1~BHT*0022*11*1*20261126*0400~" +
	"HL*1**20*1~NM1*PR*2*UHC*****PI*87726~AAA*Y**42*R~SE*6*0001~GE*1*1~IEA*1*000000001~"

type routeConn struct {
	mu    sync.Mutex
	calls int
	do    func() ([]byte, error)
}

func (f *routeConn) Exchange(context.Context, []byte) ([]byte, error) {
	f.mu.Lock()
	f.calls++
	f.mu.Unlock()
	return f.do()
}

func answer(s string) func() ([]byte, error) { return func() ([]byte, error) { return []byte(s), nil } }
func fail(fo bool) func() ([]byte, error)    { return func() ([]byte, error) { return nil, testErr{fo} } }

func TestFailoverRoutes(t *testing.T) {
	tests := []struct {
		name         string
		a, b         func() ([]byte, error)
		want         string // answer, or "error"
		wantAnswered string
		wantCallsB   int
		wantFailover int
	}{
		{"first answers", answer("271 from a"), answer("271 from b"), "271 from a", "a", 0, 0},
		{"outage moves on", fail(true), answer("271 from b"), "271 from b", "b", 1, 1},
		{"refusal stays", fail(false), answer("271 from b"), "error", "a", 0, 0},
		{"AAA 42 moves on", answer(aaa42), answer("271 from b"), "271 from b", "b", 1, 1},
		{"both down: last outage", fail(true), fail(true), "error", "b", 1, 2},
		{"both AAA 42: the payer's words", answer(aaa42), answer(aaa42), aaa42, "b", 1, 2},
	}
	dir, err := Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["a", "b"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, b := &routeConn{do: tt.a}, &routeConn{do: tt.b}
			r, err := NewRouter(dir, ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return nil, nil }),
				map[string]Connection{"a": a, "b": b})
			if err != nil {
				t.Fatal(err)
			}
			route, err := r.Route(ModeProduction, "87726", Eligibility)
			if err != nil {
				t.Fatal(err)
			}
			if route.ConnectionName != "a,b" {
				t.Errorf("ConnectionName = %q", route.ConnectionName)
			}
			ctx, rec := WithRouteRecord(context.Background())
			got, err := route.Connection.Exchange(ctx, []byte("270"))
			if tt.want == "error" {
				if err == nil {
					t.Fatalf("answer %q, want an error", got)
				}
			} else if err != nil || string(got) != tt.want {
				t.Fatalf("Exchange = %q, %v; want %q", got, err, tt.want)
			}
			answered, failovers := rec.Answer()
			if answered != tt.wantAnswered || failovers != tt.wantFailover || b.calls != tt.wantCallsB {
				t.Errorf("answered by %q after %d failovers, b called %d times; want %q, %d, %d",
					answered, failovers, b.calls, tt.wantAnswered, tt.wantFailover, tt.wantCallsB)
			}
		})
	}
}

func TestBreakerOpensAndProbes(t *testing.T) {
	dir, _ := Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["a", "b"]}}]}`))
	now := time.Date(2026, 11, 26, 4, 0, 0, 0, time.UTC)
	a, b := &routeConn{do: fail(true)}, &routeConn{do: answer("271 from b")}
	var events []string
	r, err := NewRouterWith(dir, ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return nil, nil }),
		map[string]Connection{"a": a, "b": b}, RouterOptions{
			Breakers: map[string]BreakerSettings{"a": {Failures: 2, OpenFor: 10 * time.Second}},
			Observe:  func(e RouteEvent) { events = append(events, e.Connection+":"+e.Outcome) },
			Now:      func() time.Time { return now },
		})
	if err != nil {
		t.Fatal(err)
	}
	check := func(want string) {
		t.Helper()
		route, _ := r.Route(ModeProduction, "87726", Eligibility)
		got, err := route.Connection.Exchange(context.Background(), nil)
		if err != nil || string(got) != want {
			t.Fatalf("Exchange = %q, %v; want %q", got, err, want)
		}
	}
	check("271 from b")
	check("271 from b") // the second outage in a row opens a's breaker
	if s := r.BreakerState(Caller{}, "a"); s != BreakerOpen {
		t.Fatalf("breaker of a is %s after 2 outages", s)
	}
	check("271 from b") // a is skipped: not called
	if a.calls != 2 {
		t.Errorf("a called %d times while open, want 2", a.calls)
	}
	now = now.Add(11 * time.Second)
	if s := r.BreakerState(Caller{}, "a"); s != BreakerHalfOpen {
		t.Errorf("breaker of a is %s after its open time", s)
	}
	check("271 from b") // the probe fails: open again
	if a.calls != 3 || r.BreakerState(Caller{}, "a") != BreakerOpen {
		t.Errorf("after a failed probe: a called %d times, breaker %s", a.calls, r.BreakerState(Caller{}, "a"))
	}
	now = now.Add(11 * time.Second)
	a.do = answer("271 from a")
	check("271 from a") // the probe succeeds: closed
	if r.BreakerState(Caller{}, "a") != BreakerClosed {
		t.Errorf("breaker of a is %s after a good probe", r.BreakerState(Caller{}, "a"))
	}
	want := "a:failover b:answered a:failover b:answered a:skipped b:answered a:failover b:answered a:answered"
	if got := strings.Join(events, " "); got != want {
		t.Errorf("events:\n got %s\nwant %s", got, want)
	}
}

func TestAllRoutesOpen(t *testing.T) {
	dir, _ := Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["a", "b"]}}]}`))
	down := &routeConn{do: fail(true)}
	r, _ := NewRouterWith(dir, ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return nil, nil }),
		map[string]Connection{"a": down, "b": down}, RouterOptions{Breakers: map[string]BreakerSettings{
			"a": {Failures: 1, OpenFor: time.Hour}, "b": {Failures: 1, OpenFor: time.Hour}}})
	route, _ := r.Route(ModeProduction, "87726", Eligibility)
	route.Connection.Exchange(context.Background(), nil)
	_, err := route.Connection.Exchange(context.Background(), nil)
	var coded ExchangeError
	if !errors.Is(err, ErrAllRoutesOpen) || !errors.As(err, &coded) || coded.ErrorCode() != "CircuitOpen" {
		t.Fatalf("err = %v, want ErrAllRoutesOpen as an ExchangeError", err)
	}
	if down.calls != 2 {
		t.Errorf("connections called %d times, want 2 (nothing sent while open)", down.calls)
	}
}

func TestRoutesValidation(t *testing.T) {
	bad := map[string]string{
		"unknown type":   `{"payers": [{"id": "87726", "connections": {"remits": ["a"]}}]}`,
		"empty list":     `{"payers": [{"id": "87726", "connections": {"eligibility": []}}]}`,
		"repeated route": `{"payers": [{"id": "87726", "connections": {"eligibility": ["a", "a"]}}]}`,
	}
	for name, data := range bad {
		if _, err := Default().WithOverrides([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	d, err := Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connection": "x", "connections": {"claims": ["c1", "c2"]}}]}`))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := d.Lookup("87726")
	if got := strings.Join(p.RoutesFor(Eligibility), ","); got != "x" {
		t.Errorf("eligibility routes = %s, want the single connection", got)
	}
	if got := strings.Join(p.RoutesFor(DentalClaim), ","); got != "c1,c2" {
		t.Errorf("claim routes = %s", got)
	}
}

// TestBreakersPerTenant: a route's breaker is kept per account and mode.
// One tenant's outages (its own requests failing at a shared upstream, or
// its own stored connection of that name being down) open the route for
// that tenant only; every other account, and the same account's other
// mode, still reaches it.
func TestBreakersPerTenant(t *testing.T) {
	dir, _ := Default().WithOverrides([]byte(`{"payers": [{"id": "87726", "connections": {"eligibility": ["shared", "b"]}}]}`))
	acctA := Caller{AccountID: "acct-a", Mode: ModeProduction}
	tests := []struct {
		name  string
		other Caller // a tenant that sends after acctA's outages
	}{
		{"another account", Caller{AccountID: "acct-b", Mode: ModeProduction}},
		{"the same account's other mode", Caller{AccountID: "acct-a", Mode: ModeTest}},
		{"no caller", Caller{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			// shared fails for acctA only: the upstream refuses what A sends
			// with a 5xx, and answers everyone else.
			shared := ConnectionFunc(func(ctx context.Context, _ []byte) ([]byte, error) {
				if c, _ := CallerFrom(ctx); c == acctA {
					return nil, testErr{failOver: true}
				}
				return []byte("271 from shared"), nil
			})
			b := &routeConn{do: answer("271 from b")}
			r, err := NewRouterWith(dir, ConnectionFunc(func(context.Context, []byte) ([]byte, error) { return nil, nil }),
				map[string]Connection{"shared": shared, "b": b}, RouterOptions{
					Breakers: map[string]BreakerSettings{"shared": {Failures: 2, OpenFor: time.Hour}}})
			if err != nil {
				t.Fatal(err)
			}
			route, _ := r.Route(ModeProduction, "87726", Eligibility)
			send := func(c Caller) string {
				got, err := route.Connection.Exchange(WithCaller(context.Background(), c), nil)
				if err != nil {
					t.Fatalf("Exchange for %+v: %v", c, err)
				}
				return string(got)
			}
			for range 3 {
				if got := send(acctA); got != "271 from b" {
					t.Fatalf("A got %q, want b's answer", got)
				}
			}
			if s := r.BreakerState(acctA, "shared"); s != BreakerOpen {
				t.Fatalf("A's breaker of shared is %s after its outages, want open", s)
			}
			if s := r.BreakerState(tt.other, "shared"); s != BreakerClosed {
				t.Errorf("%s's breaker of shared is %s, want closed", tt.name, s)
			}
			if got := send(tt.other); got != "271 from shared" {
				t.Errorf("%s got %q, want shared's answer (A's outages must not skip it)", tt.name, got)
			}
			if s := r.BreakerState(acctA, "shared"); s != BreakerOpen {
				t.Errorf("A's breaker of shared is %s after another tenant's answer, want still open", s)
			}
		})
	}
}

// TestBreakerSetStaysBounded: idle breakers of tenants that come and go
// are dropped, open ones are kept.
func TestBreakerSetStaysBounded(t *testing.T) {
	s := newBreakerSet(nil)
	now := time.Now()
	open := s.get(Caller{AccountID: "down", Mode: ModeProduction}, "a")
	for range DefaultBreakerFailures {
		open.failure(now)
	}
	for i := range 3 * maxIdleBreakers {
		s.get(Caller{AccountID: fmt.Sprint("acct-", i), Mode: ModeProduction}, "a")
	}
	if n := len(s.m); n > maxIdleBreakers+1 {
		t.Errorf("%d breakers kept, want at most %d", n, maxIdleBreakers+1)
	}
	if st := s.state(Caller{AccountID: "down", Mode: ModeProduction}, "a", now); st != BreakerOpen {
		t.Errorf("the open breaker was dropped (state %s)", st)
	}
}

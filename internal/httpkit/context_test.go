package httpkit

import (
	"context"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/auth"
)

type otherKey struct{}

// The request's own context types (InfoContext, WithPrincipal's) must be
// what context.WithValue would have made: the innermost value wins, other
// keys reach the parent, and cancellation and deadlines pass through.
func TestRequestContextsAreValueContexts(t *testing.T) {
	parent, cancel := context.WithDeadline(context.WithValue(context.Background(), otherKey{}, "outer"), time.Now().Add(time.Hour))
	ic := &InfoContext{Context: parent}
	ic.Info.ID = "req-1"
	var ctx context.Context = ic
	if InfoFrom(ctx) != &ic.Info || RequestID(ctx) != "req-1" {
		t.Fatal("InfoFrom does not find the InfoContext's Info")
	}
	if PrincipalFrom(ctx) != (auth.Principal{}) {
		t.Fatal("a principal before authentication")
	}
	p1 := auth.Principal{AccountID: "acc_1", KeyID: "key_1", Mode: "test"}
	p2 := auth.Principal{AccountID: "acc_2", KeyID: "key_2", Mode: "live"}
	c1 := WithPrincipal(ctx, p1)
	c2 := WithPrincipal(context.WithValue(c1, otherKey{}, "inner"), p2)
	for _, tc := range []struct {
		ctx   context.Context
		p     auth.Principal
		other string
	}{{ctx, auth.Principal{}, "outer"}, {c1, p1, "outer"}, {c2, p2, "inner"}} {
		if got := PrincipalFrom(tc.ctx); got != tc.p {
			t.Errorf("principal %+v, want %+v", got, tc.p)
		}
		if got := tc.ctx.Value(otherKey{}); got != tc.other {
			t.Errorf("other value %v, want %v", got, tc.other)
		}
		if InfoFrom(tc.ctx) != &ic.Info {
			t.Error("Info lost under a principal")
		}
		if d, ok := tc.ctx.Deadline(); !ok || d.IsZero() {
			t.Error("deadline lost")
		}
	}
	if ic.Info.Principal != p2 {
		t.Errorf("Info's principal %+v, want the last one set", ic.Info.Principal)
	}
	// What PrincipalFrom hands out is a copy: changing it changes nothing.
	got := PrincipalFrom(c1)
	got.AccountID = "changed"
	if PrincipalFrom(c1) != p1 {
		t.Fatal("PrincipalFrom handed out the context's own principal")
	}
	child, stop := context.WithCancel(c2)
	defer stop()
	cancel()
	select {
	case <-child.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("cancelling the request did not reach a context made under its principal")
	}
	if c1.Err() != context.Canceled || c2.Err() != context.Canceled {
		t.Fatal("Err does not pass through")
	}
}

// WithPrincipal is one allocation (context.WithValue and the principal in
// an interface were two).
func TestWithPrincipalAllocations(t *testing.T) {
	ctx := &InfoContext{Context: context.Background()}
	p := auth.Principal{AccountID: "acc_1", KeyID: "key_1", Mode: "test"}
	var sink context.Context
	if n := testing.AllocsPerRun(100, func() { sink = WithPrincipal(ctx, p) }); n != 1 {
		t.Errorf("WithPrincipal: %v allocations, want 1", n)
	}
	if n := testing.AllocsPerRun(100, func() { p = PrincipalFrom(sink) }); n != 0 {
		t.Errorf("PrincipalFrom: %v allocations, want 0", n)
	}
}

// SourceOf returns an IPv4 peer's address as it came, and that is what
// net.IP.String made of it (the failure table's keys are unchanged).
func TestSourceOfKeysUnchanged(t *testing.T) {
	old := func(remote string) string {
		host, _, err := net.SplitHostPort(remote)
		if err != nil {
			host = remote
		}
		ip := net.ParseIP(host)
		if ip == nil {
			return host
		}
		if ip.To4() == nil {
			return ip.Mask(net.CIDRMask(64, 128)).String() + "/64"
		}
		return ip.String()
	}
	remotes := []string{"127.0.0.1:5000", "10.0.0.255:1", "0.0.0.0:80", "255.255.255.255:65535", "1.2.3.4",
		"[::1]:80", "[::ffff:127.0.0.1]:80", "[::ffff:7f00:1]:80", "[2001:db8::1]:443", "[fe80::1%eth0]:80",
		"01.2.3.4:80", "1.2.3:80", "1.2.3.4.5:80", "", "garbage", "[1.2.3.4]:80", "1.2.3.04:80", "[::]:1"}
	for a := 0; a < 256; a += 17 {
		for b := 0; b < 256; b += 51 {
			remotes = append(remotes, net.JoinHostPort(net.IPv4(byte(a), byte(b), byte(a^b), byte(255-a)).String(), "8080"))
		}
	}
	for _, remote := range remotes {
		r := &http.Request{RemoteAddr: remote}
		if got, want := SourceOf(r), old(remote); got != want {
			t.Errorf("SourceOf(%q) = %q, want %q", remote, got, want)
		}
	}
	r := &http.Request{RemoteAddr: "192.168.10.20:41234"}
	if n := testing.AllocsPerRun(100, func() { _ = SourceOf(r) }); n > 1 {
		t.Errorf("SourceOf of an IPv4 peer: %v allocations", n)
	}
}

package netguard_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/netguard"
)

func TestCheck(t *testing.T) {
	strict := netguard.New(netguard.Options{})
	loose := netguard.New(netguard.Options{AllowPrivate: true})
	tests := []struct {
		addr          string
		strict, loose bool // allowed?
	}{
		{"93.184.215.14:443", true, true},
		{"[2606:2800:21f:cb07:6820:80da:af6b:8b2c]:443", true, true},
		{"127.0.0.1:8080", false, true},
		{"[::1]:80", false, true},
		{"10.1.2.3:443", false, true},
		{"172.16.0.1:443", false, true},
		{"192.168.1.1:22", false, true},
		{"100.64.0.1:443", false, true},
		{"169.254.169.254:80", false, false},
		{"[fd00:ec2::254]:80", false, false},
		{"0.0.0.0:80", false, true},
		{"[::ffff:127.0.0.1]:80", false, true},
	}
	for _, tt := range tests {
		if got := strict.Check("tcp4", tt.addr, nil) == nil; got != tt.strict {
			t.Errorf("strict %s allowed=%v, want %v", tt.addr, got, tt.strict)
		}
		if got := loose.Check("tcp4", tt.addr, nil) == nil; got != tt.loose {
			t.Errorf("AllowPrivate %s allowed=%v, want %v", tt.addr, got, tt.loose)
		}
	}
}

func TestClientRefusesLoopbackAndRedirects(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/go" {
			http.Redirect(w, r, "/there", http.StatusFound)
			return
		}
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()

	_, err := netguard.New(netguard.Options{}).Client(time.Second).Get(srv.URL)
	if !errors.Is(err, netguard.ErrBlocked) {
		t.Fatalf("strict client reached loopback: err = %v", err)
	}

	c := netguard.New(netguard.Options{AllowPrivate: true}).Client(time.Second)
	resp, err := c.Get(srv.URL + "/go")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		t.Fatalf("status %d: the client followed a redirect", resp.StatusCode)
	}
	conn, err := netguard.New(netguard.Options{}).DialContext(context.Background(), "tcp", srv.Listener.Addr().String())
	if err == nil {
		conn.Close()
		t.Fatal("strict dialer reached loopback")
	}
}

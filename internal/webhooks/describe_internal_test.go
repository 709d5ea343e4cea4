package webhooks

import (
	"fmt"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestDescribeHidesTheResolver: a webhook whose host does not resolve
// says so, without the address of the server's DNS resolver that Go's
// error names (before: "lookup hooks.invalid on 10.255.255.53:53: no such
// host" in the tenant's delivery log).
func TestDescribeHidesTheResolver(t *testing.T) {
	dns := &net.DNSError{Err: "no such host", Name: "hooks.invalid", Server: "10.255.255.53:53", IsNotFound: true}
	err := &url.Error{Op: "Post", URL: "https://hooks.invalid/", Err: &net.OpError{Op: "dial", Net: "tcp", Err: dns}}
	got := describe(fmt.Errorf("deliver: %w", err), time.Second)
	if strings.Contains(got, "10.255.255.53") || !strings.Contains(got, "hooks.invalid") || !strings.Contains(got, "no such host") {
		t.Errorf("describe: %q", got)
	}
}

package logsafe

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"strings"
	"syscall"
	"testing"

	"github.com/clearhouse/clearhouse/internal/netguard"
)

// described is an error of ours that knows what of it is safe.
type described struct{ secret string }

func (d described) Error() string   { return "upstream said: " + d.secret }
func (d described) LogSafe() string { return "upstream X: HTTP 500" }

func TestDescribe(t *testing.T) {
	const phi = "Phiona Secretson PHIMEMBER77"
	tests := []struct {
		name string
		err  error
		want string
	}{
		{"nil", nil, ""},
		{"a Describer", described{phi}, "upstream X: HTTP 500"},
		{"a Describer wrapped in text", fmt.Errorf("claim for %s: %w", phi, described{phi}), "upstream X: HTTP 500"},
		{"joined", errors.Join(described{phi}, context.DeadlineExceeded), "upstream X: HTTP 500; time limit"},
		{"time limit", fmt.Errorf("waiting for %s: %w", phi, context.DeadlineExceeded), "time limit"},
		{"canceled", context.Canceled, "canceled"},
		{"refused", &net.OpError{Op: "dial", Net: "tcp", Err: &net.AddrError{Err: phi}}, "network dial: error of type *net.AddrError"},
		{"errno", &net.OpError{Op: "dial", Net: "tcp", Err: syscall.ECONNREFUSED}, "network dial: connection refused"},
		{"dns", &net.DNSError{Err: "no such host", Name: phi, IsNotFound: true}, "dns: no such host"},
		{"ssrf guard", fmt.Errorf("dial %s: %w", phi, netguard.ErrBlocked), "address refused by the SSRF guard"},
		{"file", &fs.PathError{Op: "open", Path: "/data/" + phi + ".x12", Err: fs.ErrNotExist}, "file open: does not exist"},
		{"file errno", &fs.PathError{Op: "rename", Path: phi, Err: syscall.EACCES}, "file rename: permission denied"},
		{"anything else", errors.New(phi), "error of type *errors.errorString"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Describe(tt.err)
			if got != tt.want {
				t.Errorf("Describe = %q, want %q", got, tt.want)
			}
			if strings.Contains(got, "PHIMEMBER77") || strings.Contains(got, "Phiona") {
				t.Errorf("Describe holds the error's data: %q", got)
			}
		})
	}
}

package main

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/netguard"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/x12"
)

// dental837 is the 837D of the claims package's example request.
func dental837(t *testing.T, memberID string) []byte {
	t.Helper()
	b, err := os.ReadFile("../../internal/claims/testdata/example.json")
	if err != nil {
		t.Fatal(err)
	}
	var r claims.Request
	if err := json.Unmarshal(b, &r); err != nil {
		t.Fatal(err)
	}
	if memberID != "" {
		r.Subscriber.MemberID = memberID
	}
	built, err := claims.Build837D(&r, claims.BuildOptions{Envelope: claims.Envelope{SenderID: "CLEARHOUSE"},
		Numbers: &x12.SequentialControlNumbers{Interchange: 100, Group: 100}, PayerID: r.TradingPartnerServiceID,
		CorrelationID: "CORR1", Now: time.Now()})
	if err != nil {
		t.Fatal(err)
	}
	return built.X12
}

// TestDentalClaimOverSFTPToMockpayer: our SFTP connection delivers an 837D
// to `mockpayer serve`'s SFTP side (temporary name, then rename) and polls
// back its 999 and 277CA; a wrong password and an unpinned host key fail
// at the step that is wrong.
func TestDentalClaimOverSFTPToMockpayer(t *testing.T) {
	_, side := startMockpayerLogs(t, "--username", "clearhouse", "--password", "mock-pw", "--sftp-listen", "127.0.0.1:0")
	if side.addr == "" {
		t.Fatal("no SFTP side")
	}
	key, _ := secrets.ParseKey(secrets.NewKey())
	box, _ := secrets.New(key)
	host, port, _ := net.SplitHostPort(side.addr)
	portN, _ := strconv.Atoi(port)
	def := func(id, pw, hostKey string) connections.Definition {
		sealed, _ := box.SealString(pw, connections.SealContext(id, connections.FieldPassword))
		return connections.Definition{ID: id, Type: connections.SFTP, Host: host, Port: portN, Username: "clearhouse",
			Password: sealed, HostKey: hostKey, OutboundDir: "inbound", InboundDir: "outbound"}
	}
	set, err := connections.NewSet([]connections.Definition{
		def("mock-sftp", "mock-pw", side.hostKey), def("bad-pw", "nope", side.hostKey),
		def("bad-host", "mock-pw", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl"),
	}, box)
	if err != nil {
		t.Fatal(err)
	}
	opts := connections.Options{Guard: netguard.New(netguard.Options{AllowPrivate: true})}
	ctx := context.Background()
	remote, err := set.SFTPClient(mustGet(t, set, "mock-sftp"), opts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := remote.Deliver(ctx, "claims-1.x12", dental837(t, "")); err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	n, err := remote.Poll(ctx, func(_ context.Context, name, _ string, body io.Reader) error {
		b, _ := io.ReadAll(body)
		got[name] = string(b)
		return nil
	})
	if err != nil || n != 3 {
		t.Fatalf("poll: %d files, %v", n, err)
	}
	if !strings.Contains(got["claims-1-999.x12"], "ST*999*") || !strings.Contains(got["claims-1-277CA.x12"], "ST*277*") ||
		!strings.Contains(got["claims-1-277CA.x12"], "STC*A2:20") || !strings.Contains(got["claims-1-835.x12"], "ST*835*") {
		t.Errorf("answers %v", got)
	}
	if n, _ := remote.Poll(ctx, func(context.Context, string, string, io.Reader) error { return nil }); n != 0 {
		t.Errorf("answers handed over twice (%d)", n)
	}
	for id, step := range map[string]string{"bad-pw": "auth", "bad-host": "ssh"} {
		r, _ := set.SFTPClient(mustGet(t, set, id), opts, nil)
		_, err := r.Deliver(ctx, "claims-2.x12", dental837(t, ""))
		var se *connections.SFTPError
		if !errors.As(err, &se) || se.Step != step {
			t.Errorf("%s: %v, want step %s", id, err, step)
		}
	}
}

func mustGet(t *testing.T, s *connections.Set, id string) connections.Definition {
	t.Helper()
	d, err := s.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

// TestMockpayerChild is the body of startMockpayer's child process.
func TestMockpayerChild(t *testing.T) {
	if os.Getenv("CLEARHOUSE_MOCKPAYER_CHILD") != "1" {
		return // runs only as startMockpayer's child process
	}
	var args []string
	_ = json.Unmarshal([]byte(os.Getenv("CLEARHOUSE_MOCKPAYER_ARGS")), &args)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
	code := run(ctx, append([]string{"mockpayer", "serve"}, args...), os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// startMockpayer runs `clearhouse mockpayer serve` as a separate process
// (this test binary, re-executed) and returns its CORE endpoint URL. The
// process is stopped with SIGTERM when the test ends.
func startMockpayer(t *testing.T, args ...string) string {
	t.Helper()
	core, _ := startMockpayerLogs(t, args...)
	return core
}

// mockSFTP is the SFTP side of a mockpayer serve process.
type mockSFTP struct{ addr, hostKey string }

// startMockpayerLogs is startMockpayer, also returning the SFTP side when
// --sftp-listen is given.
func startMockpayerLogs(t *testing.T, args ...string) (string, mockSFTP) {
	t.Helper()
	encoded, _ := json.Marshal(append([]string{"--listen", "127.0.0.1:0", "--data", t.TempDir()}, args...))
	cmd := exec.Command(os.Args[0], "-test.run=^TestMockpayerChild$")
	cmd.Env = append(os.Environ(), "CLEARHOUSE_MOCKPAYER_CHILD=1", "CLEARHOUSE_MOCKPAYER_ARGS="+string(encoded))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
		}
	})
	lines := bufio.NewScanner(stderr)
	var logged []string
	var side mockSFTP
	for lines.Scan() {
		logged = append(logged, lines.Text())
		var entry struct{ Msg, Core, SFTP, HostKey string }
		if json.Unmarshal(lines.Bytes(), &entry) != nil {
			continue
		}
		switch entry.Msg {
		case "mock payer sftp listening":
			side = mockSFTP{addr: entry.SFTP, hostKey: entry.HostKey}
		case "mock payer listening":
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return entry.Core, side
		}
	}
	t.Fatalf("mockpayer serve did not start:\n%s", strings.Join(logged, "\n"))
	return "", side
}

// coreSetup writes a --payers file whose CAQH_CORE connections reach a
// `mockpayer serve` process: UHC over SOAP, Aetna over MIME, and a
// connection with the wrong password.
func coreSetup(t *testing.T) (payersFile, key string) {
	t.Helper()
	core := startMockpayer(t, "--username", "clearhouse", "--password", "mock-pw")
	key = secrets.NewKey()
	raw, _ := secrets.ParseKey(key)
	box, _ := secrets.New(raw)
	seal := func(id, pw string) string {
		v, err := box.SealString(pw, connections.SealContext(id, connections.FieldPassword))
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	conn := func(id, envelope, pw string) map[string]any {
		return map[string]any{"id": id, "type": "CAQH_CORE", "url": core, "envelope": envelope,
			"senderId": "CLEARHOUSE", "receiverId": "MOCKPAYER", "username": "clearhouse", "password": seal(id, pw), "timeout": "5s"}
	}
	file := map[string]any{
		"connections": []any{conn("uhc-core", "SOAP", "mock-pw"), conn("aetna-core", "MIME", "mock-pw"), conn("bad-login", "SOAP", "wrong")},
		"payers": []any{
			map[string]any{"id": "87726", "connection": "uhc-core"},
			map[string]any{"id": "60054", "connection": "aetna-core"},
			map[string]any{"id": "62308", "connection": "bad-login"},
		},
	}
	data, _ := json.Marshal(file)
	payersFile = filepath.Join(t.TempDir(), "payers.json")
	if err := os.WriteFile(payersFile, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return payersFile, key
}

// TestProductionEligibilityOverCORE: a production key's check goes through
// the payer's CAQH_CORE connection to a separate `mockpayer serve` process
// and comes back as the 271's JSON — over SOAP and over MIME; what the
// payer refuses answers AAA 42 naming the CORE error code.
func TestProductionEligibilityOverCORE(t *testing.T) {
	payersFile, key := coreSetup(t)
	data := t.TempDir()
	liveKey := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "production"))
	base, _ := startServe(t, data, func(c *serveConfig) {
		c.payersFile, c.secrets.key, c.connections.allowPrivate = payersFile, key, true
		c.writeTimeout = 20 * time.Second
	})
	aetna := `{"tradingPartnerServiceId":"60054","provider":{"organizationName":"Provider Name","npi":"1999999984"},` +
		`"subscriber":{"memberId":"AETNA12345","firstName":"Jane","lastName":"Doe","dateOfBirth":"20040404"},"encounter":{"serviceTypeCodes":["30"]}}`
	tests := []struct {
		name, body string
		wantCode   int
		wantText   []string
	}{
		{"UHC over SOAP", uhcSubscriber, 200, []string{`"benefitsInformation"`, `~ST*271*`, `"status":"Active Coverage"`}},
		{"Aetna over MIME", aetna, 200, []string{`"benefitsInformation"`, `~ST*271*`}},
		// The payer refuses the 270 itself (CORE PayloadIllegal): the
		// client's request is at fault, so a 400 saying so, not "retry".
		{"member the payer does not know", strings.Replace(uhcSubscriber, "UHC123456", "UHC999999", 1), 400,
			[]string{`"code":"BAD_REQUEST"`, `CORE error PayloadIllegal`, `refused the 270 built from this request as invalid`}},
		{"connection with a wrong password", strings.Replace(uhcSubscriber, `"87726"`, `"62308"`, 1), 503,
			[]string{`"code":"42"`, `CORE error UnAuthorized (HTTP 401)`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, body := post(t, base+checkPath, liveKey, tt.body)
			if code != tt.wantCode {
				t.Fatalf("HTTP %d, want %d: %.600s", code, tt.wantCode, body)
			}
			for _, want := range tt.wantText {
				if !strings.Contains(body, want) {
					t.Errorf("answer lacks %s: %s", want, body)
				}
			}
		})
	}
}

// TestConnectionsCommand: `connections test` says which step failed;
// `seal` output opens only for its connection; serve refuses secrets
// without a key.
func TestConnectionsCommand(t *testing.T) {
	payersFile, key := coreSetup(t)
	code, out, errOut := runCmd("connections", "test", "uhc-core", "--payers", payersFile, "--secrets-key", key, "--allow-private-connections")
	if code != 0 || !strings.Contains(out, "auth  ok") || !strings.Contains(out, "connection uhc-core works") {
		t.Errorf("test uhc-core: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd("connections", "test", "bad-login", "--payers", payersFile, "--secrets-key", key, "--allow-private-connections")
	if code != 1 || !strings.Contains(out, "auth  FAILED") || !strings.Contains(errOut, "failed at auth") {
		t.Errorf("test bad-login: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd("connections", "test", "uhc-core", "--payers", payersFile, "--secrets-key", key)
	if code != 1 || !strings.Contains(out, "SSRF guard") {
		t.Errorf("loopback without --allow-private-connections: exit %d\n%s%s", code, out, errOut)
	}
	code, out, _ = runCmd("connections", "list", "--payers", payersFile, "--secrets-key", key)
	if code != 0 || !strings.Contains(out, "password (sealed)") || strings.Contains(out, "mock-pw") || strings.Contains(out, "v1:") {
		t.Errorf("list: exit %d\n%s", code, out)
	}

	var sealed bytes.Buffer
	if err := connectionsSeal([]string{"--id", "uhc-core", "--secrets-key", key}, strings.NewReader("mock-pw\n"), &sealed, io.Discard); err != nil {
		t.Fatal(err)
	}
	raw, _ := secrets.ParseKey(key)
	box, _ := secrets.New(raw)
	if pw, err := box.OpenString(strings.TrimSpace(sealed.String()), connections.SealContext("uhc-core", "password")); err != nil || pw != "mock-pw" {
		t.Errorf("sealed value opens to %q, %v", pw, err)
	}
	if _, err := box.OpenString(strings.TrimSpace(sealed.String()), connections.SealContext("other", "password")); err == nil {
		t.Error("a value sealed for uhc-core opened for another connection")
	}

	err := serve(context.Background(), serveConfig{listen: "127.0.0.1:0", dataDir: t.TempDir(), payersFile: payersFile},
		slog.New(slog.DiscardHandler), nil)
	// Without --secrets-key the embedded default makes a key of its own,
	// which cannot open what another key sealed.
	if err == nil || !strings.Contains(err.Error(), "uhc-core") || !strings.Contains(err.Error(), "cannot decrypt") {
		t.Errorf("serve with secrets sealed by another key: %v", err)
	}
}

// TestProductionClaimStatusOverCORE: a production key's claim status
// request goes as a 276 in a CORE envelope (PayloadType
// X12_276_Request_005010X212) through the payer's CAQH_CORE connection to a
// separate `mockpayer serve` process, over SOAP and over MIME, and its 277
// comes back as the contract's JSON. The standalone mock knows no claims:
// D0:35, claim not found.
func TestProductionClaimStatusOverCORE(t *testing.T) {
	payersFile, key := coreSetup(t)
	data := t.TempDir()
	liveKey := lastLine(runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "production"))
	base, _ := startServe(t, data, func(c *serveConfig) {
		c.payersFile, c.secrets.key, c.connections.allowPrivate = payersFile, key, true
		c.writeTimeout = 20 * time.Second
	})
	for _, payer := range []string{"87726", "60054"} { // SOAP, MIME
		body := `{"tradingPartnerServiceId": "` + payer + `",
		  "providers": [{"providerType": "BillingProvider", "organizationName": "Provider Name", "npi": "1999999984"}],
		  "subscriber": {"memberId": "UHC123456", "firstName": "Jane", "lastName": "Doe", "dateOfBirth": "19710101"},
		  "encounter": {"patientAccountNumber": "PCN-1", "beginningDateOfService": "20250630", "endDateOfService": "20250702"}}`
		code, answer := post(t, base+"/2024-04-01/change/medicalnetwork/claimstatus/v2", liveKey, body)
		if code != 200 || !strings.Contains(answer, `"statusCategoryCode":"D0"`) || !strings.Contains(answer, `"statusCode":"35"`) ||
			!strings.Contains(answer, `ST*277*`) || !strings.Contains(answer, `"applicationMode":"production"`) {
			t.Errorf("payer %s: HTTP %d %.800s", payer, code, answer)
		}
	}
}

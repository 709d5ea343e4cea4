package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// startServe runs serve on a free port of an empty data directory and
// returns its base URL and a function that stops it (SIGTERM's path) and
// returns serve's error.
func startServe(t *testing.T, dataDir string, options ...func(*serveConfig)) (string, func() error) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	ready := make(chan string, 1)
	done := make(chan error, 1)
	cfg := serveConfig{listen: "127.0.0.1:0", dataDir: dataDir, maxBodyBytes: 1 << 20,
		readTimeout: 5 * time.Second, writeTimeout: 5 * time.Second, idleTimeout: 5 * time.Second, shutdownTimeout: 5 * time.Second, workers: 2}
	for _, o := range options {
		o(&cfg)
	}
	logger := slog.New(slog.NewJSONHandler(io.Discard, nil))
	go func() { done <- serve(ctx, cfg, logger, ready) }()
	select {
	case addr := <-ready:
		var once sync.Once
		var stopErr error
		stop := func() error {
			once.Do(func() { cancel(); stopErr = <-done })
			return stopErr
		}
		t.Cleanup(func() { stop() })
		return "http://" + addr, stop
	case err := <-done:
		t.Fatalf("serve: %v", err)
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not start in 10s")
	}
	cancel()
	return "", nil
}

func get(t *testing.T, url, key string) (int, string) {
	t.Helper()
	return call(t, "GET", url, key, "")
}

// call sends a request with the key (if any) and a JSON body (if any).
func call(t *testing.T, method, url, key, body string) (int, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, strings.NewReader(body))
	if key != "" {
		req.Header.Set("Authorization", "Key "+key)
	}
	if body != "" {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(out)
}

func TestServeOnEmptyDataDir(t *testing.T) {
	start := time.Now()
	base, stop := startServe(t, t.TempDir()+"/fresh")
	if d := time.Since(start); d > time.Second {
		t.Errorf("serve took %s to start on an empty data directory, want < 1s", d)
	}
	if code, body := get(t, base+"/healthz", ""); code != 200 || !strings.Contains(body, "ok") {
		t.Errorf("healthz %d %s", code, body)
	}
	if code, body := get(t, base+"/readyz", ""); code != 200 {
		t.Errorf("readyz %d %s", code, body)
	}
	if code, body := get(t, base+"/2024-04-01/usage", ""); code != 401 || !strings.HasPrefix(body, `{"code":"UNAUTHORIZED","message":"`) {
		t.Errorf("no key: %d %s", code, body)
	}
	if code, body := get(t, base+"/openapi.json", ""); code != 200 || !strings.Contains(body, `"openapi": "3.1.0"`) {
		t.Errorf("openapi.json %d %.80s", code, body)
	}
	if err := stop(); err != nil {
		t.Errorf("graceful stop: %v", err)
	}
}

// TestKeysLifecycle: a key printed by 'keys create' works against the
// server until 'keys revoke'.
func TestKeysLifecycle(t *testing.T) {
	data := t.TempDir()
	out := runOK(t, "keys", "create", "--create", "--data", data, "--account", "Acme Dental", "--mode", "test", "--name", "laptop")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	key := lines[len(lines)-1]
	if !strings.HasPrefix(key, "test_") || strings.Contains(key, " ") {
		t.Fatalf("last line of keys create is not a test key: %q", key)
	}
	// The environment works as well as flags.
	t.Setenv("CLEARHOUSE_DATA", data)
	live := lastLine(runOK(t, "keys", "create", "--account", "Acme Dental", "--mode", "production"))
	if !strings.HasPrefix(live, "live_") {
		t.Fatalf("production key %q", live)
	}

	list := runOK(t, "keys", "list")
	keyID := strings.Split(key, "_")[1]
	if !strings.Contains(list, keyID) || !strings.Contains(list, "laptop") || strings.Contains(list, key) {
		t.Errorf("keys list:\n%s", list)
	}

	base, _ := startServe(t, data)
	if code, body := get(t, base+"/2024-04-01/usage", key); code != 200 {
		t.Fatalf("new key: %d %s", code, body)
	}
	runOK(t, "keys", "revoke", keyID)
	// The server trusts a key record it looked up for up to a second.
	deadline := time.Now().Add(3 * time.Second)
	for {
		code, _ := get(t, base+"/2024-04-01/usage", key)
		if code == 401 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("revoked key: status %d 3 s after revocation, want 401", code)
		}
		time.Sleep(100 * time.Millisecond)
	}
	if code, _ := get(t, base+"/2024-04-01/usage", live); code != 200 {
		t.Errorf("other key after revoke: status %d", code)
	}
	if !strings.Contains(runOK(t, "keys", "list", "--account", "Acme Dental"), "revoked") {
		t.Error("keys list does not show the revocation")
	}
	if code, _, stderr := runCmd("keys", "revoke", "nosuchkey"); code != 1 || !strings.Contains(stderr, "no key") {
		t.Errorf("revoke unknown: exit %d, %s", code, stderr)
	}
	if code, _, _ := runCmd("keys", "create", "--account", "x", "--mode", "staging"); code != 2 {
		t.Errorf("bad mode: exit %d, want 2", code)
	}
}

func TestHelpDocumentsEveryOption(t *testing.T) {
	for _, args := range [][]string{{"serve"}, {"keys", "create"}, {"keys", "list"}, {"keys", "revoke"}, {"partners", "apply"}, {"partners", "export"}, {"version"}} {
		code, _, stderr := runCmd(append(args, "--help")...)
		if code != 0 {
			t.Errorf("%v --help: exit %d", args, code)
		}
		for _, line := range strings.Split(stderr, "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "-") && !strings.Contains(line, "$CLEARHOUSE_") && !strings.Contains(line, "(command line only)") {
				t.Errorf("%v --help: option without its environment variable: %s", args, line)
			}
		}
	}
	_, _, stderr := runCmd("serve", "--help")
	for _, opt := range []string{"--listen", "--data", "--database", "--blob", "$CLEARHOUSE_LISTEN"} {
		if !strings.Contains(stderr, opt) {
			t.Errorf("serve --help lacks %s", opt)
		}
	}
}

func TestVersion(t *testing.T) {
	if out := runOK(t, "version"); !strings.HasPrefix(out, "clearhouse ") {
		t.Errorf("version: %q", out)
	}
}

func runCmd(args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), args, &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

func runOK(t *testing.T, args ...string) string {
	t.Helper()
	code, stdout, stderr := runCmd(args...)
	if code != 0 {
		t.Fatalf("clearhouse %s: exit %d\n%s", strings.Join(args, " "), code, stderr)
	}
	return stdout
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}

// TestServeProcessSIGTERM runs serve as a real process (this test binary,
// re-executed) on an empty data directory: it must be listening within a
// second and exit 0 after finishing in-flight work when sent SIGTERM.
func TestServeProcessSIGTERM(t *testing.T) {
	if os.Getenv("CLEARHOUSE_SERVE_CHILD") == "1" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		code := run(ctx, []string{"serve", "--listen", "127.0.0.1:0", "--data", os.Getenv("CLEARHOUSE_SERVE_DATA")}, os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestServeProcessSIGTERM$")
	cmd.Env = append(os.Environ(), "CLEARHOUSE_SERVE_CHILD=1", "CLEARHOUSE_SERVE_DATA="+t.TempDir()+"/data")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var addr string
	var logged []string
	for addr == "" && lines.Scan() {
		logged = append(logged, lines.Text())
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			addr = entry.Addr
		}
	}
	if addr == "" {
		t.Fatalf("no 'listening' log line; stderr:\n%s", strings.Join(logged, "\n"))
	}
	// Well under a second on an idle machine; the bound leaves room for a
	// CI machine whose two cores also build and test other packages.
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("listening %s after process start, want < 3s", d)
	}
	if code, _ := get(t, "http://"+addr+"/healthz", ""); code != 200 {
		t.Errorf("healthz %d", code)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	for lines.Scan() {
		logged = append(logged, lines.Text())
	}
	if err := cmd.Wait(); err != nil {
		t.Fatalf("after SIGTERM: %v; stderr:\n%s", err, strings.Join(logged, "\n"))
	}
	if last := logged[len(logged)-1]; !strings.Contains(last, `"msg":"stopped"`) {
		t.Errorf("last log line %s, want the graceful stop", last)
	}
}

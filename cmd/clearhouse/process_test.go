package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"syscall"
	"testing"
)

// childArgs, when set in the environment, makes this test binary run
// clearhouse with those arguments (separated by newlines) instead of the tests: a
// real server process whose memory and exit a test can observe.
const childArgs = "CLEARHOUSE_TEST_CHILD_ARGS"

func TestMain(m *testing.M) {
	if args := os.Getenv(childArgs); args != "" {
		ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM)
		code := run(ctx, strings.Split(args, "\n"), os.Stdout, os.Stderr)
		stop()
		os.Exit(code)
	}
	os.Exit(m.Run())
}

// serveProcess starts `clearhouse serve --listen 127.0.0.1:0 args...` as a
// child process and returns its address once it listens. The process is
// killed when the test ends.
func serveProcess(t *testing.T, args ...string) (string, *os.Process) {
	t.Helper()
	cmd := exec.Command(os.Args[0])
	all := append([]string{"serve", "--listen", "127.0.0.1:0"}, args...)
	cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(all, "\n"))
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(stderr)
	var logged []string
	for lines.Scan() {
		logged = append(logged, lines.Text())
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			go func() { // keep draining, so the server never blocks on its log
				for lines.Scan() {
				}
			}()
			return entry.Addr, cmd.Process
		}
	}
	t.Fatalf("the server did not start; stderr:\n%s", strings.Join(logged, "\n"))
	return "", nil
}

// createTestKey makes a test key in dataDir and returns it.
func createTestKey(t *testing.T, dataDir string) string {
	t.Helper()
	var out, errOut bytes.Buffer
	if code := run(context.Background(), []string{"keys", "create", "--create", "--data", dataDir, "--account", "Acme", "--mode", "test"}, &out, &errOut); code != 0 {
		t.Fatalf("keys create: %d %s", code, errOut.String())
	}
	return lastLine(out.String())
}

package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/connections"
	"github.com/clearhouse/clearhouse/internal/secrets"
)

// upstreamProcess is one `clearhouse serve` process in test mode that
// another one reaches as a CLEARINGHOUSE_API upstream.
type upstreamProcess struct {
	t         *testing.T
	name      string
	data, key string
	addr      string // 127.0.0.1:port, the same after a restart
	base      string
	proc      *os.Process
}

func startUpstream(t *testing.T, name string) *upstreamProcess {
	t.Helper()
	u := &upstreamProcess{t: t, name: name, data: t.TempDir(), addr: freePort(t)}
	u.key = lastLine(runOK(t, "keys", "create", "--create", "--data", u.data, "--account", "Upstream "+name, "--mode", "test"))
	u.start()
	return u
}

// start runs the process on its port (the same after a restart, so the
// client's configuration still names it).
func (u *upstreamProcess) start() {
	u.t.Helper()
	addr, proc := serveProcess(u.t, "--listen", u.addr, "--data", u.data)
	u.base, u.proc = "http://"+addr, proc
}

// kill stops the process the hard way: no goodbye to its clients.
func (u *upstreamProcess) kill() {
	u.t.Helper()
	if err := u.proc.Signal(syscall.SIGKILL); err != nil {
		u.t.Fatal(err)
	}
	u.proc.Wait()
}

// checks counts the eligibility checks the upstream answered (its own
// history, read with its own key).
func (u *upstreamProcess) checks() int {
	u.t.Helper()
	code, body := get(u.t, u.base+"/2024-04-01/eligibility-checks?limit=500", u.key)
	if code != 200 {
		u.t.Fatalf("%s history: HTTP %d %s", u.name, code, body)
	}
	var page struct{ Items []json.RawMessage }
	json.Unmarshal([]byte(body), &page)
	return len(page.Items)
}

// upstreamPayersFile routes UHC (87726) to B then C and Cigna (62308) to
// a connection holding a key B does not know, then C.
func upstreamPayersFile(t *testing.T, secretsKey string, b, c *upstreamProcess) string {
	t.Helper()
	raw, _ := secrets.ParseKey(secretsKey)
	box, _ := secrets.New(raw)
	conn := func(id string, u *upstreamProcess, apiKey string) map[string]any {
		sealed, err := box.SealString(apiKey, connections.SealContext(id, connections.FieldAPIKey))
		if err != nil {
			t.Fatal(err)
		}
		base := "http://" + u.addr
		return map[string]any{"id": id, "type": "CLEARINGHOUSE_API", "url": base + "/2024-04-01", "coreUrl": base + "/2023-08-01",
			"apiKey": sealed, "timeout": "5s", "breakerFailures": 2, "breakerOpenFor": "1s"}
	}
	file := map[string]any{
		"connections": []any{conn("up-b", b, b.key), conn("up-c", c, c.key), conn("up-b-wrong-key", b, "not-a-key-of-b")},
		"payers": []any{
			map[string]any{"id": "87726", "connections": map[string]any{"eligibility": []string{"up-b", "up-c"}}},
			map[string]any{"id": "62308", "connections": map[string]any{"eligibility": []string{"up-b-wrong-key", "up-c"}}},
		},
	}
	data, _ := json.Marshal(file)
	path := filepath.Join(t.TempDir(), "payers.json")
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// routeCounts reads A's route metrics: attempts by connection and outcome.
func routeCounts(t *testing.T, base string) map[string]int {
	t.Helper()
	_, body := get(t, base+"/metrics", "")
	out := map[string]int{}
	re := regexp.MustCompile(`clearhouse_payer_route_attempts_total\{connection="([^"]+)",outcome="([^"]+)",transaction="[^"]+"\} (\d+)`)
	for _, m := range re.FindAllStringSubmatch(body, -1) {
		n, _ := strconv.Atoi(m[3])
		out[m[1]+" "+m[2]] += n
	}
	return out
}

// TestThreeProcessUpstream (issue 26): A, in production, reaches payer
// 87726 through two upstream Clearhouse processes B and C in test mode,
// each with its own key. A's check is answered by B's mock payer and
// mapped by A; B killed → C answers with no client-visible error, and
// B's breaker opens; B back → traffic returns to B; a wrong upstream key
// → a clear error naming the connection, and nothing goes to C.
func TestThreeProcessUpstream(t *testing.T) {
	if testing.Short() {
		t.Skip("starts three server processes")
	}
	started := time.Now()
	b, c := startUpstream(t, "B"), startUpstream(t, "C")
	secretsKey := secrets.NewKey()
	payersFile := upstreamPayersFile(t, secretsKey, b, c)
	dataA := t.TempDir()
	keyA := lastLine(runOK(t, "keys", "create", "--create", "--data", dataA, "--account", "Clinic A", "--mode", "production"))
	addrA, _ := serveProcess(t, "--data", dataA, "--payers", payersFile, "--secrets-key", secretsKey, "--allow-private-connections")
	a := "http://" + addrA

	// `connections test` checks an upstream with a probe that sends no PHI.
	code, out, errOut := runCmd("connections", "test", "up-b", "--payers", payersFile, "--secrets-key", secretsKey, "--allow-private-connections")
	if code != 0 || !strings.Contains(out, "auth  ok") {
		t.Errorf("connections test up-b: exit %d\n%s%s", code, out, errOut)
	}
	code, out, errOut = runCmd("connections", "test", "up-b-wrong-key", "--payers", payersFile, "--secrets-key", secretsKey, "--allow-private-connections")
	if code != 1 || !strings.Contains(out, "auth  FAILED") || !strings.Contains(out, "up-b-wrong-key") {
		t.Errorf("connections test up-b-wrong-key: exit %d\n%s%s", code, out, errOut)
	}
	if n := b.checks(); n != 0 {
		t.Fatalf("the probes left %d checks in B's history; they must reach no payer", n)
	}

	requests, answeredBy := 0, map[string]int{}
	check := func(phase, wantRoute string) {
		t.Helper()
		requests++
		code, body := post(t, a+checkPath, keyA, uhcSubscriber)
		if code != 200 || !strings.Contains(body, `"benefitsInformation"`) || !strings.Contains(body, "~ST*271*") {
			t.Fatalf("%s: check %d: HTTP %d %.500s", phase, requests, code, body)
		}
		var resp struct{ ID string }
		json.Unmarshal([]byte(body), &resp)
		_, stored := get(t, a+"/2024-04-01/eligibility-checks/"+resp.ID, keyA)
		var rec struct{ Route string }
		json.Unmarshal([]byte(stored), &rec)
		answeredBy[rec.Route]++
		if rec.Route != wantRoute {
			t.Errorf("%s: check %s answered by %q, want %q", phase, resp.ID, rec.Route, wantRoute)
		}
	}

	for range 3 {
		check("B up", "up-b")
	}
	if nb, nc := b.checks(), c.checks(); nb != 3 || nc != 0 {
		t.Fatalf("B answered %d, C %d; want 3 and 0", nb, nc)
	}

	b.kill()
	for range 4 {
		check("B killed", "up-c")
	}
	m := routeCounts(t, a)
	if m["up-b failover"] != 2 || m["up-b skipped"] != 2 {
		t.Errorf("after B was killed: %v; want 2 failovers (the breaker opens after 2) and 2 skips", m)
	}

	b.start()
	time.Sleep(1100 * time.Millisecond) // breakerOpenFor: the next check probes B
	for range 3 {
		check("B back", "up-b")
	}

	// A key B does not know: the error names the connection; C, another
	// account's way to the payer, is not tried.
	before := c.checks()
	code, body := post(t, a+checkPath, keyA, strings.Replace(uhcSubscriber, `"87726"`, `"62308"`, 1))
	if code == 200 || !strings.Contains(body, "upstream connection up-b-wrong-key") || !strings.Contains(body, "refused this connection's API key") {
		t.Errorf("wrong upstream key: HTTP %d %.600s", code, body)
	}
	if after := c.checks(); after != before {
		t.Errorf("a refused key moved the check to C (%d → %d checks)", before, after)
	}

	nb, nc := b.checks(), c.checks()
	m = routeCounts(t, a)
	dups := nb + nc - (requests)
	t.Logf("three-process upstream: %d eligibility requests to A in %s; answered by route %v; B answered %d (history), C %d; "+
		"failovers %d; skipped while B's breaker was open %d; duplicates %d; wrong key: HTTP %d, C not tried",
		requests, time.Since(started).Round(time.Millisecond), answeredBy, nb, nc, m["up-b failover"], m["up-b skipped"], dups, code)
	if dups != 0 {
		t.Errorf("upstreams answered %d checks for %d requests", nb+nc, requests)
	}
}

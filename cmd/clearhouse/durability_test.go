package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptrace"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/core/coretest"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/powercut"
	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// tracedServer is `clearhouse serve` run under strace, recording the
// system calls that the powercut model reads.
type tracedServer struct {
	addr  string
	trace string
	cmd   *exec.Cmd
	done  chan struct{}
}

// serveTraced starts serve on dataDir under strace. Before it starts, the
// data directory is synced, so the model may take its content as durable.
func serveTraced(t *testing.T, dataDir string, args ...string) *tracedServer {
	t.Helper()
	if _, err := exec.LookPath("strace"); err != nil {
		testenv.Missing(t, "strace is not installed (Debian strace)")
	}
	syscall.Sync()
	s := &tracedServer{trace: filepath.Join(t.TempDir(), "strace.txt"), done: make(chan struct{})}
	all := append([]string{"serve", "--listen", "127.0.0.1:0", "--data", dataDir}, args...)
	s.cmd = exec.Command("strace", append(powercut.StraceArgs(s.trace), os.Args[0])...)
	s.cmd.Env = append(os.Environ(), childArgs+"="+strings.Join(all, "\n"))
	stderr, err := s.cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.cmd.Process.Kill(); <-s.done })
	lines := bufio.NewScanner(stderr)
	var logged []string
	for lines.Scan() {
		logged = append(logged, lines.Text())
		var entry struct{ Msg, Addr string }
		if json.Unmarshal(lines.Bytes(), &entry) == nil && entry.Msg == "listening" {
			s.addr = entry.Addr
			go func() {
				for lines.Scan() {
				}
				s.cmd.Wait()
				close(s.done)
			}()
			return s
		}
	}
	s.cmd.Wait()
	close(s.done)
	t.Fatalf("the traced server did not start; stderr:\n%s", strings.Join(logged, "\n"))
	return nil
}

// stop ends the server (SIGTERM to the traced process, strace's child) and
// returns the recorded calls.
func (s *tracedServer) stop(t *testing.T) []powercut.Call {
	t.Helper()
	children, _ := os.ReadFile(fmt.Sprintf("/proc/%d/task/%d/children", s.cmd.Process.Pid, s.cmd.Process.Pid))
	for _, f := range strings.Fields(string(children)) {
		if pid, err := strconv.Atoi(f); err == nil {
			syscall.Kill(pid, syscall.SIGTERM)
		}
	}
	select {
	case <-s.done:
	case <-time.After(60 * time.Second):
		t.Fatal("the traced server did not stop within 60 s of SIGTERM")
	}
	f, err := os.Open(s.trace)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if d := os.Getenv("CLEARHOUSE_KEEP_TRACE"); d != "" {
		b, _ := os.ReadFile(s.trace)
		os.WriteFile(d, b, 0o600)
	}
	calls, err := powercut.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	return calls
}

// answer is one request sent to the traced server and what it was told.
type answer struct {
	kind   string // check, claim, upload
	port   int    // the client's port: names the connection in the trace
	status int
	id     string // the check, claim or execution id
}

// tracedRequests are the three kinds of request whose answers promise a
// record: an eligibility check, a dental claim and a file upload.
type tracedRequests struct {
	base, key string
	check     []byte
	claim     []byte
	client    *http.Client
}

func newTracedRequests(t *testing.T, base, key string) *tracedRequests {
	t.Helper()
	r := &tracedRequests{base: base, key: key,
		// One connection per request, so its port names it in the trace.
		client: &http.Client{Timeout: 60 * time.Second, Transport: &http.Transport{DisableKeepAlives: true}}}
	for _, m := range mockpayer.Requests() {
		if m.Name == "uhc-subscriber" {
			r.check = m.RequestJSON()
		}
	}
	var err error
	if r.claim, err = os.ReadFile("../../internal/claims/testdata/example.json"); err != nil {
		t.Fatal(err)
	}
	return r
}

// send makes one request of the kind; n makes an upload's content unique.
func (r *tracedRequests) send(kind string, n int) (answer, error) {
	var url, contentType string
	var body []byte
	switch kind {
	case "check":
		url, contentType, body = r.base+"/2024-04-01/change/medicalnetwork/eligibility/v3", "application/json", r.check
	case "claim":
		url, contentType, body = r.base+"/2024-04-01/dental-claims/submission", "application/json", r.claim
	case "upload":
		file := coretest.Gen835([]int{1}, 2, 0)
		file = strings.Replace(file, "ZZ*PAYERSENDER    *ZZ*CLINICRECV     ", "ZZ*87726          *ZZ*CLEARHOUSE     ", 1)
		file = strings.ReplaceAll(file, "TRN*1*TRACE", fmt.Sprintf("TRN*1*P%d-", n))
		url, contentType, body = r.base+fmt.Sprintf("/2023-08-01/files/inbound?name=powercut-%d.835", n), "application/edi-x12", []byte(file)
	}
	a := answer{kind: kind}
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Key "+r.key)
	req.Header.Set("Content-Type", contentType)
	req = req.WithContext(httptrace.WithClientTrace(context.Background(), &httptrace.ClientTrace{
		GotConn: func(info httptrace.GotConnInfo) { a.port = info.Conn.LocalAddr().(*net.TCPAddr).Port },
	}))
	resp, err := r.client.Do(req)
	if err != nil {
		return a, err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	a.status = resp.StatusCode
	var v struct {
		ID             string `json:"id"`
		ExecutionID    string `json:"executionId"`
		ClaimReference struct {
			CorrelationID string `json:"correlationId"`
		} `json:"claimReference"`
	}
	json.Unmarshal(b, &v)
	a.id = v.ID + v.ExecutionID + v.ClaimReference.CorrelationID
	if a.status/100 != 2 || a.id == "" {
		return a, fmt.Errorf("%s: %d %.300s", kind, a.status, b)
	}
	return a, nil
}

// exchange is where one request's connection appears in the trace: the
// first read of the request and the first write of the answer.
type exchange struct {
	request, answer int // lines (entries)
}

// exchanges finds each answered request's connection in the trace by the
// client's port.
func exchanges(t *testing.T, calls []powercut.Call, answers []answer) []exchange {
	t.Helper()
	byPort := map[string]int{}
	for i, a := range answers {
		byPort["127.0.0.1:"+strconv.Itoa(a.port)+"]"] = i
	}
	out := make([]exchange, len(answers))
	for i := range out {
		out[i] = exchange{-1, -1}
	}
	for _, c := range calls {
		if len(c.Args) == 0 {
			continue
		}
		_, name := powercut.FD(c.Args[0])
		if !strings.HasPrefix(name, "TCP:[") {
			continue
		}
		i, ok := -1, false
		if arrow := strings.Index(name, "->"); arrow >= 0 {
			i, ok = byPort[name[arrow+2:]]
		}
		if !ok {
			continue
		}
		switch c.Name {
		case "read":
			if out[i].request < 0 && c.RetInt() > 0 {
				out[i].request = c.Entry
			}
		case "write", "sendto", "sendmsg":
			if out[i].answer < 0 {
				out[i].answer = c.Entry
			}
		}
	}
	for i, e := range out {
		if e.request < 0 || e.answer < 0 || e.answer < e.request {
			t.Fatalf("%s on port %d: not found in the trace (request line %d, answer line %d)", answers[i].kind, answers[i].port, e.request, e.answer)
		}
	}
	return out
}

// sendAll sends the kinds in order from workers goroutines and returns the
// answers in the order sent.
func (r *tracedRequests) sendAll(t *testing.T, kinds []string, workers int) []answer {
	t.Helper()
	out := make([]answer, len(kinds))
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	next := make(chan int)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				a, err := r.send(kinds[i], i)
				out[i] = a
				if err != nil {
					mu.Lock()
					errs = append(errs, err)
					mu.Unlock()
				}
			}
		}()
	}
	for i := range kinds {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if len(errs) > 0 {
		t.FailNow()
	}
	return out
}

// TestAnsweredOnlyWhenDurable runs the real server under strace and checks,
// for an eligibility check, a dental claim and a file upload, that the
// answer is written to the client's socket only after every file the
// request created or wrote (the SQLite WAL, the claim's 837D and Guide
// JSON, the uploaded file) was fsynced with the directories that name it.
// On PostgreSQL with file blobs the commit is the server's to make
// durable; the files must be durable before the COMMIT is sent.
func TestAnsweredOnlyWhenDurable(t *testing.T) {
	for _, engine := range []string{"sqlite", "postgres"} {
		t.Run(engine, func(t *testing.T) {
			data := t.TempDir()
			var dbArgs []string
			if engine == "postgres" {
				dbArgs = []string{"--database", storetest.PostgresSchemaURL(t), "--secrets-key", secrets.NewKey()}
			}
			key := lastLine(runOK(t, append([]string{"keys", "create", "--create", "--data", data, "--account", "Acme", "--mode", "test"}, dbArgs[:min(len(dbArgs), 2)]...)...))
			initial, err := powercut.Snapshot(data)
			if err != nil {
				t.Fatal(err)
			}
			srv := serveTraced(t, data, append([]string{"--workers", "0"}, dbArgs...)...)
			reqs := newTracedRequests(t, "http://"+srv.addr, key)
			kinds := []string{"check", "claim", "upload", "check", "claim", "upload"}
			answers := reqs.sendAll(t, kinds, 1)
			calls := srv.stop(t)
			model := powercut.NewModel(data, calls, initial)
			for i, ex := range exchanges(t, calls, answers) {
				a := answers[i]
				if err := model.Replay(ex.request); err != nil {
					t.Fatal(err)
				}
				point, what := ex.answer, "the answer"
				if engine == "postgres" {
					commit := lastPostgresWrite(calls, ex.request, ex.answer, "commit")
					if commit < 0 && a.kind != "check" {
						t.Fatalf("%s %s: no COMMIT sent to PostgreSQL before its answer", a.kind, a.id)
					}
					if commit >= 0 {
						point, what = commit, "the COMMIT sent to PostgreSQL"
					}
				}
				if err := model.Replay(point); err != nil {
					t.Fatal(err)
				}
				touched := model.TouchedSince(ex.request)
				// The -shm file is SQLite's shared-memory index, rebuilt from
				// the WAL. The database file itself is written, in WAL mode,
				// only by checkpoints, which run beside the requests
				// (store's checkpointer) and copy pages the WAL already holds
				// durably; SQLite lets the WAL's copy go only after syncing
				// the file. So a request needs the WAL durable (below), not
				// a checkpoint in flight; TestPowerCut reopens what a cut
				// leaves, the database mid-checkpoint included.
				volatile := model.Volatile(func(rel string) bool {
					return touched[rel] && !strings.HasSuffix(rel, "-shm") && (engine != "sqlite" || rel != sqliteDB)
				})
				if len(volatile) > 0 {
					t.Errorf("%s %s: at %s (line %d) a power cut would lose:\n  %s", a.kind, a.id, what, point+1, strings.Join(volatile, "\n  "))
					continue
				}
				var want []string
				if engine == "sqlite" {
					want = append(want, sqliteWAL)
				}
				switch a.kind {
				case "claim":
					// The 837 and its Guide JSON are rows of the claim's
					// transaction (inline_blobs): durable with its commit,
					// no file of their own.
					if anyMatch(touched, "blobs/claims/*") {
						t.Errorf("claim %s: wrote a blob file (%v); its documents belong in its transaction", a.id, keys(touched))
					}
				case "upload":
					want = append(want, "blobs/executions/"+a.id+"/input")
				}
				for _, w := range want {
					if !anyMatch(touched, w) {
						t.Errorf("%s %s: wrote nothing like %s before %s (wrote %v)", a.kind, a.id, w, what, keys(touched))
					}
				}
				t.Logf("%s %s: %d paths written, all durable before %s", a.kind, a.id, len(touched), what)
			}
		})
	}
}

const (
	sqliteDB  = "clearhouse.db"
	sqliteWAL = sqliteDB + "-wal"
)

// anyMatch reports whether a path matches pattern, where * in the pattern
// spans any characters (slashes too).
func anyMatch(paths map[string]bool, pattern string) bool {
	prefix, suffix, wild := strings.Cut(pattern, "*")
	for p := range paths {
		if !wild && p == pattern || wild && strings.HasPrefix(p, prefix) && strings.HasSuffix(p, suffix) && len(p) >= len(prefix)+len(suffix) {
			return true
		}
	}
	return false
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

// lastPostgresWrite is the entry line of the last write to a PostgreSQL
// socket (port 5432) between lines from and to whose bytes hold word (any
// case), or -1.
func lastPostgresWrite(calls []powercut.Call, from, to int, word string) int {
	last := -1
	for _, c := range calls {
		if c.Entry <= from || c.Entry >= to || (c.Name != "write" && c.Name != "sendto" && c.Name != "sendmsg") || len(c.Args) < 2 {
			continue
		}
		if _, name := powercut.FD(c.Args[0]); !strings.HasPrefix(name, "TCP:[") || !strings.HasSuffix(name, ":5432]") {
			continue
		}
		if b, _ := powercut.String(c.Args[1]); bytes.Contains(bytes.ToLower(b), []byte(word)) {
			last = c.Entry
		}
	}
	return last
}

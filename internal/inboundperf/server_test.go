package inboundperf

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/testenv"
)

// binary builds cmd/clearhouse once per test binary, unless
// CLEARHOUSE_INBOUNDPERF_BIN names one already built (another commit's, to
// compare before and after in one run).
var binary = sync.OnceValues(func() (string, error) {
	if bin := os.Getenv("CLEARHOUSE_INBOUNDPERF_BIN"); bin != "" {
		return bin, nil
	}
	dir, err := os.MkdirTemp("", "inboundperf-bin-")
	if err != nil {
		return "", err
	}
	bin := filepath.Join(dir, "clearhouse")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/clearhouse")
	cmd.Dir = repoRoot
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("go build: %v\n%s", err, out)
	}
	return bin, nil
})

var repoRoot string

// partnersDoc is the account's partners: the generator's interchange ids,
// with inbound 835 and 837P settings cutting fragments of 800 claims, as
// the seeded 835 setting does.
const partnersDoc = `{
  "profiles": [
    {"profileId": "local", "profileType": "local", "interchangeQualifier": "ZZ", "interchangeId": "PAYERGEN"},
    {"profileId": "sender", "profileType": "partner", "interchangeQualifier": "ZZ", "interchangeId": "CLEARHOUSEGEN"}
  ],
  "partnerships": [
    {"partnershipId": "local_sender", "localProfileId": "local", "partnerProfileId": "sender",
     "inboundTransactions": [
       {"transactionSettingId": "in-835", "transactionSetIdentifier": "835", "guideId": "005010X221A1",
        "fragments": {"enabled": true, "batchSize": 800, "keyName": "claim_payment_information_CLP_loop"}},
       {"transactionSettingId": "in-837p", "transactionSetIdentifier": "837", "guideId": "005010X222A1",
        "fragments": {"enabled": true, "batchSize": 800, "keyName": "claim_information_CLM_loop"}}
     ]}
  ]
}`

// server is a running clearhouse serve.
type server struct {
	cmd    *exec.Cmd
	addr   string
	key    string
	log    *bytes.Buffer
	cgroup *memCgroup
	// pprofAddr is serve's profiler (CLEARHOUSE_INBOUNDPERF_CPUPROFILE).
	pprofAddr string
}

// profile takes a CPU profile of serve for the next seconds and writes it
// to path; the returned function waits for it.
func (s *server) profile(t testing.TB, path string, seconds int) func() {
	return s.fetchProfile(t, path, "profile", seconds)
}

// trace takes an execution trace of serve for the next seconds and writes
// it to path; the returned function waits for it.
func (s *server) trace(t testing.TB, path string, seconds int) func() {
	return s.fetchProfile(t, path, "trace", seconds)
}

func (s *server) fetchProfile(t testing.TB, path, kind string, seconds int) func() {
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, err := http.Get(fmt.Sprintf("http://%s/debug/pprof/%s?seconds=%d", s.pprofAddr, kind, seconds))
		if err != nil {
			t.Errorf("profile: %v", err)
			return
		}
		defer resp.Body.Close()
		f, err := os.Create(path)
		if err != nil {
			t.Errorf("profile: %v", err)
			return
		}
		defer f.Close()
		io.Copy(f, resp.Body)
	}()
	return func() { <-done }
}

// profiling: serve is asked for a CPU profile or an execution trace.
func profiling() bool {
	return os.Getenv("CLEARHOUSE_INBOUNDPERF_CPUPROFILE") != "" || os.Getenv("CLEARHOUSE_INBOUNDPERF_TRACE") != ""
}

// startServer prepares a data directory (key, partners) and starts serve
// on it with the environment env added (GOMEMLIMIT), in a memory cgroup of
// cgroupLimit bytes when the machine lets a test make one.
func startServer(t testing.TB, env []string, cgroupLimit int64) *server {
	t.Helper()
	repoRoot = testenv.RepoRoot(t)
	bin, err := binary()
	if err != nil {
		t.Fatal(err)
	}
	data := t.TempDir()
	run := func(args ...string) string {
		out, err := exec.Command(bin, args...).CombinedOutput()
		if err != nil {
			t.Fatalf("clearhouse %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		return string(out)
	}
	lines := strings.Split(strings.TrimSpace(run("keys", "create", "--create", "--data", data, "--account", "Inbound Perf", "--mode", "test")), "\n")
	doc := filepath.Join(data, "partners.json")
	if err := os.WriteFile(doc, []byte(partnersDoc), 0o600); err != nil {
		t.Fatal(err)
	}
	run("partners", "apply", "--data", data, "--account", "Inbound Perf", "--mode", "test", "-f", doc)
	s := &server{key: lines[len(lines)-1], log: &bytes.Buffer{}}
	args := []string{"serve", "--data", data, "--listen", "127.0.0.1:0", "--rate-limit", "0"}
	if profiling() {
		args = append(args, "--pprof-listen", "127.0.0.1:0")
	}
	s.cmd = exec.Command(bin, args...)
	s.cmd.Env = append(os.Environ(), env...)
	pr, pw := io.Pipe()
	s.cmd.Stderr = pw
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s.cgroup = newMemCgroup(t, s.cmd.Process.Pid, cgroupLimit)
	t.Cleanup(func() { s.stop(); s.cgroup.remove() })
	listening := regexp.MustCompile(`"msg":"listening".*"addr":"([^"]+)"`)
	profiler := regexp.MustCompile(`"msg":"profiler listening".*"addr":"([^"]+)"`)
	found, foundProfiler := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(pr)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			if m := listening.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case found <- m[1]:
				default:
				}
			}
			if m := profiler.FindStringSubmatch(sc.Text()); m != nil {
				select {
				case foundProfiler <- m[1]:
				default:
				}
			}
			if s.log.Len() < 1<<20 {
				s.log.WriteString(sc.Text() + "\n")
			}
		}
	}()
	select {
	case s.addr = <-found:
	case <-time.After(60 * time.Second):
		t.Fatalf("serve did not start:\n%s", s.log)
	}
	if profiling() {
		s.pprofAddr = <-foundProfiler
	}
	return s
}

// stop ends serve (SIGTERM, then SIGKILL) and returns its peak RSS in
// bytes, from the rusage of the exited child.
func (s *server) stop() int64 {
	if s.cmd.ProcessState == nil {
		s.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(30 * time.Second):
			s.cmd.Process.Kill()
			<-done
		}
	}
	if ru, ok := s.cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss << 10 // KiB on Linux
	}
	return 0
}

// highWater is the process's peak RSS so far, in bytes (/proc VmHWM).
func (s *server) highWater() int64 {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, _ := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(v), "kB")), 10, 64)
			return kb << 10
		}
	}
	return 0
}

// upload sends the file and waits until its execution is processed; it
// returns the execution as the API shows it and the time from the first
// byte sent to the processed status seen (polled every 50 ms).
func (s *server) upload(t testing.TB, path string) (map[string]any, time.Duration) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	start := time.Now()
	req, _ := http.NewRequest("POST", "http://"+s.addr+"/2023-08-01/files/inbound?name="+filepath.Base(path), bufio.NewReaderSize(f, 1<<20))
	req.ContentLength = st.Size()
	var accepted struct{ ExecutionID string }
	if code := s.do(t, req, &accepted); code != http.StatusAccepted {
		t.Fatalf("upload: HTTP %d\n%s", code, s.log)
	}
	unavailable := 0
	for {
		var ex map[string]any
		req, _ := http.NewRequest("GET", "http://"+s.addr+"/2023-08-01/executions/"+accepted.ExecutionID, nil)
		switch code := s.do(t, req, &ex); {
		case code == http.StatusServiceUnavailable && unavailable < 100:
			// The database was busy past the read's deadline (the set's
			// records commit in one transaction): ask again.
			unavailable++
			t.Logf("execution: HTTP 503 %v; asking again", ex)
			time.Sleep(time.Second)
			continue
		case code != http.StatusOK:
			t.Fatalf("execution: HTTP %d %v\n%s", code, ex, s.log)
		}
		if st := ex["status"]; st != "RECEIVED" && st != "PROCESSING" {
			return ex, time.Since(start)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func (s *server) do(t testing.TB, req *http.Request, out any) int {
	t.Helper()
	req.Header.Set("Authorization", "Key "+s.key)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v\n%s", req.Method, req.URL.Path, err, s.log)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if err := json.Unmarshal(body, out); err != nil {
		t.Fatalf("%s %s: HTTP %d %q: %v", req.Method, req.URL.Path, resp.StatusCode, body, err)
	}
	return resp.StatusCode
}

package chaos

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/secrets"
	"github.com/clearhouse/clearhouse/internal/testenv"
)

// BenchmarkReplicas measures eligibility checks and dental claim
// submissions per second with 1 and with 3 replicas on one PostgreSQL
// database and one S3 bucket (versitygw), all on this machine with the
// load generator (make bench-replicas). Each run is a fixed time, not b.N:
// run it with -benchtime 1x. Besides requests/s and the clients' latency it
// reports the CPU each part spent per request (replicas, PostgreSQL,
// versitygw, the load generator), which shows where the machine's cores
// went; for claims it also waits until the background work each claim
// starts (delivery to the mock payer, its 999 and 277CA processed as
// inbound files, events) is done and reports claims/s end to end.
//
// THROUGHPUT_DURATION (15s) and THROUGHPUT_CLIENTS (16) change the load.
// PostgreSQL's CPU is every postgres process's on the machine: measure on
// a quiet one.
func BenchmarkReplicas(b *testing.B) {
	bin := buildBinary(b)
	s3 := testenv.VersityGW(b)
	duration := 15 * time.Second
	if d, err := time.ParseDuration(os.Getenv("THROUGHPUT_DURATION")); err == nil && d > 0 {
		duration = d
	}
	clients := 16
	if n, err := strconv.Atoi(os.Getenv("THROUGHPUT_CLIENTS")); err == nil && n > 0 {
		clients = n
	}
	claim, err := os.ReadFile(filepath.Join(testenv.RepoRoot(b), "internal/claims/testdata/example.json"))
	if err != nil {
		b.Fatal(err)
	}
	work := map[string]func(n int64) (string, []byte){
		"eligibility": func(int64) (string, []byte) {
			return "/2024-04-01/change/medicalnetwork/eligibility/v3", eligibilityBody
		},
		"claims": func(n int64) (string, []byte) {
			// Each claim its own patient control number, as a practice sends.
			pcn := `"patientControlNumber": "TP` + strconv.FormatInt(n, 36) + `"`
			return "/2024-04-01/dental-claims/submission", bytes.Replace(claim, []byte(`"patientControlNumber": "12345"`), []byte(pcn), 1)
		},
	}
	for _, kind := range []string{"eligibility", "claims"} {
		for _, replicas := range []int{1, 3} {
			b.Run(fmt.Sprintf("%s/replicas=%d", kind, replicas), func(b *testing.B) {
				c := startCluster(b, bin, s3, replicas)
				warm, cancel := context.WithTimeout(context.Background(), 3*time.Second)
				drive(warm, c, clients, work[kind], &loadResult{})
				cancel()
				quiesce(b, c.db, time.Minute, 10*time.Minute)

				var res loadResult
				before := c.cpu()
				ctx, cancel := context.WithTimeout(context.Background(), duration)
				start := time.Now()
				drive(ctx, c, clients, work[kind], &res)
				cancel()
				elapsed := time.Since(start)
				spent := c.cpu().minus(before)
				if res.failed.Load() > 0 {
					b.Errorf("%d requests were not answered 2xx (first: %s)", res.failed.Load(), res.firstFailure.Load())
				}
				n := float64(len(res.latencies))
				if n == 0 {
					b.Fatal("no request answered 2xx")
				}
				slices.Sort(res.latencies)
				pct := func(p float64) float64 {
					return float64(res.latencies[int(p*(n-1))]) / float64(time.Millisecond)
				}
				b.ReportMetric(n/elapsed.Seconds(), "req/s")
				b.ReportMetric(pct(0.50), "p50-ms")
				b.ReportMetric(pct(0.99), "p99-ms")
				b.ReportMetric(spent.replicas.Seconds()/n*1e6, "replica-cpu-µs/req")
				b.ReportMetric(spent.postgres.Seconds()/n*1e6, "postgres-cpu-µs/req")
				b.ReportMetric(spent.s3.Seconds()/n*1e6, "s3-cpu-µs/req")
				b.ReportMetric(spent.client.Seconds()/n*1e6, "client-cpu-µs/req")
				b.ReportMetric(0, "ns/op") // a fixed-time run: ns/op says nothing
				b.Logf("%s, %d replicas, %d clients, %s: %.0f req/s, p50 %.1f ms, p99 %.1f ms; CPU %s; load average %s",
					kind, replicas, clients, elapsed.Round(time.Millisecond), n/elapsed.Seconds(), pct(0.5), pct(0.99),
					spent.share(elapsed), loadAverage())
				if kind == "claims" {
					quiesce(b, c.db, time.Minute, 20*time.Minute)
					total := time.Since(start)
					b.ReportMetric(n/total.Seconds(), "claims-done/s")
					b.Logf("every claim delivered and its 999 and 277CA processed after %s: %.0f claims/s end to end",
						total.Round(time.Millisecond), n/total.Seconds())
				}
			})
		}
	}
}

var eligibilityBody = []byte(`{"tradingPartnerServiceId":"87726",
	"provider":{"organizationName":"Provider Name","npi":"1999999984"},
	"subscriber":{"memberId":"UHC123456","firstName":"Jane","lastName":"Doe","dateOfBirth":"19710101"},
	"encounter":{"serviceTypeCodes":["30"]}}`)

// cluster is replicas of clearhouse serve on a fresh database and bucket.
type cluster struct {
	replicas []*replica
	key      string
	db       *sql.DB
	s3Pid    int
	seq      atomic.Int64 // numbers requests across runs (claims' patient control numbers)
}

func startCluster(b *testing.B, bin string, s3 testenv.S3, n int) *cluster {
	dbURL := freshPostgres(b)
	blobURL := s3.BucketURL(b, fmt.Sprintf("tp%d", rand.IntN(1e9)))
	env := []string{"AWS_ACCESS_KEY_ID=" + s3.AccessKey, "AWS_SECRET_ACCESS_KEY=" + s3.SecretKey, "AWS_EC2_METADATA_DISABLED=true"}
	out, err := exec.Command(bin, "keys", "create", "--account", "Throughput Clinic", "--mode", "test", "--database", dbURL).CombinedOutput()
	if err != nil {
		b.Fatalf("keys create: %v\n%s", err, out)
	}
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	c := &cluster{key: strings.TrimSpace(lines[len(lines)-1]), s3Pid: s3.Pid}
	if c.db, err = sql.Open("pgx", dbURL); err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { c.db.Close() })
	dir := b.TempDir()
	secretsKey := secrets.NewKey()
	for i := range n {
		logf, err := os.Create(filepath.Join(dir, fmt.Sprintf("replica%d.log", i)))
		if err != nil {
			b.Fatal(err)
		}
		args := []string{"--workers", "4", "--log-level", "warn", "--secrets-key", secretsKey,
			"--database", dbURL, "--blob", blobURL, "--data", filepath.Join(dir, fmt.Sprintf("data%d", i))}
		r := &replica{name: fmt.Sprintf("replica%d", i), addr: freePort(b), log: logf, args: args, env: env}
		r.start(b, bin)
		c.replicas = append(c.replicas, r)
		b.Cleanup(func() {
			r.stop()
			if b.Failed() {
				out, _ := os.ReadFile(logf.Name())
				b.Logf("%s log:\n%s", r.name, tail(out, 3000))
			}
			logf.Close()
		})
	}
	for _, r := range c.replicas {
		r.waitReady(b, time.Minute)
	}
	return c
}

// loadResult is what the clients saw.
type loadResult struct {
	mu           sync.Mutex
	latencies    []time.Duration // of the 2xx answers
	failed       atomic.Int64
	firstFailure atomic.Value
}

// drive sends requests from clients goroutines, round-robin over the
// replicas, until ctx ends. A request still in flight then is not counted.
func drive(ctx context.Context, c *cluster, clients int, request func(n int64) (string, []byte), res *loadResult) {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer hc.CloseIdleConnections()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			for ctx.Err() == nil {
				n := c.seq.Add(1)
				path, body := request(n)
				req, _ := http.NewRequestWithContext(ctx, "POST", c.replicas[n%int64(len(c.replicas))].url()+path, bytes.NewReader(body))
				req.Header.Set("Authorization", "Key "+c.key)
				req.Header.Set("Content-Type", "application/json")
				start := time.Now()
				resp, err := hc.Do(req)
				if ctx.Err() != nil {
					return
				}
				if err == nil {
					io.Copy(io.Discard, resp.Body) // so the connection is reused
					resp.Body.Close()
					if resp.StatusCode/100 != 2 {
						err = fmt.Errorf("HTTP %d", resp.StatusCode)
					}
				}
				if err != nil {
					res.failed.Add(1)
					res.firstFailure.CompareAndSwap(nil, err.Error())
					continue
				}
				d := time.Since(start)
				res.mu.Lock()
				res.latencies = append(res.latencies, d)
				res.mu.Unlock()
			}
		})
	}
	wg.Wait()
}

// cpuTimes is CPU time (user + system) spent so far by each part.
type cpuTimes struct {
	replicas, postgres, s3, client time.Duration
	// postgresByPid: a backend exits when its connection closes, so
	// PostgreSQL's time is summed per process (what exited in between is
	// not counted: the replicas' pools keep their connections).
	postgresByPid map[int]time.Duration
}

func (c *cluster) cpu() cpuTimes {
	var t cpuTimes
	for _, r := range c.replicas {
		r.mu.Lock()
		t.replicas += processCPU(r.cmd.Process.Pid)
		r.mu.Unlock()
	}
	t.s3 = processCPU(c.s3Pid)
	t.postgresByPid = map[int]time.Duration{}
	procs, _ := filepath.Glob("/proc/[0-9]*/comm")
	for _, p := range procs {
		if comm, err := os.ReadFile(p); err == nil && strings.TrimSpace(string(comm)) == "postgres" {
			pid, _ := strconv.Atoi(filepath.Base(filepath.Dir(p)))
			t.postgresByPid[pid] = processCPU(pid)
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	t.client = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return t
}

func (t cpuTimes) minus(o cpuTimes) cpuTimes {
	d := cpuTimes{replicas: t.replicas - o.replicas, s3: t.s3 - o.s3, client: t.client - o.client}
	for pid, cpu := range t.postgresByPid {
		d.postgres += cpu - o.postgresByPid[pid]
	}
	return d
}

// share says how much of the machine's cores each part used over elapsed.
func (t cpuTimes) share(elapsed time.Duration) string {
	cores := float64(elapsed) / 100 // percent of one core
	return fmt.Sprintf("replicas %.0f%%, postgres %.0f%%, versitygw %.0f%%, load generator %.0f%% of one core",
		float64(t.replicas)/cores, float64(t.postgres)/cores, float64(t.s3)/cores, float64(t.client)/cores)
}

// processCPU reads a process's user + system time from /proc (0 if gone).
func processCPU(pid int) time.Duration {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0
	}
	// Fields after the command (which may hold spaces) start past ")".
	fields := strings.Fields(string(stat[bytes.LastIndexByte(stat, ')')+1:]))
	if len(fields) < 13 {
		return 0
	}
	utime, _ := strconv.ParseInt(fields[11], 10, 64)
	stime, _ := strconv.ParseInt(fields[12], 10, 64)
	const ticksPerSecond = 100 // USER_HZ on Linux
	return time.Duration(utime+stime) * time.Second / ticksPerSecond
}

func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

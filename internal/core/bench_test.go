package core_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// benchEnv makes the test binary a benchmark worker: "file|dataDir".
const benchEnv = "CLEARHOUSE_CORE_BENCH_WORKER"

// benchResult is what a benchmark worker reports on stdout.
type benchResult struct {
	Seconds      float64 `json:"seconds"`
	MaxRSSKB     int64   `json:"maxRssKB"`
	CPUSeconds   float64 `json:"cpuSeconds"`
	RunqSeconds  float64 `json:"runqSeconds"` // runnable but waiting for a CPU (other processes)
	Status       string  `json:"status"`
	Transactions int     `json:"transactions"`
	Fault        string  `json:"fault,omitempty"`
}

// BenchmarkInbound837P processes a generated 837P of 100,000 claims
// (≈59 MB) end to end on the embedded default (SQLite and files): receive,
// parse, validate against the guide, Guide JSON and fragments of 800
// claims to the blob store, records and events. Each run is a fresh worker
// process, so peak-RSS-MB is the whole process's high-water mark.
// CLEARHOUSE_BENCH_CLAIMS changes the claim count (1000000 for 10×);
// CLEARHOUSE_BENCH_CPUPROFILE and CLEARHOUSE_BENCH_MEMPROFILE profile the
// worker (CPU; allocations), CLEARHOUSE_BENCH_HEAPPROFILE writes the live
// heap at its highest. CLEARHOUSE_BENCH_KIND=835 processes claim payments
// instead (the seeded 835 setting's fragments), and CLEARHOUSE_BENCH_PERSET
// puts that many claims in each set (a huge single set). runq-s/op is the time the worker's threads
// were runnable but waiting for a CPU: on a shared machine, most of the
// difference between e2e-MB/s and cpu-MB/s.
func BenchmarkInbound837P(b *testing.B) {
	claims := 100_000
	if v := os.Getenv("CLEARHOUSE_BENCH_CLAIMS"); v != "" {
		claims, _ = strconv.Atoi(v)
	}
	perSet, _ := strconv.Atoi(os.Getenv("CLEARHOUSE_BENCH_PERSET"))
	kind := x12gen.Kind(cmp.Or(os.Getenv("CLEARHOUSE_BENCH_KIND"), string(x12gen.Claims837P)))
	path := filepath.Join(b.TempDir(), "claims.x12")
	f, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	stats, err := x12gen.Generate(w, x12gen.Options{Kind: kind, Seed: 1, Items: claims, PerSet: perSet})
	if err == nil {
		err = w.Flush()
	}
	f.Close()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(stats.Bytes)
	b.ReportMetric(float64(claims), "claims")
	var rss int64
	var secs, cpu, runq float64
	b.ResetTimer()
	for range b.N {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), benchEnv+"="+path+"|"+b.TempDir())
		cmd.Stderr = os.Stderr
		out, err := cmd.Output()
		if err != nil {
			b.Fatal(err)
		}
		var res benchResult
		if err := json.Unmarshal(out, &res); err != nil {
			b.Fatalf("worker said %q: %v", out, err)
		}
		if res.Status != store.ExecutionCompleted || res.Transactions != stats.Sets {
			b.Fatalf("worker: %+v (want %d transactions)", res, stats.Sets)
		}
		rss = max(rss, res.MaxRSSKB)
		secs += res.Seconds
		cpu += res.CPUSeconds
		runq += res.RunqSeconds
	}
	b.ReportMetric(float64(stats.Bytes)*float64(b.N)/1e6/secs, "e2e-MB/s")
	b.ReportMetric(float64(stats.Bytes)*float64(b.N)/1e6/cpu, "cpu-MB/s")
	b.ReportMetric(float64(rss)/1024, "peak-RSS-MB")
	b.ReportMetric(runq/float64(b.N), "runq-s/op")
}

// runBenchWorker receives and processes one file in a fresh data directory.
func runBenchWorker(spec string) int {
	file, dataDir, _ := strings.Cut(spec, "|")
	if prof := os.Getenv("CLEARHOUSE_BENCH_HEAPPROFILE"); prof != "" {
		stop := watchHeap(prof)
		defer stop()
	}
	if prof := os.Getenv("CLEARHOUSE_BENCH_CPUPROFILE"); prof != "" {
		f, err := os.Create(prof)
		if err == nil {
			pprof.StartCPUProfile(f)
			defer pprof.StopCPUProfile()
		}
	}
	res, err := benchWorker(file, dataDir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	pprof.StopCPUProfile()
	if prof := os.Getenv("CLEARHOUSE_BENCH_MEMPROFILE"); prof != "" {
		if f, err := os.Create(prof); err == nil {
			pprof.Lookup("allocs").WriteTo(f, 0)
			f.Close()
		}
	}
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	res.MaxRSSKB = ru.Maxrss
	json.NewEncoder(os.Stdout).Encode(res)
	return 0
}

func benchWorker(file, dataDir string) (benchResult, error) {
	ctx := context.Background()
	st, err := store.Open(ctx, dataDir, "")
	if err != nil {
		return benchResult{}, err
	}
	defer st.Close()
	blobs, err := blob.Open(ctx, "", dataDir)
	if err != nil {
		return benchResult{}, err
	}
	defer blobs.Close()
	quiet := slog.New(slog.DiscardHandler)
	q := jobs.New(st, jobs.Options{PollInterval: 100 * time.Millisecond, Logger: quiet})
	svc, err := core.New(core.Options{Store: st, Blob: blobs, Jobs: q, Logger: quiet})
	if err != nil {
		return benchResult{}, err
	}
	acct := store.NewID()
	now := time.Now()
	mode := store.ModeTest
	for _, err := range []error{
		st.CreateAccount(ctx, store.Account{ID: acct, Name: "bench", CreatedAt: now}),
		st.CreateProfile(ctx, store.Profile{ID: "payer", AccountID: acct, Mode: mode, Type: store.ProfileLocal, ISAQualifier: "ZZ", ISAID: "PAYERGEN", CreatedAt: now}),
		st.CreateProfile(ctx, store.Profile{ID: "provider", AccountID: acct, Mode: mode, Type: store.ProfilePartner, ISAQualifier: "ZZ", ISAID: "CLEARHOUSEGEN", CreatedAt: now}),
		st.CreatePartnership(ctx, store.Partnership{ID: "payer_provider", AccountID: acct, Mode: mode, Type: store.PartnershipTypeX12, LocalProfileID: "payer", PartnerProfileID: "provider", CreatedAt: now}),
		st.CreateTransactionSetting(ctx, store.TransactionSetting{ID: "claims-in", AccountID: acct, Mode: mode, PartnershipID: "payer_provider",
			Direction: store.DirectionInbound, GuideID: "005010X222A1", TransactionSetIdentifier: "837",
			FragmentsEnabled: true, FragmentsBatchSize: 800, FragmentsKeyName: "claim_information_CLM_loop", CreatedAt: now}),
		st.CreateTransactionSetting(ctx, store.TransactionSetting{ID: "payments-in", AccountID: acct, Mode: mode, PartnershipID: "payer_provider",
			Direction: store.DirectionInbound, GuideID: "005010X221A1", TransactionSetIdentifier: "835",
			FragmentsEnabled: true, FragmentsBatchSize: 800, FragmentsKeyName: "claim_payment_information_CLP_loop", CreatedAt: now}),
	} {
		if err != nil {
			return benchResult{}, err
		}
	}
	in, err := os.Open(file)
	if err != nil {
		return benchResult{}, err
	}
	defer in.Close()
	start, cpuStart, runqStart := time.Now(), cpuTime(), runqTime()
	ex, err := svc.Receive(ctx, core.ReceiveParams{AccountID: acct, Mode: mode, Name: "claims.x12", Body: bufio.NewReaderSize(in, 256<<10)})
	if err != nil {
		return benchResult{}, err
	}
	runCtx, stop := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { q.Run(runCtx); close(done) }()
	defer func() { stop(); <-done }()
	for {
		ex, err = st.GetExecution(ctx, acct, ex.ID)
		if err != nil {
			return benchResult{}, err
		}
		if ex.Status == store.ExecutionCompleted || ex.Status == store.ExecutionFailed {
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	return benchResult{Seconds: time.Since(start).Seconds(), CPUSeconds: (cpuTime() - cpuStart).Seconds(),
		RunqSeconds: (runqTime() - runqStart).Seconds(),
		Status:      ex.Status, Transactions: ex.TransactionCount, Fault: ex.FaultMessage}, nil
}

// watchHeap writes a heap profile to path each time the live heap reaches
// a new high (checked every 100 ms) until stop is called.
func watchHeap(path string) (stop func()) {
	done := make(chan struct{})
	finished := make(chan struct{})
	go func() {
		defer close(finished)
		var high uint64
		var ms runtime.MemStats
		for {
			select {
			case <-done:
				return
			case <-time.After(100 * time.Millisecond):
			}
			runtime.ReadMemStats(&ms)
			if ms.HeapAlloc > high+high/10 {
				high = ms.HeapAlloc
				if f, err := os.Create(path); err == nil {
					pprof.Lookup("heap").WriteTo(f, 0)
					f.Close()
				}
			}
		}
	}()
	return func() { close(done); <-finished }
}

// runqTime is how long the process's threads have been runnable but not
// running (Linux schedstat: waiting on a run queue, for other processes on
// a busy machine), so wall time splits into CPU, this, and real waits (I/O,
// locks, sleeps). Zero where schedstat is missing.
func runqTime() time.Duration {
	tasks, _ := filepath.Glob("/proc/self/task/*/schedstat")
	var sum time.Duration
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		if f := strings.Fields(string(b)); len(f) >= 2 {
			ns, _ := strconv.ParseInt(f[1], 10, 64)
			sum += time.Duration(ns)
		}
	}
	return sum
}

// cpuTime is the process's CPU time so far (user + system).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

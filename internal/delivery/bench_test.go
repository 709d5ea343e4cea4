package delivery_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/internal/claims"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/clock"
	"github.com/clearhouse/clearhouse/internal/core"
	"github.com/clearhouse/clearhouse/internal/delivery"
	"github.com/clearhouse/clearhouse/internal/jobs"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/powercut"
	"github.com/clearhouse/clearhouse/internal/services"
	"github.com/clearhouse/clearhouse/internal/store"
)

// BenchmarkClaimSubmission measures the submission of the example claim
// with persistence on the embedded default (SQLite and files): rules, 837D,
// our 277CA, Guide JSON, and the one database transaction (the 837 and the
// Guide JSON, execution, transaction, claim, event, dispatch and delivery
// jobs), from
// 4 × GOMAXPROCS callers at once (CLAIMS_BENCH_PARALLELISM changes the 4).
// It reports claims/s and the p99 service time; the workers are off, so
// only the submission is measured.
func BenchmarkClaimSubmission(b *testing.B) {
	benchClaims(b, "52133", "../claims/testdata/example.json", func(ctx context.Context, svc *claims.Service, caller claims.Caller, body []byte) error {
		var req claims.Request
		if err := json.Unmarshal(body, &req); err != nil {
			return err
		}
		_, err := svc.Submit(ctx, claims.Submission{Caller: caller, Request: &req, Body: body, Route: "dental-claims/submission"})
		return err
	})
}

// BenchmarkProfessionalClaimSubmission is BenchmarkClaimSubmission for the
// contract's professional example (837P): run both in one
// -bench 'ClaimSubmission' to compare them on the same machine state.
func BenchmarkProfessionalClaimSubmission(b *testing.B) {
	benchClaims(b, "62308", "../claims/testdata/professional/example.json", func(ctx context.Context, svc *claims.Service, caller claims.Caller, body []byte) error {
		var req claims.ProfessionalRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return err
		}
		_, err := svc.SubmitProfessional(ctx, claims.Submission{Caller: caller, Body: body, Route: claims.ProfessionalRoute}, &req)
		return err
	})
}

// BenchmarkInstitutionalClaimSubmission is the same for the contract's
// institutional example (837I).
func BenchmarkInstitutionalClaimSubmission(b *testing.B) {
	benchClaims(b, "87726", "../claims/testdata/institutional/example.json", func(ctx context.Context, svc *claims.Service, caller claims.Caller, body []byte) error {
		var req claims.InstitutionalRequest
		if err := json.Unmarshal(body, &req); err != nil {
			return err
		}
		_, err := svc.SubmitInstitutional(ctx, claims.Submission{Caller: caller, Body: body, Route: claims.InstitutionalRoute}, &req)
		return err
	})
}

// benchClaims runs submit over the request in file, to payer's mock
// partnership, from the benchmark's parallel callers.
func benchClaims(b *testing.B, payer, file string, submit func(ctx context.Context, svc *claims.Service, caller claims.Caller, body []byte) error) {
	ctx := context.Background()
	dir := b.TempDir()
	st, err := store.OpenSQLite(ctx, filepath.Join(dir, store.SQLiteFile))
	if err != nil {
		b.Fatal(err)
	}
	defer st.Close()
	files, err := blob.Open(ctx, "", dir)
	if err != nil {
		b.Fatal(err)
	}
	blobs := blob.WithInline(files, st) // as serve has it: the claim's documents are rows of its transaction
	quiet := slogDiscard()
	q := jobs.New(st, jobs.Options{Logger: quiet})
	c, err := core.New(core.Options{Store: st, Blob: blobs, Jobs: q, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	mock, err := delivery.NewMock(delivery.MockOptions{Payer: services.MockClaimsPayer(mockpayer.New()), Core: c, Store: st, Blob: blobs, Jobs: q, Logger: quiet})
	if err != nil {
		b.Fatal(err)
	}
	d, err := delivery.New(delivery.Options{Store: st, Blob: blobs, Jobs: q, Logger: quiet,
		Transports: map[string]delivery.Transport{store.ConnectionMock: mock}})
	if err != nil {
		b.Fatal(err)
	}
	svc, err := claims.NewService(claims.Options{Store: st, Blob: blobs, Clock: clock.System{}, Logger: quiet, Outbound: d.Enqueue})
	if err != nil {
		b.Fatal(err)
	}
	account := store.NewID()
	if err := st.CreateAccount(ctx, store.Account{ID: account, Name: "Bench", CreatedAt: time.Now()}); err != nil {
		b.Fatal(err)
	}
	if err := claimstest.SetupMockPartners(ctx, st, account, store.ModeTest, payer); err != nil {
		b.Fatal(err)
	}
	body, err := os.ReadFile(file)
	if err != nil {
		b.Fatal(err)
	}
	caller := claims.Caller{AccountID: account, Mode: store.ModeTest}
	var mu sync.Mutex
	var lat []time.Duration
	// 4 × GOMAXPROCS callers unless CLAIMS_BENCH_PARALLELISM says otherwise
	// (fewer callers: less queueing, so a lower p99 at the same throughput).
	parallelism := 4
	if n, err := strconv.Atoi(os.Getenv("CLAIMS_BENCH_PARALLELISM")); err == nil && n > 0 {
		parallelism = n
	}
	b.SetParallelism(parallelism)
	b.ResetTimer()
	powercut.Mark()
	user0, sys0 := cpuTime()
	start := time.Now()
	b.RunParallel(func(pb *testing.PB) {
		var mine []time.Duration
		for pb.Next() {
			t0 := time.Now()
			if err := submit(ctx, svc, caller, body); err != nil {
				b.Error(err)
				return
			}
			mine = append(mine, time.Since(t0))
		}
		mu.Lock()
		lat = append(lat, mine...)
		mu.Unlock()
	})
	elapsed := time.Since(start)
	user1, sys1 := cpuTime()
	powercut.Mark()
	b.StopTimer()
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(len(lat))/elapsed.Seconds(), "claims/s")
		b.ReportMetric(float64(lat[len(lat)*99/100].Microseconds())/1000, "p99-ms")
		b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
		b.ReportMetric(float64(parallelism*runtime.GOMAXPROCS(0)), "callers")
		// CPU per claim tells the throughput of an idle machine (cores ÷
		// cpu-ms) when the benchmark shares a busy one. The kernel's part
		// (file creates, the WAL's writes, waking goroutines) grows most
		// with the load of a shared machine.
		n := float64(len(lat))
		b.ReportMetric(float64((user1-user0+sys1-sys0).Microseconds())/1000/n, "cpu-ms/claim")
		b.ReportMetric(float64((sys1-sys0).Microseconds())/1000/n, "sys-ms/claim")
	}
	// fsyncs per claim, counted under strace in a second run of this
	// benchmark (the testing package's first run, of one claim, is skipped).
	if b.N >= 100 {
		if f, ok := powercut.FsyncsPerOp(b, 300); ok {
			b.ReportMetric(f.All, "fsyncs/claim")
			b.ReportMetric(f.WAL, "wal-fsyncs/claim")
		}
	}
}

// cpuTime is the process's user and system CPU time so far.
func cpuTime() (user, sys time.Duration) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, 0
	}
	return time.Duration(ru.Utime.Nano()), time.Duration(ru.Stime.Nano())
}

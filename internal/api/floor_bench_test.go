package api_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"os"
	"runtime/debug"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/internal/app/apptest"
	"github.com/clearhouse/clearhouse/internal/auth"
	"github.com/clearhouse/clearhouse/internal/claims/claimstest"
	"github.com/clearhouse/clearhouse/internal/mockpayer"
	"github.com/clearhouse/clearhouse/internal/powercut"
	"github.com/clearhouse/clearhouse/internal/store"
	"github.com/clearhouse/clearhouse/internal/store/storetest"
)

// The benchmarks below measure requests over loopback HTTP against the
// whole process (apptest: SQLite with every commit fsynced, blobs fsynced,
// the audit on), each beside its floor from the same run: GET /healthz, a
// request that does nothing, over the same connections. bench/run.sh
// prints each figure as a multiple of that floor. Each reports req/s, the
// p50 and p99 service time seen by the client, and cpu-µs/op: the
// process's CPU time (server and client, both in this process) per
// request, which stays comparable when other processes load the machine.

// floorClients are the keep-alive connections the floor and the checks
// are measured from: one (the sequential p99), 4, and the 16 of issue 29's
// measurement (hey -c 16).
var floorClients = []int{1, 4, 16}

// BenchmarkFloorHealthz is the no-op request from 1, 4 and 16 keep-alive
// clients: the HTTP floor of this machine in this run.
func BenchmarkFloorHealthz(b *testing.B) {
	hs, _ := benchServer(b)
	for _, clients := range floorClients {
		b.Run(clientsName(clients), func(b *testing.B) {
			benchHTTP(b, clients, func(int64) *http.Request {
				req, _ := http.NewRequest("GET", hs.URL+"/healthz", nil)
				return req
			})
		})
	}
}

// BenchmarkFloorEligibility is a mock eligibility check (test mode,
// persisted with its audit entry, answered once both are
// fsynced) from 1 client (the sequential p99), 4 and 16.
func BenchmarkFloorEligibility(b *testing.B) {
	hs, key := benchServer(b)
	var bodies [][]byte
	for _, m := range mockpayer.Requests() {
		if slices.Contains(benchMocks, m.Name) {
			bodies = append(bodies, m.RequestJSON())
		}
	}
	for _, clients := range floorClients {
		b.Run(clientsName(clients), func(b *testing.B) {
			benchHTTP(b, clients, func(i int64) *http.Request {
				return jsonRequest(hs.URL+eligibilityPath, key, bodies[i%int64(len(bodies))])
			})
			reportFsyncs(b)
		})
	}
}

// BenchmarkFloorClaims is the contract's dental and professional example
// claims from 4 keep-alive clients (rate limits off): the 200 is answered
// after the claim, its 837, Guide JSON, delivery job and audit entry
// commit (workers off, so only the submission is measured).
func BenchmarkFloorClaims(b *testing.B) {
	hs, key := benchServer(b)
	for _, c := range []struct{ name, path, file string }{
		{"dental", "/2024-04-01/dental-claims/submission", "../claims/testdata/example.json"},
		{"professional", "/2024-04-01/change/medicalnetwork/professionalclaims/v3/submission", "../claims/testdata/professional/example.json"},
		{"institutional", "/2024-04-01/change/medicalnetwork/institutionalclaims/v1/submission", "../claims/testdata/institutional/example.json"},
	} {
		body, err := os.ReadFile(c.file)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(c.name+"/"+clientsName(4), func(b *testing.B) {
			benchHTTP(b, 4, func(int64) *http.Request { return jsonRequest(hs.URL+c.path, key, body) })
			reportFsyncs(b)
		})
	}
}

func clientsName(n int) string { return "clients=" + strconv.Itoa(n) }

// benchServer is the whole process with a test key whose account has the
// mock payers' partnerships. The garbage collector runs at serve's
// default (GOGC=400, cmd/clearhouse/serve.go) unless GOGC is set, so the
// figures are those of the server as deployed.
func benchServer(b *testing.B) (*apptest.Server, string) {
	if _, set := os.LookupEnv("GOGC"); !set {
		b.Cleanup(func() { debug.SetGCPercent(debug.SetGCPercent(400)) })
	}
	st := storetest.SQLite(b)
	key, rec, err := auth.CreateKey(context.Background(), st, "Bench", auth.ModeTest, "", time.Now())
	if err != nil {
		b.Fatal(err)
	}
	if err := claimstest.SetupMockPartners(context.Background(), st, rec.AccountID, store.ModeTest, "52133", "62308", "87726"); err != nil {
		b.Fatal(err)
	}
	return apptest.New(b, apptest.Options{Store: st}), key
}

func jsonRequest(url, key string, body []byte) *http.Request {
	req, _ := http.NewRequest("POST", url, bytes.NewReader(body))
	req.Header.Set("Authorization", "Key "+key)
	req.Header.Set("Content-Type", "application/json")
	return req
}

// benchHTTP sends b.N requests from clients keep-alive connections and
// reports req/s, the p50 and p99 of their round trips, and the process's
// CPU time per request (cpu-µs/op).
func benchHTTP(b *testing.B, clients int, request func(i int64) *http.Request) {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	var next atomic.Int64
	lat := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	b.ReportAllocs()
	b.ResetTimer()
	powercut.Mark()
	cpu0 := processCPU(b)
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := next.Add(1)
				if i > int64(b.N) {
					return
				}
				t0 := time.Now()
				if !roundTrip(b, client, request(i)) {
					return
				}
				lat[c] = append(lat[c], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	elapsed := time.Since(start)
	cpu := processCPU(b) - cpu0
	powercut.Mark()
	b.StopTimer()
	all := slices.Concat(lat...)
	if len(all) == 0 {
		return
	}
	slices.Sort(all)
	b.ReportMetric(float64(len(all))/elapsed.Seconds(), "req/s")
	b.ReportMetric(float64(all[len(all)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(all[len(all)*99/100].Microseconds())/1000, "p99-ms")
	b.ReportMetric(float64(cpu.Microseconds())/float64(len(all)), "cpu-µs/op")
}

// reportFsyncs reports the fsyncs per request, counted under strace in a
// second run of b's benchmark (see powercut.FsyncsPerOp).
func reportFsyncs(b *testing.B) {
	if b.N < 100 {
		return // the testing package's first run, of one request
	}
	if f, ok := powercut.FsyncsPerOp(b, 300); ok {
		b.ReportMetric(f.All, "fsyncs/req")
	}
}

// processCPU is the CPU time (user and system) this process has used.
func processCPU(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// roundTrip sends req and reads the answer; false (the benchmark failed)
// unless it is a 200.
func roundTrip(b *testing.B, client *http.Client, req *http.Request) bool {
	resp, err := client.Do(req)
	if err != nil {
		b.Error(err)
		return false
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Errorf("status %d", resp.StatusCode)
		return false
	}
	return true
}

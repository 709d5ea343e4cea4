package inboundperf

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// BenchmarkInbound uploads a generated 835 of CLEARHOUSE_INBOUND_MB
// megabytes (default 60, the file) to a fresh server per shape and
// follows it to processed, b.N times: in one set ("one-set") and as sets
// of 1,000 claim payments ("sets-of-1000"). Beside each figure, from the
// same run, is its floor: split-MB/s, a loop that only splits the same file
// into segments (x12.Reader). Metrics: e2e-MB/s (upload to processed, wall
// clock), server-cpu-MB/s (bytes per second of the server's CPU time, the
// steadier figure on a shared machine) and its inverse server-cpu-s/MB
// (CPU seconds per MB), written-MB/MB (the server's bytes written to
// storage per MB of X12, /proc PID io write_bytes) and write-calls/MB (its
// write system calls), floor-fraction (e2e over split),
// cpu-floor-fraction (the same by CPU time: split-cpu-MB/s is the split
// loop's thread CPU) and peak-RSS-MB (the server's high-water mark). CLEARHOUSE_INBOUNDPERF_BIN
// runs another build (before/after in one run: bench/inbound.sh).
// CLEARHOUSE_INBOUNDPERF_CPUPROFILE=DIR writes serve's CPU profile of each
// shape's upload to DIR/SHAPE.pprof (the first
// CLEARHOUSE_INBOUNDPERF_PROFILE_SECONDS, 8 by default, from the upload's start);
// CLEARHOUSE_INBOUNDPERF_TRACE=DIR instead writes serve's execution trace of
// those seconds to DIR/SHAPE.trace (go tool trace -pprof=sync, =syscall: what
// the goroutines waited for).
func BenchmarkInbound(b *testing.B) {
	mb := envInt(b, "CLEARHOUSE_INBOUND_MB", 60)
	for _, shape := range []struct {
		name   string
		perSet int
	}{{"one-set", 1<<31 - 1}, {"sets-of-1000", 1000}} {
		b.Run(shape.name, func(b *testing.B) {
			path, st := generate(b, x12gen.Options{Kind: x12gen.Remittances835, Seed: 1, TargetBytes: int64(mb) * 1e6, PerSet: shape.perSet})
			s := startServer(b, nil, 0)
			b.SetBytes(st.Bytes)
			var wall, split, splitCPU, cpu time.Duration
			var written, writes int64
			b.ResetTimer()
			for range b.N {
				w, c := splitTime(b, path)
				split, splitCPU = split+w, splitCPU+c
				cpu0, io0 := s.cpuTime(), s.io()
				wait := func() {}
				if dir := os.Getenv("CLEARHOUSE_INBOUNDPERF_CPUPROFILE"); dir != "" {
					wait = s.profile(b, filepath.Join(dir, shape.name+".pprof"), envInt(b, "CLEARHOUSE_INBOUNDPERF_PROFILE_SECONDS", 8))
				}
				if dir := os.Getenv("CLEARHOUSE_INBOUNDPERF_TRACE"); dir != "" {
					wait = s.trace(b, filepath.Join(dir, shape.name+".trace"), envInt(b, "CLEARHOUSE_INBOUNDPERF_PROFILE_SECONDS", 8))
				}
				ex, took := s.upload(b, path)
				wait()
				cpu += s.cpuTime() - cpu0
				io1 := s.io()
				written += io1.writeBytes - io0.writeBytes
				writes += io1.writeCalls - io0.writeCalls
				wall += took
				if ex["status"] != "COMPLETED" || ex["transactionCount"] != float64(st.Sets) {
					b.Fatalf("execution %v (want %d transactions)", ex, st.Sets)
				}
			}
			b.StopTimer()
			total := float64(st.Bytes) * float64(b.N) / 1e6
			b.ReportMetric(total/wall.Seconds(), "e2e-MB/s")
			b.ReportMetric(total/split.Seconds(), "split-MB/s")
			b.ReportMetric(split.Seconds()/wall.Seconds(), "floor-fraction")
			b.ReportMetric(total/cpu.Seconds(), "server-cpu-MB/s")
			b.ReportMetric(cpu.Seconds()/total, "server-cpu-s/MB")
			b.ReportMetric(total/splitCPU.Seconds(), "split-cpu-MB/s")
			b.ReportMetric(splitCPU.Seconds()/cpu.Seconds(), "cpu-floor-fraction")
			b.ReportMetric(float64(written)/1e6/total, "written-MB/MB")
			b.ReportMetric(float64(writes)/total, "write-calls/MB")
			b.ReportMetric(float64(s.stop())/(1<<20), "peak-RSS-MB")
			b.Logf("%s: %d claims in %d sets, load average %s", shape.name, st.Items, st.Sets, loadAverage())
		})
	}
}

// splitTime is the floor: reading the file and splitting it into
// segments. It returns the wall time and the CPU time it took.
func splitTime(b *testing.B, path string) (wall, cpu time.Duration) {
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	runtime.LockOSThread() // the thread's CPU time is the loop's
	defer runtime.UnlockOSThread()
	start, cpu0 := time.Now(), threadCPU()
	r := x12.NewReader(bufio.NewReaderSize(f, 1<<20))
	for {
		if _, err := r.Next(); err == io.EOF {
			return time.Since(start), threadCPU() - cpu0
		} else if err != nil {
			b.Fatal(err)
		}
	}
}

// threadCPU is the calling thread's CPU time (user + system).
func threadCPU() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(rusageThread, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// rusageThread is Linux's RUSAGE_THREAD.
const rusageThread = 1

// cpuTime is the server's CPU time so far (user + system, /proc stat).
func (s *server) cpuTime() time.Duration {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0
	}
	// Fields after the command name (which may hold spaces) in parentheses.
	f := strings.Fields(string(raw[strings.LastIndexByte(string(raw), ')')+2:]))
	utime, _ := strconv.ParseInt(f[11], 10, 64)
	stime, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(utime+stime) * time.Second / 100 // USER_HZ
}

// ioCounts are the server's storage writes so far (/proc PID io): bytes
// handed to the block layer (the page cache's dirty bytes, and O_DIRECT
// writes) and write system calls.
type ioCounts struct{ writeBytes, writeCalls int64 }

func (s *server) io() ioCounts {
	raw, err := os.ReadFile(fmt.Sprintf("/proc/%d/io", s.cmd.Process.Pid))
	if err != nil {
		return ioCounts{}
	}
	var c ioCounts
	for _, line := range strings.Split(string(raw), "\n") {
		name, v, _ := strings.Cut(line, ": ")
		n, _ := strconv.ParseInt(v, 10, 64)
		switch name {
		case "write_bytes":
			c.writeBytes = n
		case "syscw":
			c.writeCalls = n
		}
	}
	return c
}

func loadAverage() string {
	b, _ := os.ReadFile("/proc/loadavg")
	return strings.Join(strings.Fields(string(b))[:3], " ")
}

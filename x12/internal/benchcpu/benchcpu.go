// Package benchcpu holds what the x12 and x12/guide benchmarks share: a
// CPU-time throughput metric and the generated 837P they read.
//
// The machines these benchmarks run on are shared: the wall clock also
// counts the time other processes held the cores, so "cpu-MB/s" (bytes per
// second of this process's user + system time) is the steadier figure.
package benchcpu

import (
	"syscall"
	"testing"
	"time"
)

// Now returns the process's CPU time so far (user + system).
func Now() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// Report adds the "cpu-MB/s" metric: size bytes per iteration, b.N
// iterations, over the CPU time spent since start.
func Report(b *testing.B, start time.Duration, size int64) {
	if d := Now() - start; d > 0 {
		b.ReportMetric(float64(size)*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
	}
}

// Thread returns the calling thread's CPU time so far (user + system; Linux
// RUSAGE_THREAD): callers lock the goroutine to its thread first, so a
// benchmark can time two phases of one iteration apart.
func Thread() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

const rusageThread = 1 // RUSAGE_THREAD

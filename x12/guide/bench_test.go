package guide_test

import (
	"bytes"
	"io"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// benchSize is the generated 837P of the benchmarks (≥ 40 MB).
const benchSize = 40 << 20

var benchData = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	buf.Grow(benchSize + 1<<20)
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Seed: 1, TargetBytes: benchSize}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

// cpuClock reports the process's CPU time (user + system), so the
// benchmarks can state throughput per CPU second: on a shared machine the
// wall clock also counts the time other processes held the cores.
func cpuClock() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU adds the "cpu-MB/s" metric: bytes per CPU second.
func reportCPU(b *testing.B, start time.Duration, n int64) {
	if d := cpuClock() - start; d > 0 {
		b.ReportMetric(float64(n)*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkValidateAndTranslate is the target: one pass that
// validates every set against the 837P guide and writes its Guide JSON.
func BenchmarkValidateAndTranslate(b *testing.B) {
	data := benchData()
	guide.Guides() // load the embedded guides outside the measurement
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuClock()
	defer reportCPU(b, start, int64(len(data)))
	for b.Loop() {
		errs := 0
		err := guide.Translate(io.Discard, bytes.NewReader(data), guide.TranslateOptions{
			Validate: true, OnFinding: func(f x12.Finding) {
				if f.Rejects() {
					errs++
				}
			}})
		if err != nil {
			b.Fatal(err)
		}
		if errs != 0 {
			b.Fatalf("%d findings on generated data", errs)
		}
	}
}

// BenchmarkTranslate writes Guide JSON following the guide, without element checks.
func BenchmarkTranslate(b *testing.B) {
	data := benchData()
	guide.Guides() // load the embedded guides outside the measurement
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuClock()
	defer reportCPU(b, start, int64(len(data)))
	for b.Loop() {
		if err := guide.Translate(io.Discard, bytes.NewReader(data), guide.TranslateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidate runs the envelope and guide validators (x12.Validate
// with guide.NewSetValidator), as "clearhouse x12 validate" does.
func BenchmarkValidate(b *testing.B) {
	data := benchData()
	guide.Guides() // load the embedded guides outside the measurement
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := cpuClock()
	defer reportCPU(b, start, int64(len(data)))
	for b.Loop() {
		rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Sets: guide.NewSetValidator(guide.Options{}), NoTree: true})
		if err != nil {
			b.Fatal(err)
		}
		_ = rep
	}
}

package reports

import (
	"bytes"
	"io"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
)

// An 835 of 10,000 claim payments (≈5 MB) converted to report JSON, beside
// `x12 validate` of the same bytes (envelopes and the 835 guide) in the same
// run: go test ./internal/reports -run '^$' -bench 835 -count 6 | benchstat -.
func bench835(b *testing.B) []byte {
	var src bytes.Buffer
	write835(&src, 10000)
	return src.Bytes()
}

// cpuMBps reports MB per second of this process's CPU time: on a shared
// machine the wall clock also counts other processes' turns.
func cpuMBps(b *testing.B, bytes int) func() {
	start := cpuTime()
	return func() {
		if spent := cpuTime() - start; spent > 0 {
			b.ReportMetric(float64(bytes*b.N)/1e6/spent.Seconds(), "cpu-MB/s")
		}
	}
}

func cpuTime() time.Duration {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func BenchmarkConvert835(b *testing.B) {
	src := bench835(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	defer cpuMBps(b, len(src))()
	for b.Loop() {
		if err := Convert835(bytes.NewReader(src), io.Discard, Meta{}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkValidate835(b *testing.B) {
	src := bench835(b)
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	defer cpuMBps(b, len(src))()
	for b.Loop() {
		rep, err := x12.Validate(bytes.NewReader(src), x12.ValidateOptions{NoTree: true, Sets: guide.NewSetValidator(guide.Options{})})
		if err != nil {
			b.Fatal(err)
		}
		if rep.Count(x12.Error) > 0 {
			b.Fatalf("the generated 835 does not validate: %v", rep.All()[0])
		}
	}
}

// Memory does not grow with the set: 50,000 claims streamed through the
// converter (the source is generated into a pipe, never held) peak at about
// the heap of 2,000.
func TestConvert835BoundedMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 25 MB")
	}
	peak := func(claims int) uint64 {
		pr, pw := io.Pipe()
		go func() { pw.CloseWithError(write835(pw, claims)) }()
		runtime.GC()
		done := make(chan error, 1)
		go func() { done <- Convert835(pr, io.Discard, Meta{}) }()
		var max uint64
		for {
			select {
			case err := <-done:
				if err != nil {
					t.Fatal(err)
				}
				return max
			default:
				var m runtime.MemStats
				runtime.ReadMemStats(&m)
				if m.HeapInuse > max {
					max = m.HeapInuse
				}
				time.Sleep(time.Millisecond)
			}
		}
	}
	small, large := peak(2000), peak(50000)
	t.Logf("peak heap in use: %d KB for 2,000 claims, %d KB for 50,000", small>>10, large>>10)
	if large > small+16<<20 { // holding every claim would take ~100 MB
		t.Errorf("heap in use %d KB for 50,000 claims vs %d KB for 2,000: the conversion holds more than one claim", large>>10, small>>10)
	}
}

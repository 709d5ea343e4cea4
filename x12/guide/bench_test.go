package guide_test

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/internal/benchcpu"
)

// benchData is the generated 837P every benchmark here reads.
var benchData = benchcpu.Claims837P

// benchmark runs f over the generated 837P, reporting MB/s by the wall
// clock and by CPU time.
func benchmark(b *testing.B, f func(data []byte) error) {
	data := benchData()
	guide.Guides() // load the embedded guides outside the measurement
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	b.ResetTimer()
	start := benchcpu.Now()
	defer benchcpu.Report(b, start, int64(len(data)))
	for b.Loop() {
		if err := f(data); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateAndTranslate is the target: one pass that
// validates every set against the 837P guide and writes its Guide JSON.
func BenchmarkValidateAndTranslate(b *testing.B) {
	benchmark(b, func(data []byte) error {
		errs := 0
		err := guide.Translate(io.Discard, bytes.NewReader(data), guide.TranslateOptions{
			Validate: true, OnFinding: func(f x12.Finding) {
				if f.Rejects() {
					errs++
				}
			}})
		if err == nil && errs != 0 {
			err = fmt.Errorf("%d findings on generated data", errs)
		}
		return err
	})
}

// BenchmarkTranslate writes Guide JSON following the guide, without element checks.
func BenchmarkTranslate(b *testing.B) {
	benchmark(b, func(data []byte) error {
		return guide.Translate(io.Discard, bytes.NewReader(data), guide.TranslateOptions{})
	})
}

// BenchmarkValidate runs the envelope and guide validators (x12.Validate
// with guide.NewSetValidator), as "clearhouse x12 validate" does.
func BenchmarkValidate(b *testing.B) {
	benchmark(b, func(data []byte) error {
		_, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Sets: guide.NewSetValidator(guide.Options{}), NoTree: true})
		return err
	})
}

// BenchmarkReadOnly is the reference for the numbers above on the same
// machine at the same moment: x12.Reader over the same bytes, nothing else.
// On a shared machine, compare the ratios, not the absolute figures.
func BenchmarkReadOnly(b *testing.B) {
	benchmark(b, func(data []byte) error {
		r := x12.NewReader(bytes.NewReader(data))
		for {
			if _, err := r.Next(); err != nil {
				if err == io.EOF {
					return nil
				}
				return err
			}
		}
	})
}

// BenchmarkWalk follows the 837P loop structure only (no element checks,
// no rules, no JSON): the cost of placing every segment in its loop.
func BenchmarkWalk(b *testing.B) {
	g, _ := guide.ByID("837P")
	benchmark(b, func(data []byte) error {
		r := x12.NewReader(bytes.NewReader(data))
		v := guide.NewValidator(guide.Options{SkipElements: true, SkipBusiness: true})
		for {
			seg, err := r.Next()
			if err == io.EOF {
				return nil
			}
			if err != nil {
				return err
			}
			switch string(seg.IDBytes()) {
			case "ST":
				v.Begin(g, seg, nil)
			case "ISA", "GS", "GE", "IEA":
			case "SE":
				v.Step(seg)
				v.End()
			default:
				v.Step(seg)
			}
		}
	})
}

// BenchmarkValidateVsSplit runs, in each iteration, "clearhouse x12
// validate"'s work (BenchmarkValidate) and the split floor (BenchmarkReadOnly)
// over the same bytes, one right after the other on one locked thread, so
// both see the same machine: validate-MB/s and split-MB/s are wall-clock
// figures and floor-fraction validate's over split's (the issue asks for ≥
// 0.25); cpu-floor-fraction is the same ratio by the process's CPU time
// (validation checks sets on other goroutines when there is a second core:
// this counts them all), steadier when other processes hold the cores.
// bench/validate-instructions.sh
// counts the instructions of splitOnce and validateOnce under callgrind,
// which a busy machine does not move at all.
func BenchmarkValidateVsSplit(b *testing.B) {
	data := benchData()
	guide.Guides()
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var validate, split, validateCPU, splitCPU time.Duration
	for b.Loop() {
		t0, c0 := time.Now(), benchcpu.Now()
		if err := splitOnce(data); err != nil {
			b.Fatal(err)
		}
		t1, c1 := time.Now(), benchcpu.Now()
		if err := validateOnce(data); err != nil {
			b.Fatal(err)
		}
		validate, split = validate+time.Since(t1), split+t1.Sub(t0)
		validateCPU, splitCPU = validateCPU+benchcpu.Now()-c1, splitCPU+c1-c0
	}
	mb := float64(len(data)) * float64(b.N) / 1e6
	b.ReportMetric(mb/validate.Seconds(), "validate-MB/s")
	b.ReportMetric(mb/split.Seconds(), "split-MB/s")
	b.ReportMetric(split.Seconds()/validate.Seconds(), "floor-fraction")
	b.ReportMetric(splitCPU.Seconds()/validateCPU.Seconds(), "cpu-floor-fraction")
}

// splitOnce is the split floor: the segments of data, read and dropped.
//
//go:noinline
func splitOnce(data []byte) error {
	r := x12.NewReader(bytes.NewReader(data))
	for {
		if _, err := r.Next(); err == io.EOF {
			return nil
		} else if err != nil {
			return err
		}
	}
}

// validateOnce is "clearhouse x12 validate"'s work over data: the envelope
// and guide validators, findings streamed (none expected).
//
//go:noinline
func validateOnce(data []byte) error {
	rejects := 0
	rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Sets: guide.NewSetValidator(guide.Options{}), NoTree: true,
		OnFinding: func(f x12.Finding) {
			if f.Rejects() {
				rejects++
			}
		}})
	switch {
	case err != nil:
		return err
	case rejects > 0:
		return fmt.Errorf("%d findings reject generated data", rejects)
	case rep.Segments == 0:
		return fmt.Errorf("no segments")
	}
	return nil
}

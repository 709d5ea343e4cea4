package x12_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"reflect"
	"runtime"
	"runtime/metrics"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// oneBigSet is a generated 837P whose claims are all in one set.
func oneBigSet(t testing.TB, claims int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Items: claims, PerSet: claims, Seed: 4}); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestPipelineSplitsSets: one large set is cut into pieces checked on
// several workers from guessed states, and the findings (in order) and the
// report are those of a sequential run, whether the guesses are found
// right, found wrong (checked again from the right state) or panic. The
// inputs: one set of 400 claims, the same with claims' HL parents changed
// (the guess's key changes, or names no parent), and with findings in many
// claims (claim totals off, a segment id broken).
func TestPipelineSplitsSets(t *testing.T) {
	base := oneBigSet(t, 400)
	inputs := map[string][]byte{
		"one set":           base,
		"claim totals off":  bytes.ReplaceAll(base, []byte("*11:B:1*Y*A*Y*Y~"), []byte("*11:B:1*Y*A*Y*N~")),
		"HL parents change": bytes.ReplaceAll(base, []byte("*1*22*1~"), []byte("*7*22*1~")),
		"a parent missing":  bytes.Replace(base, []byte("*1*22*0~"), []byte("**22*0~"), 40),
		"ids broken":        bytes.ReplaceAll(base, []byte("~DMG*D8*1955"), []byte("~DMx*D8*1955")),
		"sum items off":     bytes.ReplaceAll(base, []byte("~SV1*HC:99213*"), []byte("~SV1*HC:99213*1")),
		"one long claim":    longClaim(base),
	}
	type mode struct {
		name string
		same func(bool) bool
		fail func() bool
	}
	var n atomic.Int64
	modes := []mode{
		{"guesses as found", nil, nil},
		{"every guess wrong", func(bool) bool { return false }, nil},
		{"every third guess wrong", func(ok bool) bool { return ok && n.Add(1)%3 != 0 }, nil},
		{"every fourth guess panics", nil, func() bool { return n.Add(1)%4 == 0 }},
		// A piece whose guess panicked keeps at most maxKept batches
		// before its verdict: keeping them all held every buffer the
		// reader may fill, and the reader and the worker waited for each
		// other.
		{"every guess panics", nil, func() bool { return true }},
	}
	// The reader checks jobs itself when it is ahead of the workers: as
	// it chooses, every job it can, or none.
	helps := []struct {
		name string
		help func(int) int
	}{{"the reader helps as it chooses", nil}, {"the reader checks all it can", func(int) int { return 1 }},
		{"the reader checks none", func(int) int { return 1 << 30 }}}
	var stats []x12.SplitStats
	defer x12.SetSplitTest(nil, nil, nil)()
	defer x12.SetHelpTest(nil)()
	for name, data := range inputs {
		for _, ro := range [][]x12.ReaderOption{{x12.WithBufferSize(512)}, {x12.WithBufferSize(4096)}} {
			want, wantRep := validateWith(t, data, 1, ro)
			for _, m := range modes {
				x12.SetSplitTest(m.same, m.fail, func(s x12.SplitStats) { stats = append(stats, s) })
				for i, workers := range []int{2, 3, 2, 3, 2} {
					h := helps[i%len(helps)]
					x12.SetHelpTest(h.help)
					stats = stats[:0]
					got, rep := validateWith(t, data, workers, ro)
					what := fmt.Sprintf("%s, %s, %d workers, %s, %d reader options", name, m.name, workers, h.name, len(ro))
					if !reflect.DeepEqual(got, want) {
						t.Fatalf("%s: %d findings, sequentially %d", what, len(got), len(want))
					}
					if !reflect.DeepEqual(rep, wantRep) {
						t.Fatalf("%s: the reports differ", what)
					}
					if len(stats) != 1 || stats[0].Pieces < 10 {
						t.Fatalf("%s: pieces %+v, want 10 or more", what, stats)
					}
					if s := stats[0]; h.help != nil && (s.Helped == 0) != (h.help(1) > 1) {
						t.Fatalf("%s: %+v: the reader checked %d jobs", what, s, s.Helped)
					}
					if s := stats[0]; m.same == nil && m.fail == nil && name == "one set" && s.Wrong > 0 {
						t.Fatalf("%s: %+v: guesses found wrong on a file without findings", what, s)
					}
				}
			}
		}
	}
}

// longClaim gives the 200th claim of data 400 more service lines (about
// 24 KB without an HL segment): a piece longer than all the buffers the
// reader may fill.
func longClaim(data []byte) []byte {
	at := 0
	for range 200 {
		at += bytes.Index(data[at:], []byte("~HI*")) + 1
	}
	at += bytes.IndexByte(data[at:], '~') + 1 // after the HI segment
	lines := bytes.Repeat([]byte("LX*1~SV1*HC:36415*333.03*UN*1***1~DTP*472*D8*20240101~REF*6R*L1-1~"), 400)
	return append(append(append([]byte(nil), data[:at]...), lines...), data[at:]...)
}

// validateWith validates data with the 837P guide on workers (1: on the
// calling goroutine), returning the findings streamed and the report.
func validateWith(t testing.TB, data []byte, workers int, ro []x12.ReaderOption) ([]x12.Finding, *x12.Report) {
	t.Helper()
	var out []x12.Finding
	rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Reader: ro, Workers: workers,
		Sets: guide.NewSetValidator(guide.Options{}), OnFinding: func(f x12.Finding) { out = append(out, f) }})
	if err != nil {
		t.Fatal(err)
	}
	return out, rep
}

// TestPipelineSplitMemory: one set of many claims under one billing
// provider (the 837P has a million: CLEARHOUSE_SPLIT_CLAIMS), read
// from a stream and checked on two workers, keeps the live heap bounded
// whatever the set's size: the pieces keep their chunks only until their
// verdicts.
func TestPipelineSplitMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams tens of MB")
	}
	claims := 100_000
	if s := os.Getenv("CLEARHOUSE_SPLIT_CLAIMS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal(err)
		}
		claims = n
	}
	pr, pw := io.Pipe()
	go func() {
		st, err := x12gen.Generate(pw, x12gen.Options{Kind: x12gen.Claims837P, Items: claims, PerSet: claims, Seed: 6})
		if err == nil && st.Sets != 1 {
			err = fmt.Errorf("%d sets", st.Sets)
		}
		pw.CloseWithError(err)
	}()
	// The live heap the test starts from: what other tests keep (the
	// benchmarks' generated 837P) is not this one's.
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	base := live[0].Value.Uint64()
	var peak atomic.Uint64
	stop := make(chan struct{})
	sampled := make(chan struct{})
	go func() {
		defer close(sampled)
		s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		for {
			select {
			case <-stop:
				return
			case <-time.After(2 * time.Millisecond):
			}
			metrics.Read(s)
			if v := s[0].Value.Uint64(); v > peak.Load() {
				peak.Store(v)
			}
		}
	}()
	var stats []x12.SplitStats
	defer x12.SetSplitTest(nil, nil, func(s x12.SplitStats) { stats = append(stats, s) })()
	rep, err := x12.Validate(pr, x12.ValidateOptions{Workers: 2, NoTree: true, Sets: guide.NewSetValidator(guide.Options{}),
		OnFinding: func(f x12.Finding) { t.Errorf("finding %v", f) }})
	close(stop)
	<-sampled
	if err != nil {
		t.Fatal(err)
	}
	const bound = 16 << 20
	grew := peak.Load() - min(base, peak.Load())
	t.Logf("%d claims, %.1f MB, %+v: live heap grew by %.1f MiB at most (from %.1f MiB)", claims, float64(rep.Bytes)/1e6, stats,
		float64(grew)/(1<<20), float64(base)/(1<<20))
	if len(stats) != 1 || stats[0].Pieces < int(rep.Bytes>>17) {
		t.Fatalf("pieces %+v for %d bytes", stats, rep.Bytes)
	}
	if grew > bound {
		t.Fatalf("the live heap grew by %.1f MiB, want at most %d", float64(grew)/(1<<20), bound>>20)
	}
}

// FuzzPipelineSplit: a set of 60 claims with bytes changed, checked on two
// or three goroutines with the set cut into pieces of about 512 bytes, gives the
// findings and report of the sequential run. The fuzzer's input names
// where the bytes change and what they become, and the reader's buffer.
func FuzzPipelineSplit(f *testing.F) {
	base := oneBigSet(f, 60)
	f.Add(uint32(3000), []byte("*"), uint8(0))
	f.Add(uint32(9000), []byte("~HL*9*1*22*0~"), uint8(1))
	f.Add(uint32(20000), []byte("~"), uint8(2))
	f.Add(uint32(15000), []byte("*7*22*"), uint8(3))
	f.Fuzz(func(t *testing.T, at uint32, with []byte, buf uint8) {
		data := bytes.Clone(base)
		i := 106 + int(at)%(len(data)-106) // past the ISA
		data = append(data[:i:i], append(with[:min(len(with), 64):min(len(with), 64)], data[min(i+len(with), len(data)):]...)...)
		ro := []x12.ReaderOption{x12.WithBufferSize(512 << (buf % 4))}
		want, wantRep := validateWith(t, data, 1, ro)
		// The reader checks jobs as it chooses, every one it can, or none.
		defer x12.SetHelpTest([]func(int) int{nil, func(int) int { return 1 }, func(int) int { return 1 << 30 }}[buf/4%3])()
		got, rep := validateWith(t, data, 2+int(buf/16%2), ro)
		if !reflect.DeepEqual(got, want) || !reflect.DeepEqual(rep, wantRep) {
			t.Fatalf("%d findings on two workers, %d sequentially; reports equal %v", len(got), len(want), reflect.DeepEqual(rep, wantRep))
		}
	})
}

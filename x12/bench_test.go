package x12_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/internal/benchcpu"
)

// benchData is the generated 837P every benchmark here reads.
var benchData = benchcpu.Claims837P

// measure sets up a benchmark over size bytes: MB/s, allocations and, when
// the returned function runs at the end, cpu-MB/s.
func measure(b *testing.B, size int) (done func()) {
	b.SetBytes(int64(size))
	b.ReportAllocs()
	start := benchcpu.Now()
	return func() { benchcpu.Report(b, start, int64(size)) }
}

// BenchmarkBaselineSplit is the floor: split the bytes on the segment
// terminator with bytes.IndexByte, nothing else.
func BenchmarkBaselineSplit(b *testing.B) {
	data := benchData()
	defer measure(b, len(data))()
	for b.Loop() {
		n := 0
		for rest := data; len(rest) > 0; n++ {
			i := bytes.IndexByte(rest, '~')
			if i < 0 {
				break
			}
			rest = rest[i+1:]
		}
		if n < 1000 {
			b.Fatal(n)
		}
	}
}

// BenchmarkBaselineSplitElements is the floor for a full split: segments
// and then elements with bytes.IndexByte over the in-memory file, the
// "split segments + elements" bound of reference/peers.md.
func BenchmarkBaselineSplitElements(b *testing.B) {
	data := benchData()
	defer measure(b, len(data))()
	for b.Loop() {
		total := 0
		for rest := data; len(rest) > 0; {
			i := bytes.IndexByte(rest, '~')
			if i < 0 {
				break
			}
			seg := rest[:i]
			for {
				j := bytes.IndexByte(seg, '*')
				if j < 0 {
					total += len(seg)
					break
				}
				total += j
				seg = seg[j+1:]
			}
			rest = rest[i+1:]
		}
		if total < 1000 {
			b.Fatal(total)
		}
	}
}

// BenchmarkReaderNext streams the file through Reader.Next from an
// io.Reader and looks at every segment id.
func BenchmarkReaderNext(b *testing.B) {
	data := benchData()
	defer measure(b, len(data))()
	for b.Loop() {
		n := 0
		eachSegment(b, data, func(s *x12.Segment) { n += len(s.IDBytes()) })
		if n < 1000 {
			b.Fatal(n)
		}
	}
}

// eachSegment reads data with a Reader and calls fn for every segment.
func eachSegment(b *testing.B, data []byte, fn func(*x12.Segment)) {
	r := x12.NewReader(bytes.NewReader(data))
	for {
		s, err := r.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			b.Fatal(err)
		}
		fn(s)
	}
}

// BenchmarkReaderElements also splits every segment into its elements and
// touches each one.
func BenchmarkReaderElements(b *testing.B) {
	data := benchData()
	defer measure(b, len(data))()
	for b.Loop() {
		total := 0
		eachSegment(b, data, func(s *x12.Segment) {
			for i := 1; i <= s.Len(); i++ {
				total += len(s.ElementBytes(i))
			}
		})
		if total < 1000 {
			b.Fatal(total)
		}
	}
}

// BenchmarkValidate runs the envelope validator over the whole file.
func BenchmarkValidate(b *testing.B) {
	data := benchData()
	defer measure(b, len(data))()
	for b.Loop() {
		rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{NoTree: true})
		if err != nil || rep.Segments < 1000 {
			b.Fatal(err, rep.Segments)
		}
	}
}

// TestReaderHotPathAllocations pins the zero-allocation hot path: reading a
// segment and splitting its elements allocates nothing once the buffers are
// warm.
func TestReaderHotPathAllocations(t *testing.T) {
	data := benchData()[:4<<20]
	r := x12.NewReader(bytes.NewReader(data))
	for range 1000 { // warm up buffers and the id table
		s, _ := r.Next()
		s.ID()
		s.Len()
	}
	allocs := testing.AllocsPerRun(10000, func() {
		s, err := r.Next()
		if err != nil {
			t.Fatal(err)
		}
		_ = s.ID()
		for i := 1; i <= s.Len(); i++ {
			_ = s.ElementBytes(i)
		}
	})
	if allocs != 0 {
		t.Errorf("%.2f allocations per segment, want 0", allocs)
	}
}

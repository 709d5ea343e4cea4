package x12_test

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// addCorpusSeeds seeds a fuzz target with the shared corpus files (small
// ones: mutations of a 330 KB file mostly exercise the copy loop).
func addCorpusSeeds(f *testing.F) {
	dir, files := loadManifest(f)
	for _, cf := range files {
		data, err := os.ReadFile(filepath.Join(dir, cf.Path))
		if err != nil {
			f.Fatal(err)
		}
		if len(data) <= 32<<10 {
			f.Add(data, byte(0))
		}
	}
	f.Add([]byte("ST*270*1~SE*2*1~"), byte(1))
}

// fuzzReaderOptions derives reader options from one fuzz byte, so the
// fuzzer also explores supplied delimiters, strict mode and tiny buffers.
func fuzzReaderOptions(mode byte) []x12.ReaderOption {
	var opts []x12.ReaderOption
	if mode&1 != 0 {
		opts = append(opts, x12.WithDelimiters(x12.DefaultDelimiters))
	}
	if mode&2 != 0 {
		opts = append(opts, x12.WithStrictISA())
	}
	if mode&4 != 0 {
		opts = append(opts, x12.WithBufferSize(512), x12.WithMaxSegmentSize(4096))
	}
	return opts
}

// FuzzReader checks that reading never panics and that segments are
// well-formed views of the input: offsets increase and lie inside it, and
// every accessor stays in bounds.
func FuzzReader(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		r := x12.NewReader(bytes.NewReader(data), fuzzReaderOptions(mode)...)
		last := int64(-1)
		for range 1 << 16 {
			s, err := r.Next()
			if err != nil {
				if err != io.EOF {
					if _, again := r.Next(); again == nil {
						t.Fatal("Next succeeded after an error")
					}
				}
				return
			}
			if s.Offset() <= last {
				t.Fatalf("offset %d after %d", s.Offset(), last)
			}
			last = s.Offset()
			if s.Offset() < 0 || (s.Offset() > int64(len(data)) && !bytes.Contains(data[:min(4, len(data))], []byte{0})) {
				t.Fatalf("offset %d outside input of %d bytes", s.Offset(), len(data))
			}
			_ = s.ID()
			n := s.Len()
			for i := 0; i <= n+1; i++ {
				_ = s.ElementBytes(i)
				_ = s.Component(i, 2)
				_ = s.Repetitions(i)
			}
			if c := s.Clone(); string(c.Raw()) != string(s.Raw()) || c.Len() != n {
				t.Fatal("Clone differs from the segment")
			}
			r.TakeFindings()
		}
	})
}

// FuzzValidate checks that the envelope validator never panics, that every
// finding is located and coded, and that the acknowledgment it leads to is
// itself readable X12 with consistent envelopes.
func FuzzValidate(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(func(t *testing.T, data []byte, mode byte) {
		rep, err := x12.Validate(bytes.NewReader(data), x12.ValidateOptions{Reader: fuzzReaderOptions(mode)})
		if err != nil {
			t.Fatalf("Validate on in-memory input returned an error: %v", err)
		}
		for _, fd := range rep.All() {
			if fd.Code == "" || fd.Severity < x12.Info || fd.Severity > x12.Fatal {
				t.Fatalf("finding without code or severity: %+v", fd)
			}
		}
		var buf bytes.Buffer
		if err := x12.WriteAcks(&buf, rep, x12.AckOptions{}); err != nil {
			return // e.g. nothing to acknowledge, or ISA ids that cannot be echoed
		}
		own, err := x12.Validate(bytes.NewReader(buf.Bytes()), x12.ValidateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, fd := range own.All() {
			switch fd.Code {
			case x12.CodeTA1Segment: // the TA1 echoes the original ISA09/ISA10/ISA13
			default:
				if fd.Severity >= x12.Warning {
					t.Fatalf("acknowledgment has %s\n%s", fd, buf.String())
				}
			}
		}
	})
}

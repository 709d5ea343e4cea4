package core

import (
	"bytes"
	"context"
	"io"
	"strings"
	"syscall"
	"testing"

	"github.com/clearhouse/clearhouse/internal/blob"
	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// TestFragmentsPlacedByTheMainWalk: fragments whose segments are placed by
// the main encoder's steps (guide.JSONEncoder.SegmentAt) are byte for byte
// the fragments of a fragment encoder that walks the guide itself, for
// both guides' repeated loops, batch sizes from one repetition to more
// than a set holds, and sets that end with a trailer after the last
// repetition (the 835's PLB and SE, replayed into the last fragment).
func TestFragmentsPlacedByTheMainWalk(t *testing.T) {
	for _, tc := range []struct {
		name    string
		gen     x12gen.Options
		keyName string
		batch   int
	}{
		{"835 by 1", x12gen.Options{Kind: x12gen.Remittances835, Seed: 3, Items: 40, PerSet: 40}, "claim_payment_information_CLP_loop", 1},
		{"835 by 7", x12gen.Options{Kind: x12gen.Remittances835, Seed: 4, Items: 300, PerSet: 100}, "claim_payment_information_CLP_loop", 7},
		{"835 by 800", x12gen.Options{Kind: x12gen.Remittances835, Seed: 5, Items: 2000, PerSet: 2000}, "claim_payment_information_CLP_loop", 800},
		// Repetitions inside the claims: each claim's CLP is context
		// between them, copied or replayed.
		{"835 service lines by 3", x12gen.Options{Kind: x12gen.Remittances835, Seed: 6, Items: 200, PerSet: 200}, "service_payment_information_SVC_loop", 3},
		{"835 whole set in one", x12gen.Options{Kind: x12gen.Remittances835, Seed: 7, Items: 50, PerSet: 50}, "claim_payment_information_CLP_loop", 800},
		{"837P by 3", x12gen.Options{Kind: x12gen.Claims837P, Seed: 8, Items: 100, PerSet: 50}, "claim_information_CLM_loop", 3},
		{"837P subscribers by 5", x12gen.Options{Kind: x12gen.Claims837P, Seed: 9, Items: 100, PerSet: 100}, "subscriber_hierarchical_level_HL_loop", 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var file bytes.Buffer
			if _, err := x12gen.Generate(&file, tc.gen); err != nil {
				t.Fatal(err)
			}
			walked := fragmentsOf(t, file.Bytes(), tc.keyName, tc.batch, true)
			placed := fragmentsOf(t, file.Bytes(), tc.keyName, tc.batch, false)
			if len(walked) < 2 && tc.batch < tc.gen.PerSet {
				t.Fatalf("%d fragments: the case cuts nothing", len(walked))
			}
			if len(placed) != len(walked) {
				t.Fatalf("%d fragments placed, %d walked", len(placed), len(walked))
			}
			for i := range walked {
				if placed[i] != walked[i] {
					t.Errorf("fragment %d differs:\nplaced %.300s\nwalked %.300s", i, placed[i], walked[i])
				}
			}
		})
	}
}

// fragmentsOf cuts every set of file into fragments as the pass does, each
// fragment encoder walking the guide itself (walk) or placed by the main
// encoder's steps, and returns them in order.
func fragmentsOf(t testing.TB, file []byte, keyName string, batch int, walk bool) []string {
	t.Helper()
	defer func(was bool) { walkFragments = was }(walkFragments)
	walkFragments = walk
	ctx := context.Background()
	blobs := memBlobs{}
	var out []string
	r := x12.NewReader(bytes.NewReader(file))
	var gs08 string
	var main *guide.JSONEncoder
	var f *fragmenter
	for sets := 0; ; {
		seg, err := r.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		switch seg.ID() {
		case "GS":
			gs08 = seg.Element(8)
		case "ST":
			g, ok := guide.For(gs08, seg.Element(1), seg.Element(3))
			if !ok || !hasLoop(g, keyName) {
				t.Fatalf("no guide with %s for %s", keyName, seg.Raw())
			}
			main = guide.NewJSONEncoder(io.Discard)
			main.Begin(g, seg)
			f = newFragmenter(ctx, blobs, g, main, "t"+strings.Repeat("x", sets), "", keyName, batch)
			sets++
			if err := f.begin(seg); err != nil {
				t.Fatal(err)
			}
		case "ISA", "GE", "IEA":
		default:
			main.Segment(seg)
			if err := f.segment(seg, main.LastStep()); err != nil {
				t.Fatal(err)
			}
			if seg.ID() != "SE" {
				continue
			}
			main.End()
			frags, commits, err := f.end()
			if err == nil {
				err = waitCommits(commits)
			}
			if err != nil {
				t.Fatal(err)
			}
			for _, fr := range frags {
				b := blobs[fr.key]
				if int64(b.Len()) != fr.size {
					t.Fatalf("%s: %d bytes, %d counted", fr.key, b.Len(), fr.size)
				}
				out = append(out, b.String())
				delete(blobs, fr.key)
			}
		}
	}
}

// memBlobs keeps the fragments written in memory, by key.
type memBlobs map[string]*bytes.Buffer

func (m memBlobs) Create(_ context.Context, key, _ string) (blob.Writer, error) {
	b := &bytes.Buffer{}
	m[key] = b
	return memWriter{b}, nil
}

type memWriter struct{ *bytes.Buffer }

func (memWriter) Commit() error { return nil }
func (memWriter) Abort()        {}

// BenchmarkFragments cuts an 835 of 20,000 claim payments in one set into
// fragments of 800 (the main encoder's work included), with the fragment
// encoders walking the guide themselves or placed by the main walk.
func BenchmarkFragments(b *testing.B) {
	var file bytes.Buffer
	st, err := x12gen.Generate(&file, x12gen.Options{Kind: x12gen.Remittances835, Seed: 1, Items: 20000, PerSet: 20000})
	if err != nil {
		b.Fatal(err)
	}
	for _, walk := range []bool{true, false} {
		name := map[bool]string{true: "walked", false: "placed"}[walk]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(st.Bytes)
			cpu0 := processCPU()
			for range b.N {
				fragmentsOf(b, file.Bytes(), "claim_payment_information_CLP_loop", 800, walk)
			}
			b.ReportMetric(float64(processCPU()-cpu0)/float64(b.N)/1e6, "cpu-ms/op")
		})
	}
}

// processCPU is the process's user and system CPU time so far, in ns.
func processCPU() int64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return ru.Utime.Nano() + ru.Stime.Nano()
}

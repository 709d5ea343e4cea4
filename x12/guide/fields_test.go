package guide

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
)

// TestScanAgrees: scan (SSE2 on amd64) and scanBytes read random segments
// — delimiters, control characters, DEL, blanks, letters, digits and
// non-ASCII bytes, up to 200 bytes long, at every alignment and with and
// without readable bytes after them — the same way.
func TestScanAgrees(t *testing.T) {
	d := x12.Delimiters{Element: '*', Component: ':', Repetition: '^', Segment: '~'}
	alphabet := []byte("***::^^AB Z09.-\x00\x01\x1f\x7f\x80\xc3\xff\r\n~")
	rng := rand.New(rand.NewPCG(1, 2))
	var a, b fields
	for i := 0; i < 200000; i++ {
		n := rng.IntN(200)
		if i%4 == 0 {
			n = rng.IntN(40)
		}
		buf := make([]byte, 0, n+rng.IntN(20))
		buf = append(buf, "SV"[:1+rng.IntN(2)]...)
		for len(buf) < n {
			buf = append(buf, alphabet[rng.IntN(len(alphabet))])
		}
		if i%50 == 0 {
			// About 127 separators, the most scan reads, in blocks of
			// any alignment (scanSSE counts them once a block).
			buf = append(append(buf[:0], "SV"...), bytes.Repeat([]byte("*A"), 120+rng.IntN(16))...)
			for range rng.IntN(4) {
				buf = append(buf, "**"[:1+rng.IntN(2)]...)
			}
		}
		var seg *x12.Segment
		if i%3 == 0 {
			// Built alone: often nothing readable after its bytes.
			seg = x12.NewSegment(d, string(buf[:1]), string(buf[1:]))
		} else {
			seg = segmentOf(t, d, append(buf, '~'))
		}
		okA, okB := a.scan(seg, d), b.scanBytes(seg, d)
		if okA != okB {
			t.Fatalf("%q: scan %v, scanBytes %v", buf, okA, okB)
		}
		if !okA {
			continue
		}
		if cap(a.raw)-len(a.raw) < 16 || cap(b.raw)-len(b.raw) < 16 {
			// checkSegment reads words past a value without testing.
			t.Fatalf("%q: %d and %d readable bytes after the segment, want 16", buf, cap(a.raw)-len(a.raw), cap(b.raw)-len(b.raw))
		}
		if a.n != b.n || a.compEl != b.compEl || a.repEl != b.repEl || !slices.Equal(a.span[:a.n+1], b.span[:b.n+1]) {
			t.Fatalf("%q: scan n %d comp %b rep %b, scanBytes n %d comp %b rep %b", buf, a.n, a.compEl, a.repEl, b.n, b.compEl, b.repEl)
		}
		for k := 0; k <= a.n+1; k++ {
			if string(a.el(k)) != string(seg.ElementBytes(k)) {
				t.Fatalf("%q: element %d %q, x12.Segment %q", buf, k, a.el(k), seg.ElementBytes(k))
			}
		}
	}
}

// segmentOf reads the first segment of raw as a bare fragment.
func segmentOf(t *testing.T, d x12.Delimiters, raw []byte) *x12.Segment {
	t.Helper()
	r := x12.NewReader(bytes.NewReader(raw), x12.WithDelimiters(d))
	seg, err := r.Next()
	if err != nil {
		t.Fatalf("%q: %v", raw, err)
	}
	return seg
}

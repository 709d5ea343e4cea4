package x12gen_test

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/clearhouse/clearhouse/x12"
	"github.com/clearhouse/clearhouse/x12/guide"
	"github.com/clearhouse/clearhouse/x12/x12gen"
)

func generate(t *testing.T, o x12gen.Options) ([]byte, x12gen.Stats) {
	t.Helper()
	var buf bytes.Buffer
	st, err := x12gen.Generate(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.Bytes != int64(buf.Len()) {
		t.Errorf("Stats.Bytes %d, wrote %d", st.Bytes, buf.Len())
	}
	return buf.Bytes(), st
}

func TestGenerateIsValidAndDeterministic(t *testing.T) {
	for _, o := range []x12gen.Options{
		{Kind: x12gen.Claims837P, Seed: 1, Items: 1200, PerSet: 500, SetsPerInterchange: 2},
		{Kind: x12gen.Inquiries270, Seed: 2, TargetBytes: 200_000, LineBreaks: true},
		{Kind: x12gen.Remittances835, Seed: 4, Items: 3000, PerSet: 2500},
		{Kind: x12gen.Remittances835, Seed: 5, Items: 3},
	} {
		t.Run(string(o.Kind), func(t *testing.T) {
			a, st := generate(t, o)
			b, _ := generate(t, o)
			if !bytes.Equal(a, b) {
				t.Fatal("same options gave different bytes")
			}
			rep, err := guide.Validate(bytes.NewReader(a), guide.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if fs := rep.All(); len(fs) > 0 {
				t.Fatalf("generated file has findings: %v", fs[:min(5, len(fs))])
			}
			if o.TargetBytes > 0 && st.Bytes < o.TargetBytes {
				t.Errorf("wrote %d bytes, target %d", st.Bytes, o.TargetBytes)
			}
			if o.Items > 0 && st.Items != o.Items {
				t.Errorf("wrote %d items, want %d", st.Items, o.Items)
			}
			if int(rep.Segments) != st.Segments || len(rep.Interchanges) != st.Interchanges {
				t.Errorf("stats %+v, report %d segments %d interchanges", st, rep.Segments, len(rep.Interchanges))
			}
		})
	}
}

// TestGoldenHash pins the generator's output so benchmarks stay comparable
// across changes; update the hash deliberately when the format changes.
func TestGoldenHash(t *testing.T) {
	a, _ := generate(t, x12gen.Options{Kind: x12gen.Claims837P, Seed: 1, Items: 100})
	got := fmt.Sprintf("%x", sha256.Sum256(a))[:16]
	if want := "5708e2fdc38bb32f"; got != want {
		t.Errorf("837P seed 1, 100 claims: sha256 prefix %s, want %s", got, want)
	}
}

func TestClaimsBalance(t *testing.T) {
	data, _ := generate(t, x12gen.Options{Kind: x12gen.Claims837P, Seed: 3, Items: 300})
	r := x12.NewReader(bytes.NewReader(data))
	var claim, lines int64
	claims := 0
	check := func() {
		if claims > 0 && claim != lines {
			t.Fatalf("claim %d: CLM02 %d cents, lines %d cents", claims, claim, lines)
		}
	}
	for s, err := range r.Segments() {
		if err != nil {
			t.Fatal(err)
		}
		switch s.ID() {
		case "CLM":
			check()
			claims++
			claim, lines = toCents(t, s.Element(2)), 0
		case "SV1":
			lines += toCents(t, s.Element(2))
		}
	}
	check()
	if claims != 300 {
		t.Errorf("%d claims", claims)
	}
}

func toCents(t *testing.T, s string) int64 {
	whole, frac, _ := strings.Cut(s, ".")
	w, err1 := strconv.ParseInt(whole, 10, 64)
	f, err2 := strconv.ParseInt(frac, 10, 64)
	if err1 != nil || err2 != nil || len(frac) != 2 {
		t.Fatalf("amount %q", s)
	}
	return w*100 + f
}

func TestNPI(t *testing.T) {
	tests := map[uint64]string{23456789: "1234567893", 23456798: "1234567984"}
	for base, want := range tests {
		if got := x12gen.NPI(base); got != want {
			t.Errorf("NPI(%d) = %s, want %s", base, got, want)
		}
	}
}

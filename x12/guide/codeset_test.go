package guide

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestCodeSetMembership compares codeSet with a plain map for short lists
// (scanned), long ones (hashed) and codes too long to pack.
func TestCodeSetMembership(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	randomCode := func() string {
		const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
		b := make([]byte, 1+rng.IntN(9)) // 1..9 bytes: some do not pack
		for i := range b {
			b[i] = alphabet[rng.IntN(len(alphabet))]
		}
		return string(b)
	}
	for _, size := range []int{1, 2, smallSet, smallSet + 1, 50, 1000} {
		t.Run(fmt.Sprint(size), func(t *testing.T) {
			want := map[string]bool{}
			var codes []string
			for len(codes) < size {
				if c := randomCode(); !want[c] {
					want[c] = true
					codes = append(codes, c)
				}
			}
			s := set(codes)
			// has reads values with bytes after them a word at a time.
			inBuffer := func(c string) []byte { return append([]byte(c), "~NM1*XX*~"...)[:len(c)] }
			for _, c := range codes {
				if !s.has([]byte(c)) || !s.has(inBuffer(c)) {
					t.Errorf("member %q not found", c)
				}
				// Near misses: a prefix, a longer value, another last byte.
				for _, miss := range []string{c[:len(c)-1], c + "0", c[:len(c)-1] + "#"} {
					if s.has([]byte(miss)) != want[miss] || s.has(inBuffer(miss)) != want[miss] {
						t.Errorf("has(%q) = %v, want %v", miss, !want[miss], want[miss])
					}
				}
			}
			for range 2000 {
				c := randomCode()
				if s.has([]byte(c)) != want[c] || s.has(inBuffer(c)) != want[c] {
					t.Errorf("has(%q) = %v, want %v", c, !want[c], want[c])
				}
			}
			if s.has(nil) {
				t.Error("the empty value is found")
			}
		})
	}
}

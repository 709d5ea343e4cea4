package benchcpu

import (
	"bytes"
	"sync"

	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// Size is the size of the generated 837P the benchmarks read (≥ 40 MB).
const Size = 40 << 20

// Claims837P returns the deterministic generated 837P shared by the x12 and
// x12/guide benchmarks, built once per test binary.
var Claims837P = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	buf.Grow(Size + 1<<20)
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Seed: 1, TargetBytes: Size}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

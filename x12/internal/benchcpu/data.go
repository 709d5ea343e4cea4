package benchcpu

import (
	"bytes"
	"os"
	"strconv"
	"sync"

	"github.com/clearhouse/clearhouse/x12/x12gen"
)

// Size is the default size of the generated 837P the benchmarks read
// (≥ 40 MB); CLEARHOUSE_BENCH_837P_MB sets another (bench/validate-instructions.sh
// reads a smaller one under callgrind, which runs code ~50 times slower).
const Size = 40 << 20

// size is Size or the size CLEARHOUSE_BENCH_837P_MB asks for.
func size() int {
	if mb, err := strconv.ParseFloat(os.Getenv("CLEARHOUSE_BENCH_837P_MB"), 64); err == nil && mb > 0 {
		return int(mb * 1e6)
	}
	return Size
}

// Claims837P returns the deterministic generated 837P shared by the x12 and
// x12/guide benchmarks, built once per test binary.
var Claims837P = sync.OnceValue(func() []byte {
	var buf bytes.Buffer
	n := size()
	buf.Grow(n + 1<<20)
	if _, err := x12gen.Generate(&buf, x12gen.Options{Kind: x12gen.Claims837P, Seed: 1, TargetBytes: int64(n)}); err != nil {
		panic(err)
	}
	return buf.Bytes()
})

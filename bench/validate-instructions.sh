#!/usr/bin/env bash
# Guide validation beside the split floor by instruction count: callgrind
# counts the instructions of x12/guide's splitOnce (x12.Reader over the
# generated 837P, the floor) and validateOnce ("clearhouse x12 validate"'s
# work over the same bytes) in one run of BenchmarkValidateVsSplit. Unlike
# wall-clock or CPU time, the counts do not move with the machine's load;
# their ratio (split ÷ validate) is the instruction floor-fraction, which
# tracks the CPU-time one (cpu-floor-fraction) within a few percent.
#
#   bench/validate-instructions.sh            # the working tree
#   REV=abc1234 bench/validate-instructions.sh  # another commit, same benchmark
#
# Settings: MB (size of the generated 837P, default 5: callgrind runs code
# about 50 times slower), REV. Needs valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v valgrind >/dev/null || { echo "validate-instructions: needs valgrind" >&2; exit 1; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
src=.
if [[ -n ${REV:-} ]]; then
  src="$tmp/src"
  mkdir -p "$src" && git archive "$REV" | tar -x -C "$src"
  # The benchmark is the working tree's, so REV runs the same one.
  cp x12/guide/bench_test.go "$src/x12/guide/"
  cp x12/internal/benchcpu/*.go "$src/x12/internal/benchcpu/"
fi
(cd "$src" && go test -c -o "$tmp/guide.test" ./x12/guide)
count() { # count FUNC: instructions in FUNC (and what it calls) over one iteration
  (cd x12/guide && CLEARHOUSE_BENCH_837P_MB=${MB:-5} GODEBUG=asyncpreemptoff=1 GOMAXPROCS=1 GOGC=off \
    valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" \
    --toggle-collect="github.com/clearhouse/clearhouse/x12/guide_test.$1" \
    "$tmp/guide.test" -test.run '^$' -test.bench '^BenchmarkValidateVsSplit$' -test.benchtime 1x >"$tmp/log.$1" 2>&1) ||
    { cat "$tmp/log.$1" >&2; exit 1; }
  sed -n 's/^summary: *//p' "$tmp/cg.$1"
}
split=$(count splitOnce)
validate=$(count validateOnce)
awk -v s="$split" -v v="$validate" -v mb="${MB:-5}" -v rev="${REV:-worktree}" 'BEGIN {
  printf("%s, generated 837P of %s MB: split %d instructions, validate %d instructions\n", rev, mb, s, v)
  printf("instruction floor-fraction %.4f (validation costs %.1f splits; the target is >= 0.25)\n", s / v, v / s)
}'

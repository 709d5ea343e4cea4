#!/usr/bin/env bash
# The HTTP floor benchmarks of internal/api for an older commit and the
# working tree in the same run: both test binaries are built with the
# working tree's benchmark file (so they measure the same thing) and run in
# turn, COUNT rounds, so a busy machine weighs on both alike. Writes
# benchstat-ready output for each and prints the medians side by side.
#
#   bench/floor-ab.sh 0cc4c13                      # eligibility and /healthz, 3 rounds
#   COUNT=6 BENCH='^BenchmarkFloor' bench/floor-ab.sh 0cc4c13
#   benchstat /tmp/floor-ab/before.txt /tmp/floor-ab/after.txt
#
# Settings: COUNT (3), BENCH (default: /healthz and eligibility), BENCHTIME
# (2000x), OUT (directory, default /tmp/floor-ab).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench/floor-ab.sh REV}
COUNT=${COUNT:-3}
BENCH=${BENCH:-'^BenchmarkFloor(Healthz|Eligibility)$'}
BENCHTIME=${BENCHTIME:-2000x}
OUT=${OUT:-/tmp/floor-ab}
mkdir -p "$OUT"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$rev" | tar -x -C "$src"
cp internal/api/floor_bench_test.go internal/api/bench_test.go "$src/internal/api/"
cp internal/powercut/fsyncs.go "$src/internal/powercut/"
(cd "$src" && go test -c -o "$OUT/before.test" ./internal/api)
go test -c -o "$OUT/after.test" ./internal/api
: >"$OUT/before.txt"
: >"$OUT/after.txt"
for round in $(seq "$COUNT"); do
  for which in before after; do
    echo "# $which ($([[ $which == before ]] && echo "$rev" || git rev-parse --short HEAD)+worktree) round $round: load $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$OUT/$which.txt"
    (cd internal/api && "$OUT/$which.test" -test.run '^$' -test.bench "$BENCH" -test.benchtime "$BENCHTIME" -test.benchmem) |
      grep '^Benchmark' | tee -a "$OUT/$which.txt"
  done
done
echo
echo "== medians of $COUNT: before ($rev) → after (working tree)"
awk '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  FNR == 1 { which = (FILENAME ~ /before/) ? "before" : "after" }
  /^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    if (!(name in seen)) { seen[name] = 1; order[++n] = name }
    for (i = 3; i < NF; i++) {
      u = $(i + 1)
      if (u == "req/s" || u == "p99-ms" || u == "cpu-µs/op" || u == "allocs/op" || u == "fsyncs/req") v[which, name, u] = v[which, name, u] " " $i
    }
  }
  END {
    split("req/s p99-ms cpu-µs/op allocs/op fsyncs/req", units, " ")
    for (k = 1; k <= n; k++) {
      line = sprintf("%-40s", order[k])
      for (u = 1; u <= 5; u++) if ((("before", order[k], units[u]) in v) || (("after", order[k], units[u]) in v))
        line = line sprintf("  %s %s → %s", units[u], median(v["before", order[k], units[u]]), median(v["after", order[k], units[u]]))
      print line
    }
  }' "$OUT/before.txt" "$OUT/after.txt"
echo "raw output (benchstat): $OUT/before.txt $OUT/after.txt"

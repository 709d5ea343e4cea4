#!/usr/bin/env bash
# Inbound and validation benchmarks, each figure beside its floor from the
# same run (make bench-inbound): an 835 uploaded over HTTP to a real
# clearhouse serve, in one set and in sets of 1,000 claim payments
# (internal/inboundperf BenchmarkInbound: e2e-MB/s beside split-MB/s,
# server CPU, peak RSS), and guide validation of the generated 837P beside
# the split floor (x12/guide BenchmarkValidateVsSplit).
#
# BEFORE=REV also builds commit REV and runs it in turn with the working
# tree, COUNT times each (interleaved, so both see the same machine load),
# then compares them with benchstat when it is installed
# (go install golang.org/x/perf/cmd/benchstat@latest). Settings: COUNT (3),
# MB (the 835's size, 60), OUT (directory for the benchstat files).
set -euo pipefail
cd "$(dirname "$0")/.."

COUNT=${COUNT:-3}
export CLEARHOUSE_INBOUND_MB=${MB:-60}
OUT=${OUT:-$(mktemp -d)}
mkdir -p "$OUT"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

build() { # build REV DIR: the clearhouse binary and the two test binaries of REV
  local rev=$1 dir=$2 src=.
  mkdir -p "$dir"
  if [[ $rev != worktree ]]; then
    src="$tmp/src-$rev"
    mkdir -p "$src" && git archive "$rev" | tar -x -C "$src"
    # The benchmarks are the working tree's, so REV runs the same ones.
    cp x12/guide/bench_test.go "$src/x12/guide/"
    cp x12/internal/benchcpu/benchcpu.go "$src/x12/internal/benchcpu/"
  fi
  (cd "$src" && go build -o "$dir/clearhouse" ./cmd/clearhouse &&
    go test -c -o "$dir/guide.test" ./x12/guide)
  go test -c -o "$dir/inboundperf.test" ./internal/inboundperf
}

revs=(worktree)
[[ -n ${BEFORE:-} ]] && revs=("$BEFORE" worktree)
for rev in "${revs[@]}"; do
  echo "== building $rev"
  build "$rev" "$tmp/$rev"
done

for i in $(seq "$COUNT"); do
  for rev in "${revs[@]}"; do
    name=${rev//\//-}
    echo "== run $i/$COUNT: $rev (load average $(cut -d' ' -f1-3 /proc/loadavg))"
    CLEARHOUSE_INBOUNDPERF_BIN="$tmp/$rev/clearhouse" "$tmp/$rev/inboundperf.test" \
      -test.run '^$' -test.bench Inbound -test.benchtime 1x -test.timeout 60m | tee -a "$OUT/inbound-$name.txt"
    (cd x12/guide && "$tmp/$rev/guide.test" -test.run '^$' -test.bench ValidateVsSplit -test.benchtime 2x) |
      tee -a "$OUT/validate-$name.txt"
  done
done

echo "== results in $OUT"
# One line per run and shape: the figures the issue asks for.
for f in "$OUT"/inbound-*.txt; do
  awk -v build="$(basename "$f" .txt | sed 's/^inbound-//')" '/^BenchmarkInbound\// {
    m = ""
    for (i = 3; i < NF; i++) if ($(i+1) ~ /^(e2e-MB\/s|server-cpu-s\/MB|server-cpu-MB\/s|written-MB\/MB|peak-RSS-MB)$/) m = m sprintf("  %s %s", $(i+1), $i)
    sub(/-[0-9]+$/, "", $1); printf "%-10s %-32s%s\n", build, $1, m
  }' "$f"
done
if [[ -n ${BEFORE:-} ]] && command -v benchstat >/dev/null; then
  name=${BEFORE//\//-}
  benchstat "$OUT/inbound-$name.txt" "$OUT/inbound-worktree.txt" || true
  benchstat "$OUT/validate-$name.txt" "$OUT/validate-worktree.txt" || true
fi

#!/usr/bin/env bash
# What one eligibility check costs the database, for an older commit and the
# working tree in the same run: BenchmarkFloorEligibility (internal/api,
# SQLite, the audit on) at CLIENTS keep-alive clients, both test binaries
# built with the working tree's benchmark file and run in turn. Prints per
# check the figures that the machine's load does not change much:
#
#   - WAL frames and bytes, pwrite and fsync/fdatasync calls, and the
#     checkpoints' page writes to the database file (strace -y of N checks
#     minus N/10: the set-up cancels out; at 1 client a check is a commit),
#   - user and system CPU µs per check (/usr/bin/time of N checks minus N/6).
#
#   bench/eligibility-wal.sh dafcf78             # 1 client, 3 rounds of CPU
#   CLIENTS=16 N=6000 bench/eligibility-wal.sh dafcf78
#
# Settings: CLIENTS (1), N (2000), ROUNDS (3, the CPU runs), OUT (/tmp/eligibility-wal).
set -euo pipefail
cd "$(dirname "$0")/.."
rev=${1:?usage: bench/eligibility-wal.sh REV}
CLIENTS=${CLIENTS:-1}
N=${N:-2000}
ROUNDS=${ROUNDS:-3}
OUT=${OUT:-/tmp/eligibility-wal}
command -v strace >/dev/null || { echo "eligibility-wal: needs strace" >&2; exit 1; }
mkdir -p "$OUT"
src=$(mktemp -d)
trap 'rm -rf "$src"' EXIT
git archive "$rev" | tar -x -C "$src"
cp internal/api/floor_bench_test.go internal/api/bench_test.go "$src/internal/api/"
cp internal/powercut/fsyncs.go "$src/internal/powercut/"
(cd "$src" && go test -c -o "$OUT/before.test" ./internal/api)
go test -c -o "$OUT/after.test" ./internal/api
export CLEARHOUSE_BENCH_FSYNCS=off
bench="FloorEligibility/clients=$CLIENTS\$"
run() { (cd internal/api && "$@" -test.run '^$' -test.bench "$bench" -test.benchtime "${n}x" >/dev/null 2>&1); }

echo "== per check at $CLIENTS clients: before ($rev) and after (working tree), load $(cut -d' ' -f1-3 /proc/loadavg)"
# count TRACE: pwrites, fsyncs, fdatasyncs, WAL frames, WAL bytes, database-file page writes (the checkpoints')
count() {
  awk '
    /pwrite64\(/ { pw++ }
    /fsync\(/ { fs++ }
    /fdatasync\(/ { fd++ }
    /pwrite64\(/ && match($0, /, [0-9]+, [0-9]+(\) = | <unfinished)/) {
      split(substr($0, RSTART + 2, RLENGTH), f, ", ")
      if ($0 ~ /db-wal>/ && f[1] + 0 > 24) { frames++; bytes += f[1] }
      if ($0 ~ /clearhouse\.db>/) db++
    }
    END { print pw + 0, fs + 0, fd + 0, frames + 0, bytes + 0, db + 0 }' "$1"
}
for which in before after; do
  for n in "$N" $((N / 10)); do
    run strace -f -y -e trace=pwrite64,fdatasync,fsync -o "$OUT/$which.trace.$n" "$OUT/$which.test"
  done
  read -r -a a < <(count "$OUT/$which.trace.$N")
  read -r -a b < <(count "$OUT/$which.trace.$((N / 10))")
  per() { echo "(${a[$1]} - ${b[$1]}) / ($N - $N / 10)" | bc -l; }
  printf "%-6s per check: WAL %.1f frames, %.1f KB; pwrite %.1f, fsync %.2f, fdatasync %.2f; checkpoint page writes %.1f\n" \
    "$which" "$(per 3)" "$(echo "$(per 4) / 1024" | bc -l)" "$(per 0)" "$(per 1)" "$(per 2)" "$(per 5)"
  rm -f "$OUT/$which".trace.*
done
cpu() { # cpu BINARY CHECKS: "user sys" seconds
  (cd internal/api && /usr/bin/time -f "%U %S" "$1" -test.run '^$' -test.bench "$bench" -test.benchtime "$2x" 2>&1 >/dev/null | tail -1)
}
for round in $(seq "$ROUNDS"); do
  for which in before after; do
    read -r u1 s1 < <(cpu "$OUT/$which.test" "$N")
    read -r u0 s0 < <(cpu "$OUT/$which.test" $((N / 6)))
    printf "%-6s round %d: user %.0f sys %.0f µs per check (load %s)\n" "$which" "$round" \
      "$(echo "($u1 - $u0) * 1000000 / ($N - $N / 6)" | bc -l)" "$(echo "($s1 - $s0) * 1000000 / ($N - $N / 6)" | bc -l)" \
      "$(cut -d' ' -f1 /proc/loadavg)"
  done
done

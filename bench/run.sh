#!/usr/bin/env bash
# make bench: the benchmark leg. Runs every line of bench/benchmarks.txt
# COUNT times (default 6), the legs interleaved round by round so a busy
# machine weighs on all of them alike, and writes the raw `go test -bench`
# output (benchstat-ready) to OUT (default bench/out/DATE.txt), with the
# load average before each round. Then prints each HTTP figure beside its
# floor from the same run: GET /healthz from as many clients; and guide
# validation beside the split floor (x12/guide BenchmarkValidateVsSplit).
#
#   make bench                                 # everything, 6 rounds
#   COUNT=1 BENCH_FILTER=Floor make bench      # only lines matching
#   benchstat old.txt bench/out/DATE.txt       # compare two runs
#
# Settings (environment): COUNT, OUT, BENCH_FILTER (a grep -E pattern on
# the lines of bench/benchmarks.txt), CLAIMS_BENCH_PARALLELISM (the
# delivery benchmark's callers per core, default 1 here: 2 callers on 2
# cores, the target's two concurrent callers). The claim and eligibility
# legs also count their fsyncs per op: each benchmark runs once more, 300
# ops under strace (CLEARHOUSE_BENCH_FSYNC_OPS), only for the count;
# CLEARHOUSE_BENCH_FSYNCS=off skips it.
set -euo pipefail
cd "$(dirname "$0")/.."
COUNT=${COUNT:-6}
OUT=${OUT:-bench/out/$(date -u +%Y%m%dT%H%M%SZ).txt}
export CLAIMS_BENCH_PARALLELISM=${CLAIMS_BENCH_PARALLELISM:-1}
mkdir -p "$(dirname "$OUT")"
: > "$OUT"
mapfile -t legs < <(grep -v '^\s*#' bench/benchmarks.txt | grep -E "${BENCH_FILTER:-.}" | grep -v '^\s*$')
echo "# commit $(git rev-parse --short HEAD 2>/dev/null || echo unknown), $(nproc) cores, COUNT=$COUNT" | tee -a "$OUT"
for round in $(seq "$COUNT"); do
  echo "# round $round: $(uptime | sed 's/.*load/load/')" | tee -a "$OUT"
  for leg in "${legs[@]}"; do
    read -r pkg regexp benchtime <<<"$leg"
    go test -run '^$' -bench "$regexp" -benchtime "${benchtime:-1x}" -benchmem -count 1 -timeout 30m "$pkg" |
      grep -E '^(Benchmark|goos|goarch|pkg|cpu)' | tee -a "$OUT"
  done
done
echo "# done: $(uptime | sed 's/.*load/load/')" | tee -a "$OUT"
echo
echo "== each figure beside its floor (GET /healthz from as many clients; the split floor for validation; same run; medians of $COUNT) =="
awk '
  function median(list,   n, a, i, j, t) {
    n = split(list, a, " ")
    for (i = 1; i <= n; i++) for (j = i + 1; j <= n; j++) if (a[j] + 0 < a[i] + 0) { t = a[i]; a[i] = a[j]; a[j] = t }
    return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
  }
  /^Benchmark/ {
    name = $1; sub(/-[0-9]+$/, "", name)
    for (i = 3; i < NF; i++) {
      if ($(i + 1) == "req/s") rps[name] = rps[name] " " $i
      if ($(i + 1) == "claims/s") cps[name] = cps[name] " " $i
      if ($(i + 1) == "p99-ms") p99[name] = p99[name] " " $i
      if ($(i + 1) == "p50-ms") p50[name] = p50[name] " " $i
      if ($(i + 1) == "fsyncs/req" || $(i + 1) == "fsyncs/claim") fs[name] = fs[name] " " $i
      if ($(i + 1) == "cpu-ms/claim") cpc[name] = cpc[name] " " $i
      if ($(i + 1) == "allocs/op") al[name] = al[name] " " $i
      if ($(i + 1) == "validate-MB/s") vmb[name] = vmb[name] " " $i
      if ($(i + 1) == "split-MB/s") smb[name] = smb[name] " " $i
      if ($(i + 1) == "floor-fraction") ff[name] = ff[name] " " $i
      if ($(i + 1) == "cpu-floor-fraction") cff[name] = cff[name] " " $i
      if ($(i + 1) == "cpu-µs/op") cpu[name] = cpu[name] " " $i
    }
    if (!(name in seen)) { seen[name] = 1; order[++n] = name }
  }
  END {
    for (k = 1; k <= n; k++) {
      name = order[k]
      if (name in rps) {
        clients = name; sub(/.*clients=/, "", clients)
        floor = "BenchmarkFloorHealthz/clients=" clients
        r = median(rps[name])
        line = sprintf("%-44s %7.0f req/s  p50 %6.2f  p99 %6.2f ms  %5.0f allocs/op", name, r, median(p50[name]), median(p99[name]), median(al[name]))
        if (name in cpu) line = line sprintf("  %5.0f cpu-µs/op", median(cpu[name]))
        if (name in fs) line = line sprintf("  %.2f fsyncs/req", median(fs[name]))
        if (floor in rps && name != floor) {
          f = median(rps[floor])
          line = line sprintf("  = %5.1f %% of /healthz (%0.f/s): costs %.1f no-op requests", 100 * r / f, f, f / r)
          if (name in cpu && floor in cpu && median(cpu[floor]) > 0)
            line = line sprintf(", %.1f in CPU", median(cpu[name]) / median(cpu[floor]))
        }
        if (name ~ /FloorClaims/) line = line "  (target: 500/s, p99 20 ms)"
        print line
      } else if (name in cps) {
        printf("%-44s %7.0f claims/s  p50 %6.2f  p99 %6.2f ms  %.2f cpu-ms/claim  %.2f fsyncs/claim  (target: 500/s, p99 20 ms)\n",
          name, median(cps[name]), median(p50[name]), median(p99[name]), median(cpc[name]), median(fs[name]))
      } else if (name in ff) {
        printf("%-52s %9.1f MB/s beside the split floor %.1f MB/s = %.3f of it (by CPU time %.3f; target: 0.25)\n",
          name, median(vmb[name]), median(smb[name]), median(ff[name]), median(cff[name]))
      }
    }
  }' "$OUT"
echo "raw output (benchstat): $OUT"

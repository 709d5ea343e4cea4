#!/usr/bin/env bash
# Where one eligibility check's CPU and allocations go, stage by stage:
# runs BenchmarkFloorEligibility (internal/api: the whole process over
# loopback HTTP, SQLite with synchronous=FULL, the audit on) at CLIENTS
# keep-alive clients under the CPU and allocation profilers, then adds up
# the profile's samples under each stage's functions (pprof -focus) and
# divides by the checks. CPU time, allocations and instruction counts do
# not move with the machine's load the way checks/s and latency do.
#
#   bench/eligibility-stages.sh                 # the working tree, 16 clients
#   CLIENTS=1 bench/eligibility-stages.sh       # sequential checks
#   REV=0cc4c13 bench/eligibility-stages.sh     # another commit, same benchmark
#   INSTRUCTIONS=1 bench/eligibility-stages.sh  # also instructions per check (callgrind)
#
# Settings: CLIENTS (1, 4 or 16; default 16), N (checks, default 6000),
# REV, INSTRUCTIONS (callgrind: the whole process's instructions for 250
# checks minus those for 50, over 200; needs valgrind, a few minutes),
# KEEP=DIR to keep the test binary and profiles. The stages do not overlap;
# the rounds of SQL may run on any check's goroutine (group commit), so the
# SQL stages are what all checks' rounds cost, divided by the checks.
set -euo pipefail
cd "$(dirname "$0")/.."
CLIENTS=${CLIENTS:-16}
N=${N:-6000}
tmp=${KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
[[ -n ${KEEP:-} ]] || trap 'rm -rf "$tmp"' EXIT
src=.
if [[ -n ${REV:-} ]]; then
  src="$tmp/src"
  rm -rf "$src" && mkdir -p "$src" && git archive "$REV" | tar -x -C "$src"
  # The benchmark is the working tree's, so REV runs the same one.
  cp internal/api/floor_bench_test.go internal/api/bench_test.go "$src/internal/api/"
  cp internal/powercut/fsyncs.go "$src/internal/powercut/" # what the benchmark counts fsyncs with
fi
# The benchmark's own fsync count (a second run under strace) is not needed
# here, and would not run under valgrind.
export CLEARHOUSE_BENCH_FSYNCS=off
(cd "$src" && go test -c -o "$tmp/api.test" ./internal/api)
bench="BenchmarkFloorEligibility/clients=$CLIENTS\$"
# Two runs: the allocation profiler's stack walks would show in the CPU one.
(cd internal/api && "$tmp/api.test" -test.run '^$' -test.bench "$bench" -test.benchtime "${N}x" -test.benchmem \
  -test.cpuprofile "$tmp/cpu.out") | grep '^Benchmark'
(cd internal/api && "$tmp/api.test" -test.run '^$' -test.bench "$bench" -test.benchtime "${N}x" \
  -test.memprofile "$tmp/mem.out" -test.memprofilerate 4096) >/dev/null

# sum PROFILE INDEX FOCUS [IGNORE]: the samples under FOCUS (µs of CPU, or
# allocated objects), not under IGNORE.
sum() {
  local args=(-top -nodecount=1000000 -nodefraction=0 -edgefraction=0 -sample_index="$2" -unit=us)
  [[ -n $3 ]] && args+=(-focus="$3")
  [[ -n ${4:-} ]] && args+=(-ignore="$4")
  go tool pprof "${args[@]}" "$tmp/api.test" "$1" 2>/dev/null |
    sed -n 's/^Showing nodes accounting for \([0-9.]*\)\([a-zµ]*\),.*/\1 \2/p' | head -1 |
    awk '{ v = $1; if ($2 == "ms") v *= 1000; else if ($2 == "s") v *= 1e6; else if ($2 == "k") v *= 1e3; else if ($2 == "M") v *= 1e6; print v + 0 }'
}
# name;focus;ignore (pprof regular expressions on function names)
stages=(
  'JSON decode (request body, unknown fields);api\.readJSONBody$|api\.unknownFields$;'
  'request JSON kept for the history;eligibility\.\(\*Service\)\.Check$;eligibility\.\(\*Service\)\.(check|finish)$|eligibility\.keysOf'
  'validate;eligibility\.Validate$;'
  '270 build;eligibility\.Build270$;'
  'mock 271 (mock payer, scenario lookup);mockpayer\.\(\*Payer\)\.Exchange$;'
  '271 map;eligibility\.[mM]ap271$;'
  'answer encoded once (JSON);eligibility\.encode(Body|Shared)$;'
  'history insert (check, usage row);store\.\(\*queries\)\.InsertEligibilityCheck$;'
  'audit entry (chain head, event);audit\.\(\*Recorder\)\.RecordTx$;'
  'SQL round: BEGIN, savepoints;store\.\(\*sqlStore\)\.(runGroup|inTx)$;InsertEligibilityCheck|RecordTx|Tx\)\.Commit'
  'commit (WAL write, fsync, checkpoints);database/sql\.\(\*Tx\)\.Commit$;'
  'response write (audit writer, HTTP);api\.writeResult$|audit\.\(\*auditWriter\)\.finish$;'
  'HTTP server, routing, auth, logging;net/http\.\(\*conn\)\.serve$;eligibilityHandlers\)\.check$|audit\.\(\*auditWriter\)\.finish$|store\.\(\*sqlStore\)\.(runGroup|inTx)$'
  'HTTP client (the benchmark);net/http\.\(\*persistConn\)|net/http\.\(\*Client\)|api_test\.benchHTTP;'
  'garbage collector (background);runtime\.gcBgMarkWorker|runtime\.bgsweep|runtime\.bgscavenge;'
)
total_cpu=$(sum "$tmp/cpu.out" cpu "")
total_alloc=$(sum "$tmp/mem.out" alloc_objects "")
echo
echo "== one check at $CLIENTS clients, ${REV:-working tree}, load average $(cut -d' ' -f1-3 /proc/loadavg): per check"
printf "%-44s %9s %9s\n" stage "CPU µs" allocs
for s in "${stages[@]}"; do
  IFS=';' read -r name focus ignore <<<"$s"
  c=$(sum "$tmp/cpu.out" cpu "$focus" "$ignore")
  a=$(sum "$tmp/mem.out" alloc_objects "$focus" "$ignore")
  printf "%-44s %9.1f %9.1f\n" "$name" "$(echo "${c:-0} / $N" | bc -l)" "$(echo "${a:-0} / $N" | bc -l)"
done
printf "%-44s %9.1f %9.1f\n" "all (server, client, runtime)" "$(echo "$total_cpu / $N" | bc -l)" "$(echo "$total_alloc / $N" | bc -l)"

if [[ -n ${INSTRUCTIONS:-} ]]; then
  command -v valgrind >/dev/null || { echo "eligibility-stages: INSTRUCTIONS needs valgrind" >&2; exit 1; }
  count() {
    (cd internal/api && GODEBUG=asyncpreemptoff=1 valgrind --tool=callgrind --callgrind-out-file="$tmp/cg.$1" "$tmp/api.test" -test.run '^$' \
      -test.bench "$bench" -test.benchtime "$1x" >"$tmp/cg.log.$1" 2>&1) || { cat "$tmp/cg.log.$1" >&2; exit 1; }
    sed -n 's/^summary: *//p' "$tmp/cg.$1"
  }
  a=$(count 50)
  b=$(count 250)
  echo "instructions per check (callgrind, whole process, 250 checks minus 50): $(( (b - a) / 200 ))"
fi

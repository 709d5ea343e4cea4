#!/usr/bin/env bash
# Load benchmark of mock eligibility checks over loopback, with persistence
# (SQLite, the default store). Run through `make bench-load`, which builds
# bin/clearhouse first. Starts `clearhouse serve` on a temporary data
# directory and a free port, creates a test key, warms up, then runs wrk at
# a fixed concurrency and prints checks/s and latency percentiles: wrk's
# (client side, includes wrk itself) and the server's own, read from the
# access log's duration_ms of every measured check (the service time).
#
# It also prints the server's CPU time per check, which stays comparable
# when other processes share the machine (throughput and latency do not;
# the load average is printed with them).
#
# Settings (environment): DURATION (20s), WARMUP (5s), CONNECTIONS (4),
# THREADS (1), REQUESTS (mock request names to cycle through), BIN,
# PROFILE=FILE to save a CPU profile of the server during the measured run
# (go tool pprof bin/clearhouse FILE), KEEP=FILE to keep the server's log.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN=${BIN:-bin/clearhouse}
DURATION=${DURATION:-20s}
WARMUP=${WARMUP:-5s}
CONNECTIONS=${CONNECTIONS:-4}
THREADS=${THREADS:-1}
REQUESTS=${REQUESTS:-uhc-subscriber aetna-dependent cigna-dental uhc-aaa-72 cigna-dependent metlife-dental uhc-aaa-42 cigna-subscriber-jones}

command -v wrk >/dev/null || { echo "bench-load: wrk is not installed (apt-get install wrk)" >&2; exit 1; }
[[ -x $BIN ]] || { echo "bench-load: $BIN missing (make build)" >&2; exit 1; }

tmp=$(mktemp -d)
server=
cleanup() {
  [[ -n $server ]] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  [[ -n ${KEEP:-} ]] && cp "$tmp/serve.log" "$KEEP"
  rm -rf "$tmp"
}
trap cleanup EXIT

go run ./bench/mockbodies $REQUESTS >"$tmp/bodies.jsonl"
export BENCH_KEY
BENCH_KEY=$("$BIN" keys create --data "$tmp/data" --account "Load Bench" --mode test | tail -n 1)

profiling=()
[[ -n ${PROFILE:-} ]] && profiling=(--pprof-listen 127.0.0.1:0)
"$BIN" serve --data "$tmp/data" --listen 127.0.0.1:0 --rate-limit 0 --payer-calls-per-key 0 "${profiling[@]}" 2>"$tmp/serve.log" &
server=$!
addr=
for _ in $(seq 100); do
  addr=$(sed -n 's/.*"msg":"listening".*"addr":"\([^"]*\)".*/\1/p' "$tmp/serve.log")
  [[ -n $addr ]] && break
  sleep 0.1
done
[[ -n $addr ]] || { echo "bench-load: serve did not start:" >&2; cat "$tmp/serve.log" >&2; exit 1; }

run_wrk() { wrk -t "$THREADS" -c "$CONNECTIONS" -d "$1" --latency -s bench/mock-checks.lua "http://$addr" -- "$tmp/bodies.jsonl"; }

echo "== $(wc -l <"$tmp/bodies.jsonl") mock requests in turn: $REQUESTS"
echo "== warm-up $WARMUP"
run_wrk "$WARMUP" >/dev/null
before=$(wc -l <"$tmp/serve.log")
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server/stat"; } # utime + stime
cpu_before=$(cpu_ticks)
echo "== load average before the run: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "== $DURATION at $CONNECTIONS connections, $THREADS wrk thread(s)"
if [[ -n ${PROFILE:-} ]]; then
  paddr=$(sed -n 's/.*"msg":"profiler listening".*"addr":"\([^"]*\)".*/\1/p' "$tmp/serve.log")
  seconds=$(( ${DURATION%s} - 2 ))
  curl -s -o "$PROFILE" "http://$paddr/debug/pprof/profile?seconds=$seconds" &
  profiler=$!
fi
run_wrk "$DURATION" | tee "$tmp/wrk.out"
cpu_after=$(cpu_ticks)
[[ -n ${profiler:-} ]] && wait "$profiler"
echo "== load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"

# Service time: the server's duration_ms of each measured check.
tail -n +"$((before + 1))" "$tmp/serve.log" |
  grep '"route":"POST /2024-04-01/change/medicalnetwork/eligibility/v3"' |
  sed -n 's/.*"duration_ms":\([0-9.e+-]*\).*/\1/p' | sort -g >"$tmp/service.ms"
checks=$(wc -l <"$tmp/service.ms")
pct() { awk -v p="$1" -v n="$checks" 'NR == int((n - 1) * p + 1) { print; exit }' "$tmp/service.ms"; }
rps=$(awk '/^Requests\/sec/ { print $2 }' "$tmp/wrk.out")
bad=$(awk '/^non-200 answers/ { print $3 }' "$tmp/wrk.out")
wp50=$(awk '$1 == "50%" { print $2 }' "$tmp/wrk.out")
wp99=$(awk '$1 == "99%" { print $2 }' "$tmp/wrk.out")
echo
echo "checks/s:              $rps"
echo "client latency (wrk):  p50 $wp50  p99 $wp99"
echo "service time (server): p50 $(pct 0.50) ms  p99 $(pct 0.99) ms  max $(tail -n 1 "$tmp/service.ms") ms  ($checks checks logged)"
# CPU the server spent per check: comparable between runs even when other
# processes load the machine.
echo "server CPU per check:  $(awk -v t="$((cpu_after - cpu_before))" -v hz="$(getconf CLK_TCK)" -v n="$checks" \
  'BEGIN { printf "%.0f µs", t / hz / n * 1e6 }')"
if [[ $bad != 0 ]]; then
  echo "bench-load: $bad answers were not 200" >&2
  exit 1
fi

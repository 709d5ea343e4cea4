#!/usr/bin/env bash
# Issue 29's eligibility figure, measured its way: `hey` against a real
# `clearhouse serve` (SQLite in a temporary data directory, the audit on,
# every check fsynced before its answer) — GET /healthz and a published mock
# eligibility check (test key) at 16 connections, in interleaved rounds, then
# one client in turn for the sequential p99. Prints for each round checks/s,
# their share of /healthz's requests/s, p99, and the server's CPU per request
# read from /proc/PID/stat, with the load average. CPU per request (and the
# check's cost as a multiple of /healthz's in CPU) is the figure that means
# something on a loaded machine; requests/s and latency need a quiet one.
#
#   bench/hey-floor.sh                      # the working tree, 2 rounds of 10 s
#   BEFORE=main bench/hey-floor.sh          # also main's build, its rounds interleaved with ours
#   D=5s ROUNDS=3 C=16 bench/hey-floor.sh
#   PPROF=/tmp/cpu.out bench/hey-floor.sh   # also a CPU profile of the server under the eligibility load
#   CEILING=1 bench/hey-floor.sh            # also the working tree with nothing stored (see below)
#
# Each run also reports hey's own CPU per request (user + system, from the
# shell's `time`) and how busy the machine's cores were (/proc/stat): on two
# cores hey competes with the server, and a check's 13–16 KB answer costs hey
# several times what /healthz's costs it, so the share of /healthz by
# requests/s follows (server + hey CPU of /healthz) / (server + hey CPU of a
# check) when the cores are saturated; busy well below 100 % means latency,
# not CPU, limited the run.
#
# Settings: D (duration of each hey run, default 10s), C (connections, 16),
# ROUNDS (2), SEQ (duration of the sequential run, default 5s; 0 skips it),
# BEFORE (a commit to build and measure beside the working tree), BODY (a
# mock request name for bench/mockbodies, default uhc-subscriber), PPROF
# (file for a CPU profile of the working tree's server during one
# eligibility run; `go tool pprof BIN FILE`), KEEP=DIR (keep binaries, logs),
# CEILING=1 (a third build, "ceiling": the working tree with the check's
# record and every audit entry turned off, made in a copy by two edits this
# script checks, never a build to serve with. Its share of /healthz is what
# the same check would reach if storing it and its audit entry cost nothing:
# the ceiling of all work on the database's side).
# hey comes from `go install github.com/rakyll/hey@v0.1.5` if it is not in
# ~/go/bin.
set -euo pipefail
cd "$(dirname "$0")/.."
D=${D:-10s}
C=${C:-16}
ROUNDS=${ROUNDS:-2}
SEQ=${SEQ:-5s}
BODY=${BODY:-uhc-subscriber}
tmp=${KEEP:-$(mktemp -d)}
mkdir -p "$tmp"
HEY=${HEY:-$(go env GOPATH)/bin/hey}
[[ -x $HEY ]] || go install github.com/rakyll/hey@v0.1.5
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  [[ -n ${KEEP:-} ]] || rm -rf "$tmp"
}
trap cleanup EXIT

builds=(after)
go build -o "$tmp/after" ./cmd/clearhouse
if [[ -n ${BEFORE:-} ]]; then
  rm -rf "$tmp/src" && mkdir -p "$tmp/src"
  git archive "$BEFORE" | tar -x -C "$tmp/src"
  (cd "$tmp/src" && go build -o "$tmp/before" ./cmd/clearhouse)
  builds=(before after)
fi
if [[ -n ${CEILING:-} ]]; then
  rm -rf "$tmp/ceil" && mkdir -p "$tmp/ceil"
  git ls-files -z | xargs -0 tar -c | tar -x -C "$tmp/ceil"
  # edit FILE PERL: one substitution that must match exactly once.
  edit() {
    perl -0pi -e "\$n = ($2); die \"hey-floor: CEILING: $1 matched \$n times, not once\\n\" if \$n != 1" "$tmp/ceil/$1"
  }
  edit internal/services/services.go 's/History: s\.Store,/History: nil,/g'
  edit internal/audit/audit.go 's/(func \(r \*Recorder\) Record\(ctx context\.Context, e Entry\) \(store\.AuditEvent, error\) \{\n)/$1\tif true {\n\t\treturn store.AuditEvent{}, nil\n\t}\n/g'
  (cd "$tmp/ceil" && go build -o "$tmp/ceiling" ./cmd/clearhouse)
  builds+=(ceiling)
fi
go run ./bench/mockbodies "$BODY" >"$tmp/body.json"

# start NAME: a server of build NAME on its own data directory; sets
# addr[NAME], pid[NAME], key[NAME].
declare -A addr pid key
start() {
  local name=$1 data="$tmp/data-$1" extra=()
  [[ $name == after && -n ${PPROF:-} ]] && extra=(--pprof-listen 127.0.0.1:0)
  key[$name]=$("$tmp/$name" keys create --data "$data" --account "Hey Bench" --mode test --create | tail -n 1)
  "$tmp/$name" serve --data "$data" --listen 127.0.0.1:0 --rate-limit 0 --payer-calls-per-key 0 "${extra[@]}" 2>"$tmp/serve-$name.log" &
  pid[$name]=$!
  pids+=("$!")
  for _ in $(seq 300); do
    addr[$name]=$(sed -n 's/.*"msg":"listening".*"addr":"\([^"]*\)".*/\1/p' "$tmp/serve-$name.log" | head -1)
    [[ -n ${addr[$name]} ]] && break
    sleep 0.1
  done
  [[ -n ${addr[$name]} ]] || { echo "hey-floor: $name did not start:" >&2; cat "$tmp/serve-$name.log" >&2; exit 1; }
}
for b in "${builds[@]}"; do start "$b"; done

# cpu NAME: the server's user+system CPU so far, in clock ticks.
cpu() { awk '{print $14 + $15}' "/proc/${pid[$1]}/stat"; }
tick=$(getconf CLK_TCK)

# busy: the machine's busy and total CPU time so far, in clock ticks.
busy() { awk '/^cpu / { t = 0; for (i = 2; i <= NF; i++) t += $i; print t - $5 - $6, t }' /proc/stat; }

# run NAME healthz|check CONNECTIONS DURATION: one hey run; prints
# "req/s p99-ms cpu-µs/req ok-count bad-count hey-cpu-µs/req busy-%".
run() {
  local name=$1 what=$2 c=$3 d=$4 before after out="$tmp/hey.out" b0 t0 b1 t1 heycpu
  local url="http://${addr[$name]}/healthz" args=()
  if [[ $what == check ]]; then
    url="http://${addr[$name]}/2024-04-01/change/medicalnetwork/eligibility/v3"
    args=(-m POST -H "Authorization: Key ${key[$name]}" -T application/json -D "$tmp/body.json")
  fi
  before=$(cpu "$name")
  read -r b0 t0 < <(busy)
  heycpu=$( { TIMEFORMAT='%U %S'; time "$HEY" -z "$d" -c "$c" "${args[@]}" "$url" >"$out"; } 2>&1 | awk '{ print $1 + $2 }')
  read -r b1 t1 < <(busy)
  after=$(cpu "$name")
  awk -v ticks=$((after - before)) -v hz="$tick" -v hey="$heycpu" -v busy=$((b1 - b0)) -v total=$((t1 - t0)) '
    /Requests\/sec/ { rps = $2 }
    / 99%+ in / { p99 = $3 * 1000 }
    /^\s*\[[0-9]+\]/ { code = $1; gsub(/[\[\]]/, "", code); if (code == 200) ok += $2; else bad += $2 }
    END { n = ok + bad; printf "%.0f %.2f %.0f %d %d %.0f %.0f\n", rps, p99, n ? ticks / hz * 1e6 / n : 0, ok, bad, n ? hey * 1e6 / n : 0, total ? 100 * busy / total : 0 }' "$out"
}

for b in "${builds[@]}"; do run "$b" check "$C" 2s >/dev/null; done # warm up: caches, WAL, pools
echo "# hey at $C connections, $D a run, $ROUNDS rounds, body $BODY; $(nproc) cores; commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- . || echo +worktree)${BEFORE:+, before = $BEFORE}"
printf "%-7s %-5s %-10s %10s %8s %10s %8s %6s %10s %8s %10s %8s %6s  %s\n" build round load healthz/s p99-ms cpu-µs/req hey-µs busy% checks/s p99-ms cpu-µs/req hey-µs busy% "share of /healthz (by req/s; by CPU)"
declare -A share cpux
for r in $(seq "$ROUNDS"); do
  for b in "${builds[@]}"; do
    load=$(cut -d' ' -f1 /proc/loadavg)
    read -r hr hp hc _ _ hh hb < <(run "$b" healthz "$C" "$D")
    if [[ $b == after && -n ${PPROF:-} && $r == 1 ]]; then
      pp=$(sed -n 's/.*"msg":"profiler listening".*"addr":"\([^"]*\)".*/\1/p' "$tmp/serve-after.log" | head -1)
      secs=${D%s}
      curl -s -o "$PPROF" "http://$pp/debug/pprof/profile?seconds=$((secs > 2 ? secs - 1 : 1))" &
      prof=$!
    fi
    read -r er ep ec eok ebad eh eb < <(run "$b" check "$C" "$D")
    [[ -n ${prof:-} ]] && { wait "$prof"; unset prof; echo "# CPU profile of the server's eligibility run: $PPROF (go tool pprof $tmp/after $PPROF)"; }
    [[ $ebad == 0 ]] || echo "# $b round $r: $ebad answers were not 200 (of $((eok + ebad))): see hey's output in $tmp/hey.out" >&2
    printf "%-7s %-5s %-10s %10s %8s %10s %8s %6s %10s %8s %10s %8s %6s  %s\n" "$b" "$r" "$load" "$hr" "$hp" "$hc" "$hh" "$hb" "$er" "$ep" "$ec" "$eh" "$eb" \
      "$(awk -v e="$er" -v h="$hr" -v ec="$ec" -v hc="$hc" -v eh="$eh" -v hh="$hh" 'BEGIN { printf "%.1f %%; %.1f %% (a check = %.1f no-op requests of server CPU; with hey'"'"'s CPU %.1f %%)", 100 * e / h, 100 * hc / ec, ec / hc, 100 * (hc + hh) / (ec + eh) }')"
  done
done
if [[ $SEQ != 0 ]]; then
  for b in "${builds[@]}"; do
    read -r sr sp sc _ _ _ _ < <(run "$b" check 1 "$SEQ")
    echo "$b: sequential checks (1 connection, $SEQ, load $(cut -d' ' -f1 /proc/loadavg)): $sr/s, p99 $sp ms (target ≤ 5 ms), server CPU $sc µs a check"
  done
fi

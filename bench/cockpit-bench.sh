#!/usr/bin/env bash
# Cockpit run-page benchmark: how long the run page takes to draw every chart of a 64-GPU run over
# 24 h at 15 s in a real browser, and the bytes it transfers, against Grafana's approach (one
# query_range per panel at full resolution) on the same server. Never part of the tests.
#
# Usage: bench/cockpit-bench.sh [--hours H] [--loads N] [--warmup W] [--keep]
#   --hours H   hours of data in the run (default 24)
#   --loads N   cold page loads, each followed by one replay of Grafana's approach (default 5)
#   --warmup W  page loads before them, timed apart: a server that has run a while has compiled
#               its query paths, one just started has not (default 5)
#   --keep      keep the data directory and the server log (their path is printed)
# Environment:
#   JAVA_HOME       a JDK 21 or newer (else `java` on PATH must be one)
#   FLIGHTDECK_BIN  default ./flightdeck (the launcher at the repository root)
#   BENCH_PORT      port on 127.0.0.1 for the server (default 19290)
#   Debian's /usr/bin/chromium and /usr/bin/chromedriver (package chromium-driver)
#
# Steps: build bench/target/flightdeck-bench.jar; start the server on an empty data directory;
# write the run bench-run into it by remote write (CockpitBench load: 8 nodes x 8 GPUs of
# dcgm-exporter series, node_exporter hosts and 64 ranks of training series); wait until the
# server's CPU is idle (its blocks cut and merged); open /runs/bench-run
# once to record its queries, then W times to warm the server (timed, reported apart); then N times in turns, a cold load in a fresh
# headless Chromium (its own performance.measure 'flightdeck:overview', chart states, resource
# timing) and the same queries sent as query_range at step 15 s; then each query alone, both
# ways, 3 times (where the time goes); stop the server by PID. The
# Markdown table goes to stdout and to bench/results/cockpit-<date>.md; bench/README.md explains it.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
JAR="$ROOT/bench/target/flightdeck-bench.jar"

hours=24
loads=5
warmup=5
keep=false
while (($#)); do
  case "$1" in
    --hours) hours=$2; shift 2 ;;
    --loads) loads=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

FLIGHTDECK_BIN=${FLIGHTDECK_BIN:-$ROOT/flightdeck}
BENCH_PORT=${BENCH_PORT:-19290}
URL="http://127.0.0.1:$BENCH_PORT"

log() { echo "[cockpit-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }

JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
((${java_major:-0} >= 21)) || die "need a JDK 21+; set JAVA_HOME (found '$JAVA' version ${java_major:-none})"
[[ -x $FLIGHTDECK_BIN ]] || die "no launcher at $FLIGHTDECK_BIN"
[[ -x /usr/bin/chromium && -x /usr/bin/chromedriver ]] ||
  die "need Debian's chromium and chromium-driver (/usr/bin/chromium, /usr/bin/chromedriver)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-cockpit-bench.XXXXXX")
server_pid=""

stop_server() {
  local i
  kill -TERM "$server_pid" 2>/dev/null || true
  for ((i = 0; i < 600; i++)); do kill -0 "$server_pid" 2>/dev/null || break; sleep 0.1; done
  kill -0 "$server_pid" 2>/dev/null && kill -KILL "$server_pid" 2>/dev/null || true
  wait "$server_pid" 2>/dev/null || true
  server_pid=""
}

cleanup() {
  [[ -z $server_pid ]] || stop_server
  if [[ $keep == true ]]; then log "kept the data and log in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

log "building the bench jar"
(cd "$ROOT" && ./mvnw -q -f bench/pom.xml -DskipTests package) || die "build failed"
mkdir -p "$RESULTS"

# The launcher builds the server's jar when sources changed; let that happen before anything runs.
"$FLIGHTDECK_BIN" --version >/dev/null || die "the launcher failed; see its output above"

(exec 3<>"/dev/tcp/127.0.0.1/$BENCH_PORT") 2>/dev/null && die "port $BENCH_PORT is in use; set BENCH_PORT"
log "starting the server on $URL"
"$FLIGHTDECK_BIN" server --web.listen-address="127.0.0.1:$BENCH_PORT" \
  --storage.tsdb.path="$WORK/data" >"$WORK/server.log" 2>&1 &
server_pid=$!
for ((i = 0; i < 600; i++)); do
  curl -fsS --max-time 2 "$URL/-/ready" >/dev/null 2>&1 && break
  kill -0 "$server_pid" 2>/dev/null || { tail -n 20 "$WORK/server.log" >&2; die "the server exited"; }
  sleep 0.2
done
curl -fsS --max-time 2 "$URL/-/ready" >/dev/null || die "the server did not become ready in 120 s"

log "writing $hours h of the run bench-run"
loaded=$("$JAVA" -cp "$JAR" io.flightdeck.bench.CockpitBench load --url "$URL" --work "$WORK" \
  --hours "$hours") || { tail -n 20 "$WORK/server.log" >&2; die "loading failed"; }
log "$loaded"

# Writing 24 h in order leaves it all in the head; the server cuts it into blocks and merges them
# at its next compaction (every minute). Measure once that is over: the head holds at most the last
# 4 h, and the server used under 5 % of a CPU over 2 s. At most 300 s.
head_hours() {
  local min
  min=$(curl -fsS --max-time 5 "$URL/api/v1/status/tsdb" | sed -nE 's/.*"headStats":\{[^}]*"minTime":([0-9]+).*/\1/p')
  echo $(((${min:-0} > 0 ? $(date +%s%3N) - min : 0) / 3600000))
}
cpu_ticks() { awk '{ print $14 + $15 }' "/proc/$server_pid/stat"; }
hz=$(getconf CLK_TCK)
settle_start=$(date +%s)
while (($(date +%s) - settle_start < 300)); do
  ((hours <= 4 || $(head_hours) < 4)) || { sleep 2; continue; }
  before=$(cpu_ticks); sleep 2; after=$(cpu_ticks)
  ((100 * (after - before) < 5 * 2 * hz)) && break
done
log "the server settled after $(($(date +%s) - settle_start)) s (head spans $(head_hours) h)"

log "measuring $loads cold loads of /runs/bench-run and Grafana's approach"
report="$RESULTS/cockpit-$(date -u +%Y-%m-%dT%H%M%SZ).md"
"$JAVA" -cp "$JAR" io.flightdeck.bench.CockpitBench measure --url "$URL" --work "$WORK" \
  --loads "$loads" --warmup "$warmup" >"$report.tmp" || { tail -n 20 "$WORK/server.log" >&2; die "measuring failed"; }
stop_server
{
  cat "$report.tmp"
  echo "Flightdeck: $(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo 'no commit yet')."
  echo "Loaded: $loaded."
} >"$report"
rm -f "$report.tmp"
cat "$report"
log "written to $report"

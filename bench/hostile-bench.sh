#!/usr/bin/env bash
# Hostile-query benchmark (issue 25): a Flightdeck server with a small heap gets each hostile
# request of HostileBench alone (wide ranges over many series at small steps, nested subqueries,
# regex families that blow up backtracking engines on a 4,000-character value, huge label values,
# deep nesting, a 100 KB GET), while a normal query runs beside it; per case the status and
# message, the time, the peak RSS and the normal query's latency. Never part of the tests.
#
# Usage: bench/hostile-bench.sh [--heap SIZE] [--series N] [--keep]
#   --heap SIZE   the server's -Xmx (default 256m)
#   --series N    series of the wide metric (default 20000)
#   --keep        keep the data directory and the server log (their path is printed)
# Environment: JAVA_HOME (a JDK 21+), FLIGHTDECK_BIN (default ./flightdeck),
#   BENCH_PORT (default 19390)
# The Markdown table goes to stdout and to bench/results/hostile-<date>.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
JAR="$ROOT/bench/target/flightdeck-bench.jar"
heap=256m
series=20000
keep=false
while (($#)); do
  case "$1" in
    --heap) heap=$2; shift 2 ;;
    --series) series=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
BENCH_PORT=${BENCH_PORT:-19390}
URL="http://127.0.0.1:$BENCH_PORT"
log() { echo "[hostile-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-hostile-bench.XXXXXX")
# shellcheck source=bench/flightdeck-server.sh
source "$ROOT/bench/flightdeck-server.sh"
cleanup() {
  stop_flightdeck
  if $keep; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

log "building the benchmark jar"
(cd "$ROOT" && ./mvnw -q -f bench/pom.xml -DskipTests package) || die "build failed"
start_flightdeck "$heap"

mkdir -p "$RESULTS"
report="$RESULTS/hostile-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Hostile-query benchmark, $(date -u '+%Y-%m-%d %H:%M') UTC"
  echo
  echo "Server: \`flightdeck server\` with -Xmx$heap (\`FLIGHTDECK_JAVA_OPTS\`), default query limits;"
  echo "Flightdeck $(git -C "$ROOT" rev-parse --short HEAD); $(nproc) CPUs; $("$JAVA" -version 2>&1 | head -1)."
  echo
  "$JAVA" -cp "$JAR" io.flightdeck.bench.HostileBench run --url "$URL" --pid "$server_pid" --series "$series"
  echo
  echo "Server log lines with OutOfMemoryError or StackOverflowError: $(grep -c 'OutOfMemoryError\|StackOverflowError' "$WORK/server.log" || true)."
} | tee "$report.tmp"
mv "$report.tmp" "$report"
log "written to $report"

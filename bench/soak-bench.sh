#!/usr/bin/env bash
# Soak benchmark (issue 25): a Flightdeck server takes remote write of 20,000 series every 200 ms
# (100,000 samples/s) for a long time, with a dashboard of five range queries every 10 s and a
# hostile query every minute (SoakBench); each minute its resident memory, the samples acknowledged,
# the dashboard's latency and the hostile query's answer; at the end, that every acknowledged
# sample is stored (on a spread of series) and whether memory stayed flat. Never part of the tests.
#
# Usage: bench/soak-bench.sh [--minutes N] [--heap SIZE] [--block D] [--series N] [--interval-ms N] [--keep]
#   --minutes N      how long (default 120)
#   --heap SIZE      the server's -Xmx (default 3g)
#   --block D        the server's --storage.tsdb.min-block-duration (default 15m). The head is
#                    cut once it spans 1.5 blocks, so it holds 7.5 to 22.5 minutes here: about
#                    135 M samples at most, which the 3 GB heap holds (the values are smooth
#                    waves with full mantissas, about 8.5 bytes a sample in XOR chunks). With 2h
#                    blocks the first cut comes after three hours, so two hours could not show
#                    memory level off; a first run with 1 GB and 30m blocks ran out of heap at
#                    minute 20 (bench/README.md)
#   --series N       series written (default 20000)
#   --interval-ms N  one sample per series every N ms (default 200)
#   --keep           keep the data directory and the server log (their path is printed)
# Environment: JAVA_HOME (a JDK 21+), FLIGHTDECK_BIN (default ./flightdeck),
#   BENCH_PORT (default 19490)
# The Markdown table goes to stdout and to bench/results/soak-<date>.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
JAR="$ROOT/bench/target/flightdeck-bench.jar"
minutes=120
heap=3g
block=15m
series=20000
interval=200
keep=false
while (($#)); do
  case "$1" in
    --minutes) minutes=$2; shift 2 ;;
    --heap) heap=$2; shift 2 ;;
    --block) block=$2; shift 2 ;;
    --series) series=$2; shift 2 ;;
    --interval-ms) interval=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done
BENCH_PORT=${BENCH_PORT:-19490}
URL="http://127.0.0.1:$BENCH_PORT"
log() { echo "[soak-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }
JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-soak-bench.XXXXXX")
# shellcheck source=bench/flightdeck-server.sh
source "$ROOT/bench/flightdeck-server.sh"
cleanup() {
  stop_flightdeck
  if $keep; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT

log "building the benchmark jar"
(cd "$ROOT" && ./mvnw -q -f bench/pom.xml -DskipTests package) || die "build failed"
start_flightdeck "$heap" --storage.tsdb.min-block-duration="$block"

mkdir -p "$RESULTS"
report="$RESULTS/soak-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Soak benchmark, $(date -u '+%Y-%m-%d %H:%M') UTC, $minutes minutes"
  echo
  echo "Server: \`flightdeck server\` with -Xmx$heap, --storage.tsdb.min-block-duration=$block, default query limits;"
  echo "Flightdeck $(git -C "$ROOT" rev-parse --short HEAD); $(nproc) CPUs; $("$JAVA" -version 2>&1 | head -1)."
  echo
  "$JAVA" -cp "$JAR" io.flightdeck.bench.SoakBench run --url "$URL" --pid "$server_pid" \
    --minutes "$minutes" --series "$series" --interval-ms "$interval"
  echo
  echo "Head blocks cut during the run: $(grep -c 'wrote head block' "$WORK/server.log" || true)."
  echo "Server log lines with OutOfMemoryError, StackOverflowError or ERROR: $(grep -c 'OutOfMemoryError\|StackOverflowError\|level=ERROR' "$WORK/server.log" || true)."
} | tee "$report.tmp"
mv "$report.tmp" "$report"
log "written to $report"

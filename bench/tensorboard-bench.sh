#!/usr/bin/env bash
# TensorBoard import benchmark: `flightdeck import tensorboard` against the raw limit of reading
# the same bytes (every TFRecord's CRCs checked, nothing decoded), and the time a server watching
# the logdir takes to make its first run queryable, measured in one run. Never part of the tests.
#
# Usage: bench/tensorboard-bench.sh [--size-mb N] [--edges fixed|moving] [--repeat N] [--keep]
#   --size-mb N   size of the synthetic logdir in MB (default 1024; 50 for a quick run)
#   --edges E     histogram edges: fixed per layer as PyTorch's default bins (default), or moving,
#                 30 even buckets between each histogram's min and max as TF2 writes them
#   --repeat N    scan and import N times in turns and report the median of each (default 3)
#   --keep        keep the logdir, data directories and logs (their path is printed)
# Environment:
#   JAVA_HOME       a JDK 21 or newer (else `java` on PATH must be one)
#   FLIGHTDECK_BIN  default ./flightdeck (the launcher at the repository root)
#   BENCH_PORT      port on 127.0.0.1 for the server (default 19190)
#
# Steps: build bench/target/flightdeck-bench.jar; generate the logdir (TensorBoardBench generate:
# one run per 16 MB, at least 8, each with scalars, histograms and text as PyTorch writes them);
# scan it once to warm the page cache; time a fixed loop on each CPU; then, N times in turns, scan
# it with TensorBoardBench scan (the raw limit) and import it into an empty data directory under
# /usr/bin/time (wall, CPU, peak RSS), and keep the median scan and the median import; time the
# loop on each CPU again; start a server with --tensorboard.logdir on another empty data directory
# and poll /api/v1/query until the first run, then the last one, answers with a point. The
# Markdown table goes to stdout and to bench/results/tensorboard-<date>.md. bench/README.md
# explains the measurements and caveats.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
JAR="$ROOT/bench/target/flightdeck-bench.jar"

size_mb=1024
edges=fixed
keep=false
repeat=3
while (($#)); do
  case "$1" in
    --size-mb) size_mb=$2; shift 2 ;;
    --edges) edges=$2; shift 2 ;;
    --repeat) repeat=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

FLIGHTDECK_BIN=${FLIGHTDECK_BIN:-$ROOT/flightdeck}
BENCH_PORT=${BENCH_PORT:-19190}

log() { echo "[tensorboard-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }

JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
((${java_major:-0} >= 21)) || die "need a JDK 21+; set JAVA_HOME (found '$JAVA' version ${java_major:-none})"
[[ -x /usr/bin/time ]] || die "need GNU time at /usr/bin/time (peak RSS and CPU of the import)"
[[ -x $FLIGHTDECK_BIN ]] || die "no launcher at $FLIGHTDECK_BIN"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-tensorboard-bench.XXXXXX")
server_pids=()  # the server process first, then the launcher if that differs

stop_server() {
  local pid i
  for pid in "${server_pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${server_pids[@]}"; do
    for ((i = 0; i < 600; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  done
  wait "${server_pids[-1]}" 2>/dev/null || true
  server_pids=()
}

cleanup() {
  ((${#server_pids[@]} == 0)) || stop_server
  if [[ $keep == true ]]; then log "kept the logdir, data and logs in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The process doing the work: the launcher execs the JVM, but a wrapper may run it as a child.
server_pid() {
  local pid=$1 child depth
  for ((depth = 0; depth < 5; depth++)); do
    child=$(pgrep -P "$pid" || true)
    [[ -n $child && $child != *$'\n'* ]] || break
    pid=$child
  done
  echo "$pid"
}

now_ms() { date +%s%3N; }

# Seconds a fixed loop takes pinned to each CPU, "0.25/0.26": on this kind of VM a virtual CPU, at
# times both, runs at half speed for minutes, which slows a two-thread import much more than a
# one-thread scan; the report shows it next to the ratio it explains. "n/a" without taskset.
cpu_speeds() {
  command -v taskset >/dev/null || { echo n/a; return; }
  local cpu start speeds=()
  for ((cpu = 0; cpu < $(nproc); cpu++)); do
    start=$(date +%s%N)
    taskset -c "$cpu" awk 'BEGIN { for (i = 0; i < 10000000; i++) s += i * i }'
    speeds+=("$(awk -v ns=$(($(date +%s%N) - start)) 'BEGIN { printf "%.2f", ns / 1e9 }')")
  done
  (IFS=/; echo "${speeds[*]}")
}
field() { sed -nE "s/.*(^| )$1=([0-9.]+).*/\2/p" <<<"$2"; }

# Polls the instant query until its result holds a sample, while PID lives; prints the ms since
# START_MS, or fails after LIMIT seconds.
await_point() {
  local run=$1 pid=$2 start_ms=$3 limit=$4 query answer deadline
  query="count(last_over_time(tensorboard_scalar{run=\"$run\",tag=\"train/loss\"}[30d]))"
  deadline=$(($(now_ms) + limit * 1000))
  while (($(now_ms) < deadline)); do
    answer=$(curl -fsS --max-time 10 -G "http://127.0.0.1:$BENCH_PORT/api/v1/query" \
      --data-urlencode "query=$query" 2>/dev/null || true)
    if [[ $answer == *'"value":['* ]]; then
      echo $(($(now_ms) - start_ms))
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.2
  done
  return 1
}

log "building the bench jar"
(cd "$ROOT" && ./mvnw -q -f bench/pom.xml -DskipTests package) || die "build failed"
mkdir -p "$RESULTS"

logdir="$WORK/logdir"
log "generating a ${size_mb} MB logdir"
generated=$("$JAVA" -cp "$JAR" io.flightdeck.bench.TensorBoardBench generate --out "$logdir" \
  --size-mb "$size_mb" --edges "$edges")
log "$generated"
runs=$(field runs "$generated")
# Written out now: left dirty, the logdir's pages were flushed while the import ran, and its
# fsyncs (ext4 commits its journal with the data it orders) waited for them.
sync

((repeat >= 1)) || die "--repeat must be at least 1, got $repeat"
log "raw scan once to warm the page cache"
"$JAVA" -cp "$JAR" io.flightdeck.bench.TensorBoardBench scan --logdir "$logdir" >/dev/null

# The launcher builds the jar when sources changed; let that happen before anything is timed.
"$FLIGHTDECK_BIN" --version >/dev/null || die "the launcher failed; see its output above"

# Scans and imports in turns, so that a machine whose speed drifts slows both alike; each line is
# "key|output|time", the key being what the median is taken over.
scans=()
imports=()
speeds_before=$(cpu_speeds)
for ((i = 1; i <= repeat; i++)); do
  log "raw scan $i of $repeat"
  raw=$(/usr/bin/time -f 'cpu=%U+%S rss_kib=%M' -o "$WORK/raw.time" \
    "$JAVA" -cp "$JAR" io.flightdeck.bench.TensorBoardBench scan --logdir "$logdir")
  [[ $(field bad_crcs "$raw") == 0 ]] || die "the raw scan found bad CRCs: $raw"
  scans+=("$(field seconds "$raw")|$raw|$(cat "$WORK/raw.time")")
  log "$raw $(cat "$WORK/raw.time")"
  log "flightdeck import tensorboard $i of $repeat"
  rm -rf "$WORK/import-data"
  summary=$(/usr/bin/time -f 'wall=%e cpu=%U+%S rss_kib=%M' -o "$WORK/import.time" \
    "$FLIGHTDECK_BIN" import tensorboard "$logdir" --storage.tsdb.path="$WORK/import-data" \
    --output=json 2>"$WORK/import.log") || { tail -n 20 "$WORK/import.log" >&2; die "import failed"; }
  imports+=("$(field wall "$(cat "$WORK/import.time")")|$summary|$(cat "$WORK/import.time")")
  log "$summary $(cat "$WORK/import.time")"
done
speeds_after=$(cpu_speeds)
# The median line by its key; for an even count, the lower middle.
median() { printf '%s\n' "$@" | sort -t'|' -k1,1g | sed -n "$(((${#@} + 1) / 2))p"; }
all_keys() { printf '%s\n' "$@" | cut -d'|' -f1 | paste -sd' '; }
scan_median=$(median "${scans[@]}")
import_median=$(median "${imports[@]}")
raw=$(cut -d'|' -f2 <<<"$scan_median")
raw_time=$(cut -d'|' -f3 <<<"$scan_median")
summary=$(cut -d'|' -f2 <<<"$import_median")
import_time=$(cut -d'|' -f3 <<<"$import_median")
scan_walls=$(all_keys "${scans[@]}")
import_walls=$(all_keys "${imports[@]}")

log "server with --tensorboard.logdir"
(exec 3<>"/dev/tcp/127.0.0.1/$BENCH_PORT") 2>/dev/null && die "port $BENCH_PORT is in use; set BENCH_PORT"
start_ms=$(now_ms)
"$FLIGHTDECK_BIN" server --web.listen-address="127.0.0.1:$BENCH_PORT" \
  --storage.tsdb.path="$WORK/server-data" --tensorboard.logdir="$logdir" >"$WORK/server.log" 2>&1 &
server_pids=("$!")
first_ms=$(await_point run-000 "${server_pids[0]}" "$start_ms" 600) || first_ms=n/a
last_run=$(printf 'run-%03d' $((runs - 1)))
last_ms=$(await_point "$last_run" "${server_pids[0]}" "$start_ms" 3600) || last_ms=n/a
pid=$(server_pid "${server_pids[0]}")
server_rss_kib=$(awk '/^VmHWM:/ { print $2 }' "/proc/$pid/status" 2>/dev/null || echo n/a)
stop_server
[[ $first_ms != n/a ]] || { tail -n 20 "$WORK/server.log" >&2; die "the first run never became queryable"; }

# Everything below is arithmetic on the figures above.
report="$RESULTS/tensorboard-$(date -u +%Y-%m-%dT%H%M%SZ).md"
awk -v bytes="$(field bytes "$raw")" -v records="$(field records "$raw")" \
  -v raw_s="$(field seconds "$raw")" -v raw_cpu="$(sed -nE 's/.*cpu=([0-9.+]+).*/\1/p' <<<"$raw_time")" \
  -v raw_rss="$(field rss_kib "$raw_time")" -v imp_s="$(field wall "$import_time")" \
  -v imp_cpu="$(sed -nE 's/.*cpu=([0-9.+]+).*/\1/p' <<<"$import_time")" \
  -v imp_rss="$(field rss_kib "$import_time")" -v first="$first_ms" -v last="$last_ms" \
  -v server_rss="$server_rss_kib" -v runs="$runs" -v size="$size_mb" -v summary="$summary" \
  -v edges="$edges" -v repeat="$repeat" -v scan_walls="$scan_walls" -v import_walls="$import_walls" \
  -v speeds_before="$speeds_before" -v speeds_after="$speeds_after" \
  -v date="$(date -u '+%Y-%m-%d %H:%M UTC')" -v cpus="$(nproc)" \
  -v model="$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)" \
  -v version="$(cd "$ROOT" && git describe --always --dirty 2>/dev/null || echo 'no commit yet')" '
  function sum(expr, parts) { split(expr, parts, "+"); return parts[1] + parts[2] }
  function ratio(a, b) { return b == 0 ? "n/a" : sprintf("%.3f", a / b) }
  function seconds(ms) { return ms == "n/a" ? "n/a" : sprintf("%.1f", ms / 1000) }
  BEGIN {
    mb = bytes / 1e6; rc = sum(raw_cpu); ic = sum(imp_cpu)
    printf "# TensorBoard import benchmark, %s\n\n", date
    printf "Logdir: %.1f MB in %d runs, %d records, %s histogram edges (bench/src/main/java/io/flightdeck/bench/SyntheticLogdir.java).\n", mb, runs, records, edges
    printf "Machine: %d CPUs (%s). Flightdeck: %s.\n", cpus, model, version
    printf "Import summary: %s\n", summary
    printf "Medians of %d scans and %d imports in turns; scans took %s s, imports %s s.\n", repeat, repeat, scan_walls, import_walls
    printf "A fixed loop pinned to each CPU took %s s before the scans and %s s after the imports.\n\n", speeds_before, speeds_after
    print "| Metric | Raw scan (CRCs only) | flightdeck import | import/raw |"
    print "|---|---:|---:|---:|"
    printf "| Throughput, MB/s (higher is better) | %.1f | %.1f | %s |\n", mb / raw_s, mb / imp_s, ratio(raw_s, imp_s)
    printf "| Records/s (higher is better) | %.0f | %.0f | %s |\n", records / raw_s, records / imp_s, ratio(raw_s, imp_s)
    printf "| Wall time, s | %.2f | %.1f | %s |\n", raw_s, imp_s, ratio(imp_s, raw_s)
    printf "| CPU time, s | %.2f | %.1f | %s |\n", rc, ic, ratio(ic, rc)
    printf "| Peak RSS, MiB | %.0f | %.0f | %s |\n", raw_rss / 1024, imp_rss / 1024, ratio(imp_rss, raw_rss)
    print ""
    print "| Server with --tensorboard.logdir | |"
    print "|---|---:|"
    printf "| Time from start until the first run is queryable, s | %s |\n", seconds(first)
    printf "| Time from start until the last run is queryable, s | %s |\n", seconds(last)
    printf "| Peak RSS by then, MiB | %s |\n", server_rss == "n/a" ? "n/a" : sprintf("%.0f", server_rss / 1024)
  }' >"$report"
cat "$report"
log "written to $report"

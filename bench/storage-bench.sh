#!/usr/bin/env bash
# Storage ingestion benchmark: Flightdeck's embedded TSDB against Prometheus and VictoriaMetrics,
# on identical remote-write requests, measured in one run. Never part of the tests; run on demand.
#
# Usage: bench/storage-bench.sh [--hours H] [--peers LIST] [--connections N] [--queries N] [--keep]
#   --hours H          workload length in hours, 15 s scrapes of ~10,500 series (default 6)
#   --queries N        also run the dashboard query set (QueryBench) N times per query after the
#                      send and report median latencies with ratios and geometric means (default 0)
#   --warmup N         runs of each query before the measured ones (default 10); a dashboard
#                      refreshing every 10 s runs each query 90 times in a quarter of an hour
#   --dashboard-warmup S  seconds of whole-dashboard refreshes on every peer before any query is
#                      measured (default 30): the JIT compiles while a server is young
#   --only NAMES       run only these dashboard queries (comma-separated QueryBench names), for
#                      profiling one query
#   --peers LIST       comma-separated, from flightdeck,prometheus,victoriametrics (default: all)
#   --connections N    concurrent remote-write connections (default 4)
#   --keep             keep the peers' data directories and logs (their path is printed)
# Environment:
#   JAVA_HOME          a JDK 21 or newer (else `java` on PATH must be one)
#   FLIGHTDECK_BIN     default ./flightdeck (the launcher at the repository root)
#   FLIGHTDECK_ARGS    extra server flags, e.g. --query.max-workers-per-query=1 to compare
#   PROMETHEUS_BIN     default /usr/bin/prometheus
#   VICTORIA_METRICS_BIN  default /usr/bin/victoria-metrics
#   BENCH_PORT         first of three consecutive ports on 127.0.0.1 (default 19090)
#
# Steps: build bench/target/flightdeck-bench.jar; encode the workload once into
# bench/results/workload.rw; then for each peer, one after another: start it on 127.0.0.1 with an
# empty data directory, wait until ready, send the workload, flush to disk, measure, stop it by
# its PID. With --queries, each peer is frozen (SIGSTOP) after its flush instead of stopped, so
# the next peer's send runs alone; then all are resumed, left until their CPU is idle, and the
# dashboard queries run against all of them in turns (QueryBench), on data every peer holds in
# memory (VictoriaMetrics with its result cache disabled); then they are stopped. A Flightdeck
# that does not start is reported as n/a. The Markdown tables go to stdout and to
# bench/results/storage-<date>.md. bench/README.md explains the measurements and caveats.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
JAR="$ROOT/bench/target/flightdeck-bench.jar"
ALL_PEERS=(flightdeck prometheus victoriametrics)
declare -A TITLE=([flightdeck]=Flightdeck [prometheus]=Prometheus [victoriametrics]=VictoriaMetrics)

hours=6
peers=flightdeck,prometheus,victoriametrics
connections=4
queries=0
warmup=10
dashboard_warmup=30
only=
keep=false
while (($#)); do
  case "$1" in
    --hours) hours=$2; shift 2 ;;
    --peers) peers=$2; shift 2 ;;
    --connections) connections=$2; shift 2 ;;
    --queries) queries=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --dashboard-warmup) dashboard_warmup=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

FLIGHTDECK_BIN=${FLIGHTDECK_BIN:-$ROOT/flightdeck}
PROMETHEUS_BIN=${PROMETHEUS_BIN:-/usr/bin/prometheus}
VICTORIA_METRICS_BIN=${VICTORIA_METRICS_BIN:-/usr/bin/victoria-metrics}
BENCH_PORT=${BENCH_PORT:-19090}
declare -A PORT=([flightdeck]=$BENCH_PORT [prometheus]=$((BENCH_PORT + 1)) [victoriametrics]=$((BENCH_PORT + 2)))

log() { echo "[storage-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }

JAVA=${JAVA_HOME:+$JAVA_HOME/bin/}java
java_major=$("$JAVA" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
((${java_major:-0} >= 21)) || die "need a JDK 21+; set JAVA_HOME (found '$JAVA' version ${java_major:-none})"
CLK_TCK=$(getconf CLK_TCK)

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-storage-bench.XXXXXX")
declare -A PIDS  # running peers: the server process first, then the launcher if that differs

# Stops a running peer: SIGTERM to its PIDs (SIGCONT first, in case it is frozen), then waits up
# to 60 s each before SIGKILL.
stop_peer() {
  local peer=$1 pid i pids
  read -r -a pids <<<"${PIDS[$peer]:-}"
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; kill -CONT "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 600; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    if kill -0 "$pid" 2>/dev/null; then
      log "PID $pid ignored SIGTERM for 60 s; sending SIGKILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
  done
  ((${#pids[@]} == 0)) || wait "${pids[-1]}" 2>/dev/null || true  # the launcher is this script's child
  unset "PIDS[$peer]"
}

# Waits until a resumed peer's CPU is idle (under 2 ticks in a second, three seconds in a row; at
# most 120 s): Prometheus compacts its head and VictoriaMetrics merges in the background.
wait_idle() {
  local pid=$1 before after quiet=0 i
  for ((i = 0; i < 120 && quiet < 3; i++)); do
    before=$(cpu_ticks "$pid")
    sleep 1
    after=$(cpu_ticks "$pid")
    if ((after - before < 2)); then quiet=$((quiet + 1)); else quiet=0; fi
  done
  ((quiet >= 3)) || log "PID $pid still busy after 120 s; querying anyway"
}

cleanup() {
  local peer
  for peer in "${!PIDS[@]}"; do stop_peer "$peer"; done
  if [[ $keep == true ]]; then log "kept data directories and logs in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# utime + stime of a process, in clock ticks (fields 14 and 15 of /proc/PID/stat; the command
# name in field 2 may hold spaces, so fields are counted after its closing parenthesis).
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }

# Peak resident set size in KiB.
peak_rss_kib() { awk '/^VmHWM:/ { print $2 }' "/proc/$1/status"; }

# The process doing the work: a launcher script may run the server as its only child.
server_pid() {
  local pid=$1 child depth
  for ((depth = 0; depth < 5; depth++)); do
    child=$(pgrep -P "$pid" || true)
    [[ -n $child && $child != *$'\n'* ]] || break
    pid=$child
  done
  echo "$pid"
}

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# Polls URL until it answers 2xx: at most 120 s, and only while PID lives.
wait_ready() {
  local url=$1 pid=$2 i
  for ((i = 0; i < 240; i++)); do
    curl -fsS --max-time 2 -o /dev/null "$url" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

start_peer() {
  local peer=$1 data=$2 port=${PORT[$1]}
  port_in_use "$port" && { log "port $port is in use; set BENCH_PORT"; return 1; }
  case "$peer" in
    flightdeck)
      [[ -x $FLIGHTDECK_BIN ]] || { log "no launcher at $FLIGHTDECK_BIN"; return 1; }
      "$FLIGHTDECK_BIN" server --web.enable-admin-api --web.listen-address="127.0.0.1:$port" \
        --storage.tsdb.path="$data" ${FLIGHTDECK_ARGS:-} \
        >"$WORK/$peer.log" 2>&1 &
      ;;
    prometheus)
      printf 'global:\n  scrape_interval: 15s\n' >"$WORK/prometheus.yml"
      "$PROMETHEUS_BIN" --web.enable-remote-write-receiver --web.enable-admin-api \
        --storage.tsdb.path="$data" --config.file="$WORK/prometheus.yml" \
        --web.listen-address="127.0.0.1:$port" >"$WORK/$peer.log" 2>&1 &
      ;;
    victoriametrics)
      "$VICTORIA_METRICS_BIN" -storageDataPath="$data" -httpListenAddr="127.0.0.1:$port" \
        -retentionPeriod=100y -search.disableCache >"$WORK/$peer.log" 2>&1 &
      ;;
  esac
  local launcher=$! ready=/-/ready
  PIDS[$peer]=$launcher
  [[ $peer == victoriametrics ]] && ready=/health
  if ! wait_ready "http://127.0.0.1:$port$ready" "$launcher"; then
    log "$peer did not become ready; last lines of its log:"
    tail -n 20 "$WORK/$peer.log" >&2 || true
    stop_peer "$peer"
    return 1
  fi
  local server
  server=$(server_pid "$launcher")
  [[ $server == "$launcher" ]] || PIDS[$peer]="$server $launcher"
}

# Prometheus and Flightdeck: the admin snapshot writes everything, head included, as blocks.
flushed_bytes_snapshot() {
  local base=$1 data=$2 answer name
  answer=$(curl -fsS --max-time 900 -X POST "$base/api/v1/admin/tsdb/snapshot")
  name=$(sed -n 's/.*"name" *: *"\([^"]*\)".*/\1/p' <<<"$answer")
  [[ -n $name && -d $data/snapshots/$name ]] || { log "unexpected snapshot answer: $answer"; return 1; }
  du -sb "$data/snapshots/$name" | cut -f1
}

# VictoriaMetrics: flush buffered rows, wait until merges have settled (no active merge, no
# pending rows, part counts unchanged for 3 s; at most 300 s), then measure a snapshot. The
# snapshot's parts are symlinked directories, hence du -L.
flushed_bytes_victoriametrics() {
  local base=$1 data=$2 state previous="" stable=0 i answer name
  curl -fsS --max-time 300 -o /dev/null "$base/internal/force_flush" || return 1
  for ((i = 0; i < 300 && stable < 3; i++)); do
    sleep 1
    state=$(curl -fsS --max-time 10 "$base/metrics" | awk '
      /^vm_(active_merges|pending_rows)\{/ { busy += $2 }
      /^vm_parts\{/ { parts = parts " " $2 }
      END { print busy + 0, parts }')
    if [[ $state == 0\ * && $state == "$previous" ]]; then stable=$((stable + 1)); else stable=0; fi
    previous=$state
  done
  ((stable >= 3)) || log "victoriametrics merges still running after 300 s; measuring anyway"
  answer=$(curl -fsS --max-time 300 "$base/snapshot/create")
  name=$(sed -n 's/.*"snapshot" *: *"\([^"]*\)".*/\1/p' <<<"$answer")
  [[ -n $name && -d $data/snapshots/$name ]] || { log "unexpected snapshot answer: $answer"; return 1; }
  du -sbL "$data/snapshots/$name" | cut -f1
}

declare -A R  # results, keyed "peer.metric"
failed=false
query_names=()
queried=()  # peers frozen after their send, for the query phase

# Resumes the frozen peers, waits until each is idle, and runs the dashboard queries against all
# of them in turns; fills R[peer.q.NAME] with the median latency in ms.
run_queries() {
  local peer pid line name targets=()
  for peer in "${queried[@]}"; do
    pid=${PIDS[$peer]%% *}
    kill -CONT "$pid"
    targets+=("$peer=http://127.0.0.1:${PORT[$peer]}")
  done
  for peer in "${queried[@]}"; do wait_idle "${PIDS[$peer]%% *}"; done
  log "running the dashboard queries $queries times each against ${queried[*]}, in turns"
  while read -r line; do
    name=$(sed -n 's/^query=\([^ ]*\) .*/\1/p' <<<"$line")
    peer=$(sed -n 's/.* peer=\([^ ]*\) .*/\1/p' <<<"$line")
    R[$peer.q.$name]=$(sed -n 's/.*median_ms=\([0-9.]*\).*/\1/p' <<<"$line")
    [[ " ${query_names[*]} " == *" $name "* ]] || query_names+=("$name")
  done < <("$JAVA" -cp "$JAR" io.flightdeck.bench.QueryBench run \
    --peers "$(IFS=,; echo "${targets[*]}")" \
    --start-ms "$(field start_ms)" --end-ms "$(($(field start_ms) + ($(field slices) - 1) * 15000))" \
    --repeat "$queries" --warmup "$warmup" --dashboard-warmup-seconds "$dashboard_warmup" \
    ${only:+--only "$only"})
  [[ -n ${R[${queried[0]}.q.${query_names[0]:-none}]:-} ]]
}

# Median query latencies per peer, ratios, and the geometric mean over all queries.
query_table() {
  local name fd prom vm
  echo "| Query | Flightdeck ms | Prometheus ms | VictoriaMetrics ms | Flightdeck/Prometheus | Flightdeck/VictoriaMetrics |"
  echo "|---|---:|---:|---:|---:|---:|"
  for name in "${query_names[@]}"; do
    fd=${R[flightdeck.q.$name]:-n/a}
    prom=${R[prometheus.q.$name]:-n/a}
    vm=${R[victoriametrics.q.$name]:-n/a}
    echo "| $name | $fd | $prom | $vm | $(ratio "$fd" "$prom") | $(ratio "$fd" "$vm") |"
  done
  fd=$(geomean flightdeck)
  prom=$(geomean prometheus)
  vm=$(geomean victoriametrics)
  echo "| geometric mean | $fd | $prom | $vm | $(ratio "$fd" "$prom") | $(ratio "$fd" "$vm") |"
}

geomean() {
  local peer=$1 name values=()
  for name in "${query_names[@]}"; do
    [[ -n ${R[$peer.q.$name]:-} ]] || { echo n/a; return; }
    values+=("${R[$peer.q.$name]}")
  done
  awk 'BEGIN { s = 0; for (i = 1; i < ARGC; i++) s += log(ARGV[i]); printf "%.2f", exp(s / (ARGC - 1)) }' "${values[@]}"
}

# Runs one peer through start, send, flush and stop (with --queries: freeze), filling R; returns
# non-zero if it failed.
bench_peer() {
  local peer=$1 data="$WORK/$1-data" base="http://127.0.0.1:${PORT[$1]}" pid sent cpu0 cpu1 cpu2 bytes
  mkdir -p "$data"
  log "$peer: starting"
  start_peer "$peer" "$data" || return 2
  pid=${PIDS[$peer]%% *}
  cpu0=$(cpu_ticks "$pid")
  log "$peer: sending"
  sent=$("$JAVA" --enable-native-access=ALL-UNNAMED -cp "$JAR" io.flightdeck.bench.StorageBench \
    send --url "$base/api/v1/write" --file "$RESULTS/workload.rw" --connections "$connections") \
    || { log "$peer: send failed"; stop_peer "$peer"; return 1; }
  cpu1=$(cpu_ticks "$pid")
  R[$peer.rss_kib]=$(peak_rss_kib "$pid")
  log "$peer: $sent; flushing"
  if [[ $peer == victoriametrics ]]; then
    bytes=$(flushed_bytes_victoriametrics "$base" "$data") || { stop_peer "$peer"; return 1; }
  else
    bytes=$(flushed_bytes_snapshot "$base" "$data") || { stop_peer "$peer"; return 1; }
  fi
  cpu2=$(cpu_ticks "$pid")
  if ((queries > 0)); then
    kill -STOP "$pid"
    queried+=("$peer")
  else
    stop_peer "$peer"
  fi
  R[$peer.samples]=$(sed -n 's/.*samples=\([0-9]*\) .*/\1/p' <<<"$sent")
  R[$peer.seconds]=$(sed -n 's/.*seconds=\([0-9.]*\) .*/\1/p' <<<"$sent")
  R[$peer.send_cpu]=$(((cpu1 - cpu0)))
  R[$peer.total_cpu]=$(((cpu2 - cpu0)))
  R[$peer.bytes]=$bytes
  log "$peer: done"
}

# One metric of a peer, formatted, or n/a when the peer has no result.
metric() {
  local peer=$1 name=$2
  [[ -n ${R[$peer.samples]:-} ]] || { echo n/a; return; }
  awk -v s="${R[$peer.samples]}" -v t="${R[$peer.seconds]}" -v c="${R[$peer.send_cpu]}" \
    -v ct="${R[$peer.total_cpu]}" -v hz="$CLK_TCK" -v rss="${R[$peer.rss_kib]}" \
    -v b="${R[$peer.bytes]}" -v name="$name" 'BEGIN {
      if (name == "rate") printf "%.0f", s / t
      else if (name == "send_cpu") printf "%.3f", c / hz / s * 1e6
      else if (name == "total_cpu") printf "%.3f", ct / hz / s * 1e6
      else if (name == "rss") printf "%.1f", rss / 1024
      else if (name == "bytes_per_sample") printf "%.3f", b / s
      else if (name == "seconds") printf "%.1f", t
      else if (name == "disk_mib") printf "%.1f", b / 1048576
    }'
}

ratio() {
  [[ $1 != n/a && $2 != n/a ]] || { echo n/a; return; }
  awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "n/a"; else printf "%.2f", a / b }'
}

table() {
  local rows=(
    "rate|Ingested samples/s (higher is better)"
    "send_cpu|CPU seconds per million samples, during the send"
    "total_cpu|CPU seconds per million samples, send + flush"
    "rss|Peak RSS, MiB"
    "bytes_per_sample|On-disk bytes per sample"
    "seconds|Send wall time, s"
    "disk_mib|On-disk size, MiB"
  )
  local row key fd prom vm
  echo "| Metric | Flightdeck | Prometheus | VictoriaMetrics | Flightdeck/Prometheus | Flightdeck/VictoriaMetrics |"
  echo "|---|---:|---:|---:|---:|---:|"
  for row in "${rows[@]}"; do
    key=${row%%|*}
    fd=$(metric flightdeck "$key")
    prom=$(metric prometheus "$key")
    vm=$(metric victoriametrics "$key")
    echo "| ${row#*|} | $fd | $prom | $vm | $(ratio "$fd" "$prom") | $(ratio "$fd" "$vm") |"
  done
}

version_of() {
  case "$1" in
    flightdeck)
      if [[ -n ${R[flightdeck.samples]:-} ]]; then
        (cd "$ROOT" && git describe --always --dirty 2>/dev/null) || echo "no commit yet"
      else
        echo "not measured"
      fi ;;
    prometheus) "$PROMETHEUS_BIN" --version 2>&1 | head -n 1 ;;
    victoriametrics)
      dpkg-query -W -f '${Version}' victoria-metrics 2>/dev/null \
        || "$VICTORIA_METRICS_BIN" -version 2>&1 | head -n 1 ;;
  esac
}

log "building the bench jar"
(cd "$ROOT" && ./mvnw -q -f bench/pom.xml -DskipTests package) || die "build failed"
mkdir -p "$RESULTS"
log "encoding ${hours} h of workload"
workload=$("$JAVA" --enable-native-access=ALL-UNNAMED -cp "$JAR" io.flightdeck.bench.StorageBench \
  encode --hours "$hours" --out "$RESULTS/workload.rw")
log "$workload"
field() { sed -nE "s/.*(^| )$1=([0-9]+).*/\2/p" <<<"$workload"; }

IFS=, read -r -a selected <<<"$peers"
for peer in "${selected[@]}"; do
  [[ " ${ALL_PEERS[*]} " == *" $peer "* ]] || die "unknown peer '$peer' (flightdeck, prometheus, victoriametrics)"
done
for peer in "${selected[@]}"; do
  status=0
  bench_peer "$peer" || status=$?
  case $status in
    0) ;;
    2) log "$peer: could not start; reported as n/a" ;;
    *) log "$peer: FAILED; reported as n/a"; failed=true ;;
  esac
done
if ((queries > 0 && ${#queried[@]} > 0)); then
  run_queries || { log "queries FAILED"; failed=true; }
  for peer in "${queried[@]}"; do stop_peer "$peer"; done
fi

report="$RESULTS/storage-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "# Storage ingestion benchmark, $(date -u '+%Y-%m-%d %H:%M UTC')"
  echo
  echo "Workload: ${hours} h at 15 s: $(field series) series, $(field samples) samples in $(field requests) requests" \
    "($(field compressed_bytes) bytes snappy); remote write 1.0 over ${connections} connections."
  echo "Machine: $(nproc) CPUs ($(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)), $(awk '/^MemTotal/ { printf "%.0f GiB", $2 / 1048576 }' /proc/meminfo) RAM."
  for peer in "${ALL_PEERS[@]}"; do echo "${TITLE[$peer]}: $(version_of "$peer")."; done
  echo
  table
  if ((queries > 0)); then
    echo
    echo "Dashboard queries (bench/src/main/java/io/flightdeck/bench/QueryBench.java), the peers in turns, median of $queries runs after ${dashboard_warmup} s of whole-dashboard refreshes and $warmup warm-up runs:"
    echo
    query_table
  fi
} >"$report"
cat "$report"
log "written to $report"
[[ $failed == false ]]

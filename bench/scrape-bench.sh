#!/usr/bin/env bash
# Scrape benchmark: Flightdeck and Prometheus scraping the same synthetic targets with the same
# configuration, side by side in one run, and what each spends per scraped sample. Never part of
# the tests.
#
# Usage: bench/scrape-bench.sh [--targets N] [--series S] [--interval 15s] [--seconds N]
#                              [--warmup N] [--keep]
#   --targets N   scrape targets (default 1000), ports TARGET_PORT .. TARGET_PORT+N-1
#   --series S    series per target (default 500)
#   --interval D  scrape interval, whole seconds as "15s" (default 15s); timeout 2/3 of it
#   --seconds N   measured window in seconds (default 180), rounded up to whole intervals
#   --warmup N    seconds from both servers' start to the window (default 3 intervals; at least 2)
#   --keep        keep the work directory (logs, configuration, data) and print its path
# Environment:
#   FLIGHTDECK_JAR        default app/target/flightdeck.jar; build it first, the script never does
#   PROMETHEUS_BIN        default /usr/bin/prometheus
#   FLIGHTDECK_JAVA_OPTS  extra JVM flags for Flightdeck, as for the launcher (e.g. JFR)
#   BENCH_PORT            Flightdeck's port on 127.0.0.1, Prometheus's is the next (default 19290)
#   TARGET_PORT           first target port on 127.0.0.1 (default 20000)
#
# Steps: build bench/target/flightdeck-bench.jar; start io.flightdeck.bench.ScrapeTargets (all
# targets in one JVM, bodies rendered once per interval); run Flightdeck through a copy of the
# launcher beside a copy of the jar, so nothing rebuilds it mid-run; start Prometheus; both get
# the same generated prometheus.yml and an empty data directory. After the warm-up, read
# utime+stime of each process from /proc/PID/stat at the start and end of the window, then ask
# each server at the window's end for its own scrape_samples_scraped and up over the window, and
# read the samples each says it stored from its own /metrics at both ends. Flightdeck runs with
# --storage.tsdb.max-series-per-metric raised to targets x series, so that its guard against
# label explosions (200,000 series per metric by default) does not refuse part of the workload.
# The Markdown table goes to stdout and to bench/results/scrape-<date>.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"
BENCH_JAR="$ROOT/bench/target/flightdeck-bench.jar"

targets=1000
series=500
interval=15s
seconds=180
warmup=""
keep=false
while (($#)); do
  case "$1" in
    --targets) targets=$2; shift 2 ;;
    --series) series=$2; shift 2 ;;
    --interval) interval=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    --warmup) warmup=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

log() { echo "[scrape-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }

[[ $targets =~ ^[1-9][0-9]*$ ]] || die "--targets must be a positive whole number, got '$targets'"
[[ $series =~ ^[1-9][0-9]*$ ]] || die "--series must be a positive whole number, got '$series'"
[[ $seconds =~ ^[1-9][0-9]*$ ]] || die "--seconds must be a positive whole number, got '$seconds'"
[[ $interval =~ ^([1-9][0-9]*)s$ ]] || die "--interval must be whole seconds like 15s, got '$interval'"
step=${BASH_REMATCH[1]}
timeout_ms=$((step * 2000 / 3))
[[ -z $warmup ]] && warmup=$((3 * step))
[[ $warmup =~ ^[0-9]+$ ]] || die "--warmup must be whole seconds, got '$warmup'"
((warmup >= 2 * step)) || die "--warmup must be at least two intervals ($((2 * step)) s), got $warmup"
seconds=$(((seconds + step - 1) / step * step))

FLIGHTDECK_JAR=${FLIGHTDECK_JAR:-$ROOT/app/target/flightdeck.jar}
PROMETHEUS_BIN=${PROMETHEUS_BIN:-/usr/bin/prometheus}
BENCH_PORT=${BENCH_PORT:-19290}
TARGET_PORT=${TARGET_PORT:-20000}
declare -A PORT=([flightdeck]=$BENCH_PORT [prometheus]=$((BENCH_PORT + 1)))
TICKS=$(getconf CLK_TCK)

# shellcheck source=../scripts/find-java.sh
source "$ROOT/scripts/find-java.sh"
JAVA=$(find_java) || die "no Java 21 or newer found"
[[ -f $FLIGHTDECK_JAR ]] ||
  die "no jar at $FLIGHTDECK_JAR; build it first: ./mvnw -q -DskipTests -pl app -am package"
[[ -x $PROMETHEUS_BIN ]] || die "no Prometheus at $PROMETHEUS_BIN (apt-get install prometheus)"
command -v curl >/dev/null || die "need curl"
command -v jq >/dev/null || die "need jq"
if [[ -n $(find "$ROOT" -path "$ROOT/bench" -prune -o -path '*/target' -prune -o \
  \( -name pom.xml -o -path '*/src/main/*' \) -newer "$FLIGHTDECK_JAR" -print -quit) ]]; then
  log "warning: sources are newer than $FLIGHTDECK_JAR; measuring the jar as built"
fi

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-scrape-bench.XXXXXX")
pids=()

cleanup() {
  local pid i
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 600; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  done
  if [[ $keep == true ]]; then log "kept $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
# All CPUs' busy and steal ticks from /proc/stat: "busy steal total".
machine_ticks() { awk '$1 == "cpu" { print $2 + $3 + $4 + $7 + $8, $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat; }
cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
status_kb() { awk -v key="$2:" '$1 == key { print $2 }' "/proc/$1/status"; }

# Polls URL until it answers 2xx: at most 180 s, and only while PID lives.
wait_ready() {
  local url=$1 pid=$2 i
  for ((i = 0; i < 360; i++)); do
    curl -fsS --max-time 2 -o /dev/null "$url" 2>/dev/null && return 0
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.5
  done
  return 1
}

# Samples the server says it stored so far, from its own /metrics.
stored_samples() {
  local name
  case $1 in
    flightdeck) name=flightdeck_tsdb_samples_appended_total ;;
    prometheus) name=prometheus_tsdb_head_samples_appended_total ;;
  esac
  curl -fsS --max-time 30 "http://127.0.0.1:${PORT[$1]}/metrics" |
    awk -v name="$name" '$1 == name || index($1, name "{") == 1 { sum += $NF } END { printf "%.0f", sum }'
}

# One instant query at TIME; prints the single value of the result ("" when empty).
query() {
  local peer=$1 expr=$2 time=$3
  curl -fsS --max-time 120 "http://127.0.0.1:${PORT[$peer]}/api/v1/query" \
    --data-urlencode "query=$expr" --data-urlencode "time=$time" |
    jq -r 'if .status == "success" then (.data.result[0].value[1] // "") else error(.error) end'
}

log "building the bench jar"
(cd "$ROOT" && ./mvnw -q -f bench/pom.xml -DskipTests package) || die "bench build failed"

for ((p = TARGET_PORT; p < TARGET_PORT + targets; p++)); do
  port_in_use "$p" && die "target port $p is in use; set TARGET_PORT"
done
for peer in flightdeck prometheus; do
  port_in_use "${PORT[$peer]}" && die "port ${PORT[$peer]} is in use; set BENCH_PORT"
done

log "starting $targets targets of $series series on 127.0.0.1:$TARGET_PORT-$((TARGET_PORT + targets - 1))"
# Two rendered body sets of about 100 bytes a series each live at once.
target_heap_mb=$((256 + targets * series * 300 / 1048576))
"$JAVA" -Xmx${target_heap_mb}m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 \
  -cp "$BENCH_JAR" io.flightdeck.bench.ScrapeTargets --targets "$targets" --series "$series" \
  --interval-ms $((step * 1000)) --first-port "$TARGET_PORT" >"$WORK/targets.out" 2>"$WORK/targets.log" &
targets_pid=$!
pids+=("$targets_pid")
for ((i = 0; i < 1200; i++)); do
  grep -q '^ready ' "$WORK/targets.out" 2>/dev/null && break
  kill -0 "$targets_pid" 2>/dev/null || { cat "$WORK/targets.log" >&2; die "the target server failed"; }
  sleep 0.1
done
grep -q '^ready ' "$WORK/targets.out" || die "the target server was not ready after 120 s"
log "$(cat "$WORK/targets.out")"
body_bytes=$(sed -n 's/.*body_bytes=\([0-9]*\).*/\1/p' "$WORK/targets.out")

{
  echo "global:"
  echo "  scrape_interval: $interval"
  echo "  scrape_timeout: ${timeout_ms}ms"
  echo "scrape_configs:"
  echo "  - job_name: bench"
  echo "    static_configs:"
  echo "      - targets:"
  for ((p = TARGET_PORT; p < TARGET_PORT + targets; p++)); do echo "          - 127.0.0.1:$p"; done
} >"$WORK/scrape.yml"

# A copy of the launcher beside a copy of the jar: its flags, and no rebuild.
mkdir -p "$WORK/launcher/app/target" "$WORK/launcher/scripts"
cp "$ROOT/flightdeck" "$WORK/launcher/"
cp "$ROOT/scripts/find-java.sh" "$WORK/launcher/scripts/"
cp "$FLIGHTDECK_JAR" "$WORK/launcher/app/target/flightdeck.jar"

log "starting Flightdeck on 127.0.0.1:${PORT[flightdeck]} and Prometheus on 127.0.0.1:${PORT[prometheus]}"
JAVA_HOME="$(cd "$(dirname "$JAVA")/.." && pwd)" "$WORK/launcher/flightdeck" server \
  --config.file="$WORK/scrape.yml" --storage.tsdb.path="$WORK/flightdeck-data" \
  --web.listen-address="127.0.0.1:${PORT[flightdeck]}" \
  --storage.tsdb.max-series-per-metric=$((targets * series)) >"$WORK/flightdeck.log" 2>&1 &
declare -A PID=([flightdeck]=$!)
pids+=("${PID[flightdeck]}")
"$PROMETHEUS_BIN" --config.file="$WORK/scrape.yml" --storage.tsdb.path="$WORK/prometheus-data" \
  --web.listen-address="127.0.0.1:${PORT[prometheus]}" >"$WORK/prometheus.log" 2>&1 &
PID[prometheus]=$!
pids+=("${PID[prometheus]}")
started=$SECONDS
for peer in flightdeck prometheus; do
  if ! wait_ready "http://127.0.0.1:${PORT[$peer]}/-/ready" "${PID[$peer]}"; then
    tail -n 20 "$WORK/$peer.log" >&2 || true
    die "$peer did not become ready"
  fi
done

log "warming up for ${warmup}s"
sleep $((warmup - (SECONDS - started) > 0 ? warmup - (SECONDS - started) : 0))
for peer in flightdeck prometheus; do
  up=$(query "$peer" 'count(up{job="bench"} == 1)' "$(date +%s.%N)")
  [[ ${up:-0} == "$targets" ]] || log "warning: $peer has ${up:-0} of $targets targets up after the warm-up"
done

declare -A CPU0 CPU1 STORED0 STORED1
load_samples=()
for peer in flightdeck prometheus; do STORED0[$peer]=$(stored_samples "$peer"); done
t0=$(date +%s.%N)
for peer in flightdeck prometheus; do CPU0[$peer]=$(cpu_ticks "${PID[$peer]}"); done
targets_cpu0=$(cpu_ticks "$targets_pid")
machine0=$(machine_ticks)
log "measuring for ${seconds}s"
end=$((SECONDS + seconds))
while ((SECONDS < end)); do
  load_samples+=("$(cut -d' ' -f1 /proc/loadavg)")
  sleep $((end - SECONDS < 5 ? end - SECONDS : 5))
done
t1=$(date +%s.%N)
for peer in flightdeck prometheus; do CPU1[$peer]=$(cpu_ticks "${PID[$peer]}"); done
for peer in flightdeck prometheus; do STORED1[$peer]=$(stored_samples "$peer"); done
targets_cpu1=$(cpu_ticks "$targets_pid")
machine1=$(machine_ticks)
load_samples+=("$(cut -d' ' -f1 /proc/loadavg)")
window=$(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f", b - a }')

# Scrapes begun inside the window commit shortly after it; their timestamps are within it.
sleep 5
declare -A R
range="[${seconds}s]"
expected=$((targets * seconds / step))
for peer in flightdeck prometheus; do
  R[$peer.samples]=$(query "$peer" "sum(sum_over_time(scrape_samples_scraped{job=\"bench\"}$range))" "$t1")
  R[$peer.recorded]=$(query "$peer" "sum(count_over_time(up{job=\"bench\"}$range))" "$t1")
  R[$peer.up]=$(query "$peer" "sum(sum_over_time(up{job=\"bench\"}$range))" "$t1")
  R[$peer.duration]=$(query "$peer" "avg(avg_over_time(scrape_duration_seconds{job=\"bench\"}$range))" "$t1")
  R[$peer.hwm]=$(status_kb "${PID[$peer]}" VmHWM)
  R[$peer.rss]=$(status_kb "${PID[$peer]}" VmRSS)
  R[$peer.cpu]=$((CPU1[$peer] - CPU0[$peer]))
  R[$peer.stored]=$((STORED1[$peer] - STORED0[$peer]))
done

row() {
  local peer=$1 name=$2
  awk -v name="$name" -v ticks="${R[$peer.cpu]}" -v hz="$TICKS" -v samples="${R[$peer.samples]:-0}" \
    -v window="$window" -v span="$seconds" -v expected="$expected" -v recorded="${R[$peer.recorded]:-0}" \
    -v up="${R[$peer.up]:-0}" -v duration="${R[$peer.duration]:-0}" -v hwm="${R[$peer.hwm]}" \
    -v rss="${R[$peer.rss]}" -v stored="${R[$peer.stored]}" -v ref_ticks="${R[prometheus.cpu]}" -v ref_samples="${R[prometheus.samples]:-0}" '
    BEGIN {
      cpu = ticks / hz
      per = samples > 0 ? 1e6 * cpu / samples : 0
      ref = ref_samples > 0 ? 1e6 * ref_ticks / hz / ref_samples : 0
      ratio = ref > 0 ? per / ref : 0
      missed = (expected > recorded ? expected - recorded : 0) + (recorded - up)
      printf "| %s | %.0f | %.0f | %.2f | %.1f | %.2f | %.2f | %d | %d | %d | %.1f | %.1f | %.1f |\n",
        name, samples / span, stored / window, cpu, 100 * cpu / window, per, ratio,
        expected, recorded, missed, 1000 * duration, hwm / 1024, rss / 1024 }'
}

load_stats=$(printf '%s\n' "${load_samples[@]}" |
  awk '{ s += $1; if ($1 > m) m = $1 } END { printf "mean %.2f, max %.2f over %d readings", s / NR, m, NR }')
mkdir -p "$RESULTS"
out="$RESULTS/scrape-$(date -u +%Y-%m-%dT%H%M%SZ).md"
{
  echo "## Scrape benchmark, $(date -u '+%Y-%m-%d %H:%M UTC') ($(nproc) cores, $(uname -r))"
  echo
  echo "$targets targets x $series series (body $body_bytes bytes, text 0.0.4, not compressed) every $interval," \
    "timeout ${timeout_ms} ms; window ${seconds} s after ${warmup} s from start. Prometheus:" \
    "$("$PROMETHEUS_BIN" --version 2>&1 | head -n 1 | awk '{ print $3 }'). Flightdeck: $(basename "$FLIGHTDECK_JAR")," \
    "launcher flags${FLIGHTDECK_JAVA_OPTS:+ + $FLIGHTDECK_JAVA_OPTS}."
  echo "Load average (1 min) during the window: $load_stats. Target server CPU in the window:" \
    "$(awk -v t=$((targets_cpu1 - targets_cpu0)) -v hz="$TICKS" 'BEGIN { printf "%.2f s", t / hz }')." \
    "$(awk -v a="$machine0" -v b="$machine1" -v hz="$TICKS" -v w="$window" 'BEGIN {
      split(a, x, " "); split(b, y, " ")
      printf "Whole machine: %.2f CPU s busy of %.0f (all processes), steal %.1f%%.",
        (y[1] - x[1]) / hz, (y[3] - x[3]) / hz, 100 * (y[2] - x[2]) / (y[3] - x[3]) }')"
  echo
  echo "| process | samples/s | stored samples/s | CPU s | CPU % of one core | CPU µs per sample | ratio to Prometheus | scrapes expected | scrapes recorded | missed scrapes | mean scrape ms | peak RSS MiB | RSS MiB (end) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
  row flightdeck "Flightdeck"
  row prometheus "Prometheus"
} | tee "$out"
log "written to $out"

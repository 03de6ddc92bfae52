#!/usr/bin/env bash
# Node agent cost benchmark: `flightdeck agent` collecting every second with the stub GPU library
# (collector/src/test/c/fake_nvml.c, 8 GPUs) beside the real node_exporter restricted to the
# collectors the agent reproduces (cpu, loadavg, meminfo, netdev, diskstats, filesystem), scraped
# every second, in the same run on the same host. Never part of the tests.
#
# Usage: bench/agent-bench.sh [--seconds N] [--keep]
#   --seconds N   length of the measured window (default 120; 30 for a quick run)
#   --keep        keep the work directory with the logs (its path is printed)
# Environment:
#   FLIGHTDECK_BIN      default ./flightdeck (the launcher at the repository root)
#   NODE_EXPORTER_BIN   default /usr/bin/prometheus-node-exporter
#   BENCH_PORT          first of two ports on 127.0.0.1 (default 19196)
#
# Steps: build the stub libnvidia-ml with gcc; start both; scrape both /metrics endpoints every
# second over kept-alive connections like Prometheus (bench/keepalive_scraper.py; both collect on
# each scrape, the agent because remote write is off); after a 45 s warm-up (the JIT compiler
# is still busy before that; a node agent runs for days), read utime+stime of each process from /proc/<pid>/stat at the start and end of the
# window and VmRSS every second. CPU per collection = CPU seconds in the window / collections in
# the window (the agent's flightdeck_agent_collections_total; node_exporter's successful scrapes).
# The Markdown table goes to stdout and to bench/results/agent-<date>.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
RESULTS="$ROOT/bench/results"

seconds=120
keep=false
while (($#)); do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --keep) keep=true; shift ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1 (see --help)" >&2; exit 2 ;;
  esac
done

FLIGHTDECK_BIN=${FLIGHTDECK_BIN:-$ROOT/flightdeck}
NODE_EXPORTER_BIN=${NODE_EXPORTER_BIN:-/usr/bin/prometheus-node-exporter}
BENCH_PORT=${BENCH_PORT:-19196}
AGENT_PORT=$BENCH_PORT
NE_PORT=$((BENCH_PORT + 1))
WARMUP=45
TICKS=$(getconf CLK_TCK)

log() { echo "[agent-bench] $*" >&2; }
die() { log "error: $*"; exit 1; }

[[ -x $FLIGHTDECK_BIN ]] || die "no launcher at $FLIGHTDECK_BIN"
[[ -x $NODE_EXPORTER_BIN ]] || die "no node_exporter at $NODE_EXPORTER_BIN"
command -v gcc >/dev/null || die "need gcc for the stub NVML library"
command -v curl >/dev/null || die "need curl"
command -v python3 >/dev/null || die "need python3 for the scraper"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-agent-bench.XXXXXX")
pids=()

cleanup() {
  local pid i
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do
    for ((i = 0; i < 300; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null || true
  done
  if [[ $keep == true ]]; then log "kept logs in $WORK"; else rm -rf "$WORK"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# The stub NVML with 8 GPUs, each with every field the stub knows set.
mkdir -p "$WORK/nvml"
gcc -shared -fPIC -O2 -o "$WORK/nvml/libnvidia-ml.so.1" "$ROOT/collector/src/test/c/fake_nvml.c"
{
  echo "count=8"
  echo "driver=590.48.01"
  for g in 0 1 2 3 4 5 6 7; do
    cat <<CONF
gpu$g.name=NVIDIA H100 80GB HBM3
gpu$g.uuid=GPU-$g$g$g$g$g$g$g$g-0000-0000-0000-000000000000
gpu$g.pci=00000000:0$g:00.0
gpu$g.util=87,41
gpu$g.enc=0
gpu$g.dec=0
gpu$g.mem.v2=85520809984,567279616,1048576000,83905953792
gpu$g.temp=64
gpu$g.power=512345
gpu$g.energy=123456789012
gpu$g.clock.sm=1980
gpu$g.clock.mem=2619
gpu$g.reasons=5
gpu$g.pcie.tx=1200
gpu$g.pcie.rx=3400
gpu$g.replay=2
gpu$g.ecc.0.0=7
gpu$g.ecc.1.0=0
gpu$g.remap=1,0,0,0
gpu$g.gpm=1
gpu$g.gpm.1=87.5
gpu$g.gpm.5=43.25
gpu$g.gpm.10=61
CONF
  done
} > "$WORK/nvml/fake-nvml.conf"

# The JVM the launcher execs may sit under a wrapper: follow single children down.
leaf_pid() {
  local pid=$1 child depth
  for ((depth = 0; depth < 5; depth++)); do
    child=$(pgrep -P "$pid" || true)
    [[ -n $child && $child != *$'\n'* ]] || break
    pid=$child
  done
  echo "$pid"
}

cpu_ticks() { awk '{ sub(/^.*\) /, ""); print $12 + $13 }' "/proc/$1/stat"; }
rss_kb() { awk '/^VmRSS:/ { print $2 }' "/proc/$1/status"; }
await_http() {
  local url=$1 i
  for ((i = 0; i < 1200; i++)); do
    curl -sf -o /dev/null "$url" && return 0
    sleep 0.1
  done
  die "$url did not answer; see the logs in $WORK (run with --keep)"
}

log "starting the agent on 127.0.0.1:$AGENT_PORT and node_exporter on 127.0.0.1:$NE_PORT"
"$FLIGHTDECK_BIN" agent --web.listen-address="127.0.0.1:$AGENT_PORT" --collector.interval=1s \
  --collector.nvml.library="$WORK/nvml/libnvidia-ml.so.1" > "$WORK/agent.log" 2>&1 &
pids+=($!)
"$NODE_EXPORTER_BIN" --web.listen-address="127.0.0.1:$NE_PORT" --collector.disable-defaults \
  --collector.cpu --collector.loadavg --collector.meminfo --collector.netdev \
  --collector.diskstats --collector.filesystem --no-collector.netdev.netlink \
  > "$WORK/node_exporter.log" 2>&1 &
pids+=($!)
await_http "http://127.0.0.1:$AGENT_PORT/-/ready"
await_http "http://127.0.0.1:$NE_PORT/metrics"
agent_pid=$(leaf_pid "${pids[0]}")
ne_pid=${pids[1]}

collections() {
  curl -sf "http://127.0.0.1:$AGENT_PORT/metrics" |
    awk '/^flightdeck_agent_collections_total / { print $2 }'
}

# One scrape of each per second over kept-alive connections, as Prometheus scrapes (a new
# connection per scrape would mostly measure connection set-up); counts node_exporter's successful
# scrapes. RSS is sampled every second meanwhile.
ne_scrapes=0
scrape_for() {
  python3 "$ROOT/bench/keepalive_scraper.py" "$1" "$WORK" \
    "http://127.0.0.1:$AGENT_PORT/metrics" "http://127.0.0.1:$NE_PORT/metrics" &
  local scraper=$!
  while kill -0 "$scraper" 2>/dev/null; do
    agent_rss_max=$(( $(rss_kb "$agent_pid") > agent_rss_max ? $(rss_kb "$agent_pid") : agent_rss_max ))
    ne_rss_max=$(( $(rss_kb "$ne_pid") > ne_rss_max ? $(rss_kb "$ne_pid") : ne_rss_max ))
    sleep 1
  done
  wait "$scraper" || die "the scraper failed"
  ne_scrapes=$(sed -n 2p "$WORK/scrapes")
}

agent_rss_max=0
ne_rss_max=0
log "warming up for ${WARMUP}s"
scrape_for "$WARMUP"
agent_rss_max=0
ne_rss_max=0
ne_scrapes=0
agent_cpu0=$(cpu_ticks "$agent_pid")
ne_cpu0=$(cpu_ticks "$ne_pid")
agent_n0=$(collections)
log "measuring for ${seconds}s"
scrape_for "$seconds"
agent_cpu1=$(cpu_ticks "$agent_pid")
ne_cpu1=$(cpu_ticks "$ne_pid")
agent_n1=$(collections)
agent_rss_end=$(rss_kb "$agent_pid")
ne_rss_end=$(rss_kb "$ne_pid")
agent_series=$(curl -sf "http://127.0.0.1:$AGENT_PORT/metrics" | grep -cv '^#' || true)
ne_series=$(grep -cv '^#' "$WORK/1.last" || true)

agent_n=$(awk -v a="$agent_n0" -v b="$agent_n1" 'BEGIN { printf "%d", b - a }')
row() { # name cpu_ticks collections rss_end_kb rss_max_kb series
  awk -v name="$1" -v ticks="$2" -v n="$3" -v rss="$4" -v max="$5" -v series="$6" -v hz="$TICKS" \
    -v secs="$seconds" 'BEGIN {
      cpu = ticks / hz
      printf "| %s | %d | %d | %.2f | %.1f | %.2f | %.1f | %.1f |\n", name, series, n, cpu,
        100 * cpu / secs, n ? 1000 * cpu / n : 0, rss / 1024, max / 1024 }'
}

date_tag=$(date -u +%Y-%m-%dT%H%M%SZ)
mkdir -p "$RESULTS"
out="$RESULTS/agent-$date_tag.md"
{
  echo "## Agent cost, $(date -u +%Y-%m-%d) ($(nproc) cores, $(uname -r))"
  echo
  echo "Collection every 1 s for ${seconds} s after ${WARMUP} s of warm-up; both /metrics scraped every second over kept-alive connections."
  echo "Agent: 8 stub GPUs + host collectors + filesystems. node_exporter $("$NODE_EXPORTER_BIN" --version 2>&1 | awk 'NR == 1 { print $3 }'): cpu, loadavg, meminfo, netdev, diskstats, filesystem."
  echo
  echo "| process | series | collections | CPU s | CPU % of one core | CPU ms per collection | RSS MiB (end) | RSS MiB (max) |"
  echo "|---|---:|---:|---:|---:|---:|---:|---:|"
  row "flightdeck agent" $((agent_cpu1 - agent_cpu0)) "$agent_n" "$agent_rss_end" "$agent_rss_max" "$agent_series"
  row "node_exporter" $((ne_cpu1 - ne_cpu0)) "$ne_scrapes" "$ne_rss_end" "$ne_rss_max" "$ne_series"
} | tee "$out"
log "written to $out"

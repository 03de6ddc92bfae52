#!/usr/bin/env bash
# GPU check for a machine with an NVIDIA driver: runs `flightdeck agent` against the real NVML,
# compares its readings with `nvidia-smi --query-gpu` taken at the same moment, idle and under a
# PyTorch matrix-multiply load, and prints a table, then the GPM activity ratios (Hopper and newer)
# it read at both moments. One short run (about 2 minutes).
#
# Usage: bench/gpu-check.sh [--jar PATH] [--load-seconds N]
#   --jar PATH         the built agent jar (default app/target/flightdeck.jar; build it first with
#                      ./mvnw -q -pl app -am package -DskipTests)
#   --load-seconds N   how long the matmul load runs (default 40)
# Needs: a Java 21+ runtime (JAVA_HOME, PATH, or the 48 MB jlink image that
# bench/gpu-check-runtime.sh builds into bench/gpu-check-runtime on a machine with a JDK),
# nvidia-smi, python3 with torch and CUDA. Exit code: 0 when every compared reading agrees within
# its tolerance, 1 otherwise, 2 when something it needs is missing.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
jar=$ROOT/app/target/flightdeck.jar
load_seconds=40
while (($#)); do
  case "$1" in
    --jar) jar=$2; shift 2 ;;
    --load-seconds) load_seconds=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

log() { echo "[gpu-check] $*" >&2; }
need() { command -v "$1" >/dev/null 2>&1 || { log "missing: $1"; exit 2; }; }

if [[ -x $ROOT/bench/gpu-check-runtime/bin/java ]]; then
  JAVA=$ROOT/bench/gpu-check-runtime/bin/java
elif [[ -n ${JAVA_HOME:-} ]]; then
  JAVA=$JAVA_HOME/bin/java
else
  JAVA=java
fi
need "$JAVA"
need nvidia-smi
need python3
[[ -f $jar ]] || { log "no jar at $jar; build it first"; exit 2; }
python3 -c 'import torch; assert torch.cuda.is_available()' 2>/dev/null \
  || { log "python3 with torch and CUDA is needed for the load"; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-gpu-check.XXXXXX")
PORT=${GPU_CHECK_PORT:-19596}
agent_pid=""
load_pid=""
cleanup() {
  [[ -z $load_pid ]] || kill "$load_pid" 2>/dev/null || true
  [[ -z $agent_pid ]] || kill "$agent_pid" 2>/dev/null || true
  wait 2>/dev/null || true
  rm -rf "$WORK"
}
trap cleanup EXIT

"$JAVA" -XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED -jar "$jar" \
  agent --web.listen-address="127.0.0.1:$PORT" --collector.interval=1s \
  --remote-write.queue-dir="$WORK/queue" >"$WORK/agent.log" 2>&1 &
agent_pid=$!
for ((i = 0; i < 60; i++)); do
  curl -fsS -o /dev/null "http://127.0.0.1:$PORT/metrics" 2>/dev/null && break
  kill -0 "$agent_pid" 2>/dev/null || { log "agent exited:"; cat "$WORK/agent.log" >&2; exit 1; }
  sleep 0.5
done
if grep -q 'NVML not available' "$WORK/agent.log"; then
  log "the agent found no NVML:"; grep 'NVML not available' "$WORK/agent.log" >&2; exit 1
fi
sleep 3 # a few collections at 1 s

# One reading of both sides: lines "gpu metric agent smi".
read_both() {
  local metrics smi
  metrics=$(curl -fsS "http://127.0.0.1:$PORT/metrics")
  smi=$(nvidia-smi --query-gpu=index,utilization.gpu,memory.used,power.draw,clocks.sm,temperature.gpu \
    --format=csv,noheader,nounits)
  python3 - "$metrics" "$smi" <<'PY'
import re, sys
metrics, smi = sys.argv[1], sys.argv[2]
names = {"util": "DCGM_FI_DEV_GPU_UTIL", "fb_used": "DCGM_FI_DEV_FB_USED",
         "power": "DCGM_FI_DEV_POWER_USAGE", "sm_clock": "DCGM_FI_DEV_SM_CLOCK",
         "temp": "DCGM_FI_DEV_GPU_TEMP"}
agent = {}
for line in metrics.splitlines():
    m = re.match(r'(\w+)\{([^}]*)\} (\S+)', line)
    if not m or m.group(1) not in names.values():
        continue
    gpu = re.search(r'gpu="(\d+)"', m.group(2))
    if gpu:
        agent[(gpu.group(1), m.group(1))] = float(m.group(3))
for row in smi.splitlines():
    f = [x.strip() for x in row.split(",")]
    gpu, values = f[0], f[1:]
    for key, value in zip(["util", "fb_used", "power", "sm_clock", "temp"], values):
        a = agent.get((gpu, names[key]))
        print(gpu, key, "n/a" if a is None else a, value)
PY
}

# Agrees within tolerance: utilisation in points, memory and clocks 5%, power 15%, temperature 3 C.
compare() {
  awk -v phase="$1" '
    function abs(x) { return x < 0 ? -x : x }
    {
      gpu = $1; key = $2; a = $3; s = $4; ok = "ok"
      if (a == "n/a" || s ~ /N\/A|Not/) ok = "missing"
      else if (key == "util" && abs(a - s) > 10) ok = "DIFF"
      else if ((key == "fb_used" || key == "sm_clock") && abs(a - s) > 0.05 * (s > 1 ? s : 1) + 1) ok = "DIFF"
      else if (key == "power" && abs(a - s) > 0.15 * (s > 1 ? s : 1) + 2) ok = "DIFF"
      else if (key == "temp" && abs(a - s) > 3) ok = "DIFF"
      printf "| %s | %s | %s | %s | %s | %s |\n", phase, gpu, key, a, s, ok
      if (ok != "ok") bad = 1
    }
    END { exit bad }'
}

# The agent's GPM activity ratios (Hopper and newer), as rows "| phase | gpu | metric | value |";
# nvidia-smi has no equivalent, so they are printed, not compared.
gpm_rows() {
  curl -fsS "http://127.0.0.1:$PORT/metrics" | awk -v phase="$1" '
    /^DCGM_FI_PROF_(GR_ENGINE|PIPE_TENSOR|DRAM)_ACTIVE\{/ {
      name = substr($0, 1, index($0, "{") - 1)
      match($0, /gpu="[0-9]+"/)
      printf "| %s | %s | %s | %s |\n", phase, substr($0, RSTART + 5, RLENGTH - 6), name, $NF
    }'
}

echo "| phase | gpu | reading | agent | nvidia-smi | |"
echo "|---|---:|---|---:|---:|---|"
status=0
read_both | compare idle || status=1
gpm=$(gpm_rows idle || true)

python3 - "$load_seconds" <<'PY' >"$WORK/load.log" 2>&1 &
import sys, time, torch
end = time.time() + float(sys.argv[1])
a = [torch.randn(8192, 8192, device=f"cuda:{i}", dtype=torch.bfloat16) for i in range(torch.cuda.device_count())]
while time.time() < end:
    for x in a:
        x @ x
    torch.cuda.synchronize()
PY
load_pid=$!
sleep $((load_seconds / 2))
read_both | compare load || status=1
gpm+=$'\n'$(gpm_rows load || true)
wait "$load_pid" || true
load_pid=""

echo
echo "GPM activity ratios seen by the agent (no nvidia-smi equivalent):"
if [[ -n ${gpm//$'\n'/} ]]; then
  echo "| phase | gpu | metric | agent |"
  echo "|---|---:|---|---:|"
  grep -v '^$' <<<"$gpm"
else
  echo "none: GPM needs a Hopper or newer GPU and a driver that has it"
fi

echo
echo "XID and health series seen by the agent:"
curl -fsS "http://127.0.0.1:$PORT/metrics" | grep -E '^(DCGM_FI_DEV_XID_ERRORS|flightdeck_gpu_healthy)' || true
exit $status

#!/usr/bin/env bash
# Coverage-guided fuzzing of the parsers that take outside bytes, with Jazzer: ./run-tests --fuzz
# [target...] runs each fuzz target (all, or those named) for FUZZ_SECONDS (default 30) in its own
# Maven/Surefire invocation, since Jazzer fuzzes one target per JVM, then prints per target the
# executions, the inputs it added to the generated corpus and its findings. Exits non-zero if any
# target found something: the crashing input is then in the target's committed inputs folder
# (src/test/resources/<package>/<Class>Inputs/<method>/), where the normal test run replays it.
#
# The modules are built and installed first (with the modules they depend on) unless
# FUZZ_NO_BUILD=1, for a tree whose modules are already installed. docs/testing.md has the details.
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

seconds="${FUZZ_SECONDS:-30}"
[[ "$seconds" =~ ^[1-9][0-9]*$ ]] || { echo "fuzz: FUZZ_SECONDS must be a positive whole number of seconds, not \"$seconds\"" >&2; exit 2; }

# name module class method
targets=(
  "promql promql io.flightdeck.promql.parser.PromQLJazzerFuzzTest parsePrintParse"
  "remote-write-protobuf remote io.flightdeck.remote.RemoteWriteJazzerFuzzTest protobufBody"
  "remote-write-snappy remote io.flightdeck.remote.RemoteWriteJazzerFuzzTest snappyBody"
  "text-exposition exposition io.flightdeck.exposition.ExpositionJazzerFuzzTest prometheusText"
  "openmetrics exposition io.flightdeck.exposition.ExpositionJazzerFuzzTest openMetrics"
  "config config io.flightdeck.config.ConfigJazzerFuzzTest loadConfig"
  "rule-file rules io.flightdeck.rules.RuleFileJazzerFuzzTest parseRuleFile"
  "tfrecord tensorboard io.flightdeck.tensorboard.EventFileJazzerFuzzTest readEventFile"
  "wal-segment tsdb io.flightdeck.tsdb.wal.WalJazzerFuzzTest walSegment"
  "block-index tsdb io.flightdeck.tsdb.block.BlockJazzerFuzzTest blockIndex"
  "block-chunks tsdb io.flightdeck.tsdb.block.BlockJazzerFuzzTest blockChunks"
  "dashboard dashboards io.flightdeck.dashboards.DashboardJazzerFuzzTest importDocument"
)

selected=()
for target in "${targets[@]}"; do
  read -r name _ <<<"$target"
  if (($# == 0)); then
    selected+=("$target")
  else
    for wanted in "$@"; do [[ "$wanted" == "$name" ]] && selected+=("$target"); done
  fi
done
if ((${#selected[@]} == 0)); then
  echo "fuzz: no target named $*; the targets are:" >&2
  for target in "${targets[@]}"; do read -r name _ <<<"$target"; echo "  $name" >&2; done
  exit 2
fi

if [[ "${FUZZ_NO_BUILD:-}" != 1 ]]; then
  modules="$(for target in "${selected[@]}"; do read -r _ module _ <<<"$target"; echo "$module"; done | sort -u | paste -sd,)"
  echo "fuzz: building $modules"
  ./mvnw -B -ntp -q install -DskipTests -pl "$modules" -am || exit 1
fi

count_files() { if [[ -d "$1" ]]; then find "$1" -maxdepth 1 -type f | wc -l; else echo 0; fi; }
# Jazzer names what it writes there crash-*, timeout-*, slow-unit-* or leak-* (libFuzzer's names).
findings_in() { if [[ -d "$1" ]]; then find "$1" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'timeout-*' -o -name 'slow-unit-*' -o -name 'leak-*' -o -name 'oom-*' \) | sort; fi; }

status=0
summary=()
for target in "${selected[@]}"; do
  read -r name module class method <<<"$target"
  simple="${class##*.}"
  corpus="$module/.cifuzz-corpus/$class/$method"
  inputs="$module/src/test/resources/${class%.*}"
  inputs="${inputs//.//}/${simple}Inputs/$method"
  log="$module/target/fuzz-$name.log"
  mkdir -p "$module/target"
  corpus_before="$(count_files "$corpus")"
  findings_before="$(findings_in "$inputs")"
  echo "fuzz: $name ($simple#$method) for ${seconds}s, log in $log"
  # jazzer.internal.arg.* are appended to libFuzzer's arguments after the @FuzzTest's own, so
  # they win: the budget and a 10 s limit per input (a hang is a finding). The small heap makes
  # an allocation sized from a few KiB of input fail as an OutOfMemoryError, also a finding.
  JAZZER_FUZZ=1 ./mvnw -B -ntp test -pl "$module" \
    -Dtest="$simple#$method" -Dsurefire.failIfNoSpecifiedTests=false \
    -DargLine="-Xmx512m -XX:+EnableDynamicAgentLoading" \
    -Djazzer.hooks=true -Djazzer.internal.arg.0=fuzz \
    -Djazzer.internal.arg.1="-max_total_time=$seconds" \
    -Djazzer.internal.arg.2=-timeout=10 >"$log" 2>&1
  rc=$?
  executions="$(sed -n 's/^Done \([0-9]*\) runs.*/\1/p' "$log" | tail -n1)"
  [[ -n "$executions" ]] || executions="$(sed -n 's/^#\([0-9]*\).*/\1/p' "$log" | tail -n1)"
  added=$(($(count_files "$corpus") - corpus_before))
  new_findings="$(comm -13 <(echo "$findings_before") <(findings_in "$inputs") | sed '/^$/d')"
  found="$(printf '%s' "$new_findings" | grep -c . || true)"
  if ((rc != 0 && found == 0)); then
    # A failure Jazzer wrote no input for (a broken build, a failing seed): still a finding.
    found=1
    new_findings="the run failed (exit $rc) without writing an input: see $log"
  fi
  line="$(printf '%-22s executions %9s   new corpus inputs %5s   findings %s' "$name" "${executions:-?}" "$added" "$found")"
  echo "$line"
  summary+=("$line")
  if ((found > 0)); then
    status=1
    while IFS= read -r finding; do summary+=("    $finding"); echo "    $finding"; done <<<"$new_findings"
    grep -m1 -A3 'FuzzTestFindingException\|Caused by' "$log" | sed 's/^/    /'
  fi
done

echo
echo "fuzz: ${seconds}s per target"
printf '%s\n' "${summary[@]}"
exit "$status"

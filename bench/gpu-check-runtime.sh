#!/usr/bin/env bash
# Builds the small Java runtime that bench/gpu-check.sh takes along to a GPU machine without Java:
# a jlink image of just the modules the agent uses, under 60 MB, in bench/gpu-check-runtime
# (gpu-check.sh picks it up from there). Copy the repository with that folder to the GPU machine.
#
# Usage: bench/gpu-check-runtime.sh [--output DIR]
#   --output DIR   where the image goes (default bench/gpu-check-runtime; replaced if present)
# Needs a JDK of at least 21 with jlink (JAVA_HOME, PATH or /usr/lib/jvm). Prints the image's
# size; exit code 1 when it is over 60 MB.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
output=$ROOT/bench/gpu-check-runtime
while (($#)); do
  case "$1" in
    --output) output=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
# shellcheck source=../scripts/find-java.sh
source "$ROOT/scripts/find-java.sh"
jdk=$(find_java_home)
[[ -x $jdk/bin/jlink ]] || { echo "no jlink in $jdk (a JRE, not a JDK)" >&2; exit 2; }

# What `jdeps --print-module-deps` finds in the agent jar, less java.desktop, java.rmi and
# java.security.jgss: only code paths the agent never takes use them, and java.desktop alone
# would take the image past 60 MB. java.xml is named for the nvidia-smi XML reader.
modules=java.base,java.instrument,java.management,java.naming,java.net.http,java.sql,java.xml,jdk.httpserver,jdk.management,jdk.net,jdk.unsupported

rm -rf "$output"
"$jdk/bin/jlink" --add-modules "$modules" --strip-debug --no-header-files --no-man-pages \
  --compress=zip-9 --output "$output"
size_mb=$(( $(du -sk "$output" | cut -f1) / 1024 ))
echo "runtime: $output, ${size_mb} MB ($("$output/bin/java" -version 2>&1 | head -n1))"
if ((size_mb >= 60)); then
  echo "the runtime is over 60 MB" >&2
  exit 1
fi

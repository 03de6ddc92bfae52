# Sourced by ./flightdeck and ./run-tests: find_java prints the path of a java binary of at
# least version 21, looking at JAVA_HOME, then PATH, then the system's JVM folder (newest first).

java_major() {
  # A JDK's release file names its version: reading it saves starting a JVM, about 0.1 s of every
  # launch. A java without one (a wrapper, say) is asked.
  local release
  release="$(dirname "$(readlink -f "$1")")/../release"
  if [[ -r "$release" ]] && grep -q '^JAVA_VERSION="[0-9]' "$release"; then
    sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$release" | head -n1
    return 0
  fi
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}

find_java() {
  local candidates=()
  [[ -n "${JAVA_HOME:-}" ]] && candidates+=("$JAVA_HOME/bin/java")
  command -v java >/dev/null 2>&1 && candidates+=("$(command -v java)")
  local dir
  for dir in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    candidates+=("${dir%/}/bin/java")
  done
  local candidate major
  for candidate in "${candidates[@]}"; do
    [[ -x "$candidate" ]] || continue
    major="$(java_major "$candidate")"
    if [[ -n "$major" && "$major" -ge 21 ]]; then
      echo "$candidate"
      return 0
    fi
  done
  echo "no Java 21 or newer found (looked at JAVA_HOME, PATH and /usr/lib/jvm);" \
    "install one, e.g. 'apt-get install openjdk-21-jdk-headless', or set JAVA_HOME" >&2
  return 1
}

# The JDK home of find_java's binary.
find_java_home() {
  local java
  java="$(find_java)" || return 1
  (cd "$(dirname "$java")/.." && pwd)
}

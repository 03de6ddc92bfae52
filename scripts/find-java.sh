# Sourced by ./flightdeck and ./run-tests: find_java prints the path of a java binary of at
# least version 21, looking at JAVA_HOME, then PATH, then the system's JVM folder (newest first).
# Every launch goes through here, so it runs on bash builtins where it can: on a small VM each
# process it starts costs several milliseconds.

java_major() {
  # A JDK's release file names its version: reading it saves starting a JVM, about 0.1 s of every
  # launch. A java without one (a wrapper, say) is asked.
  local java="$1" line
  [[ -L "$java" ]] && java="$(readlink -f "$java")"
  local release="${java%/*}/../release"
  if [[ -r "$release" ]]; then
    while IFS= read -r line; do
      if [[ "$line" =~ ^JAVA_VERSION=\"([0-9]+) ]]; then
        echo "${BASH_REMATCH[1]}"
        return 0
      fi
    done <"$release"
  fi
  "$1" -XshowSettings:properties -version 2>&1 |
    sed -n 's/^ *java\.specification\.version = \([0-9]*\).*/\1/p' | head -n1
}

# Prints $1 and returns 0 if it is a java of at least version 21.
java_at_least_21() {
  [[ -x "$1" ]] || return 1
  local major
  major="$(java_major "$1")"
  [[ -n "$major" && "$major" -ge 21 ]] || return 1
  echo "$1"
}

find_java() {
  [[ -n "${JAVA_HOME:-}" ]] && java_at_least_21 "$JAVA_HOME/bin/java" && return 0
  command -v java >/dev/null 2>&1 && java_at_least_21 "$(command -v java)" && return 0
  local dir
  for dir in $(ls -d /usr/lib/jvm/*/ 2>/dev/null | sort -rV); do
    java_at_least_21 "${dir%/}/bin/java" && return 0
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

# Sourced by ./flightdeck: class_archive JAVA JAR TRAINING_LOGDIR sets CLASS_ARCHIVE to a class-data
# sharing archive of the jar's classes for that JDK, making it first when it is missing or older
# than the jar or the JDK (once per build: a few seconds), or leaves CLASS_ARCHIVE empty when none
# can be made. With the archive the JVM maps those classes parsed and verified instead of loading
# them from the jar: a 1 GB TensorBoard import took about 0.3 s less CPU and 0.15 s less wall time,
# `--version` 0.37 instead of 0.43 s (bench/README.md).
# The archive is static, dumped from the list of classes two training runs loaded (app/src/cds):
# an archive the JVM dumps at a run's exit (-XX:ArchiveClassesAtExit) crashed Temurin 25.0.3. It is
# written beside the jar and moved into place whole, and the JVM maps it as it maps the JDK's own
# default archive, checking its header, the JVM that made it and the jar's size and time.

class_archive() {
  local java="$1" jar="$2" training="$3"
  CLASS_ARCHIVE=""
  [[ -L "$java" ]] && java="$(readlink -f "$java")"
  local home="${java%/bin/java}"
  local archive="${jar%.jar}-${home##*/}.jsa"
  if [[ -f "$archive" && "$archive" -nt "$jar" ]] &&
    [[ ! -f "$home/release" || "$archive" -nt "$home/release" ]]; then
    CLASS_ARCHIVE="$archive"
    return 0
  fi
  # A failed attempt is not repeated at every start, only after the next build.
  [[ -f "$archive.failed" && "$archive.failed" -nt "$jar" ]] && return 1
  [[ -w "${jar%/*}" && -d "$training" ]] || return 1
  echo "flightdeck: archiving the jar's classes for a faster start (once per build)..." >&2
  local work
  work="$(mktemp -d "${TMPDIR:-/tmp}/flightdeck-class-archive.XXXXXX")" || return 1
  local flags=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC --enable-native-access=ALL-UNNAMED) why=""
  if ! "$java" "${flags[@]}" -XX:DumpLoadedClassList="$work/help.classlist" -jar "$jar" --help \
    >"$work/log" 2>&1; then
    why="the training run of --help failed"
  elif ! "$java" "${flags[@]}" -XX:DumpLoadedClassList="$work/import.classlist" -jar "$jar" \
    import tensorboard "$training" --storage.tsdb.path="$work/data" >"$work/log" 2>&1; then
    why="the training import of $training failed"
  elif ! merge_class_lists "$work/import.classlist" "$work/help.classlist" >"$work/all.classlist" ||
    ! "$java" "${flags[@]}" -Xshare:dump -XX:SharedClassListFile="$work/all.classlist" \
      -XX:SharedArchiveFile="$archive.$$.tmp" -cp "$jar" >"$work/log" 2>&1; then
    why="dumping the archive failed"
  elif ! mv -f "$archive.$$.tmp" "$archive"; then
    why="it could not be moved to $archive"
  fi
  if [[ -z "$why" ]]; then
    rm -rf "$work"
    CLASS_ARCHIVE="$archive"
    return 0
  fi
  echo "flightdeck: no class archive, so starts take longer: $why; the last lines it printed:" >&2
  tail -n 5 "$work/log" >&2 2>/dev/null
  rm -rf "$work" "$archive.$$.tmp"
  touch "$archive.failed"
  return 1
}

# Prints the first class list followed by the classes of the second that it lacks, numbered on
# from the first's highest id (each list numbers its classes from 0, so lists cannot simply be
# joined), and the second's lambda and method-handle lines.
merge_class_lists() {
  awk 'FNR == NR { if ($2 == "id:") { seen[$1] = 1; if ($3 > max) max = $3 } print; next }
    /^#/ { next }
    $2 == "id:" { if (NF == 3 && !($1 in seen)) { seen[$1] = 1; print $1, "id:", ++max } next }
    { print }' "$1" "$2"
}

# Sourced by the bench scripts that run one Flightdeck server: start_flightdeck starts it on
# $URL (127.0.0.1:$BENCH_PORT) with the heap $1, any further arguments as server flags, and data
# under $WORK, and waits until it is ready; stop_flightdeck (the scripts' EXIT trap calls it) stops it by its PID. Needs ROOT, WORK,
# URL, BENCH_PORT and the functions log and die.
FLIGHTDECK_BIN=${FLIGHTDECK_BIN:-$ROOT/flightdeck}
server_pid=""

start_flightdeck() {
  local heap=$1
  shift
  log "starting flightdeck with -Xmx$heap $* on $URL"
  FLIGHTDECK_JAVA_OPTS="-Xmx$heap" "$FLIGHTDECK_BIN" server --web.listen-address="127.0.0.1:$BENCH_PORT" \
    --storage.tsdb.path="$WORK/data" --collector.enable=false "$@" >"$WORK/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq 1 120); do
    curl -fsS --max-time 2 "$URL/-/ready" >/dev/null 2>&1 && return 0
    kill -0 "$server_pid" 2>/dev/null || { tail -n 20 "$WORK/server.log" >&2; die "the server exited"; }
    sleep 1
  done
  die "the server did not become ready in 120 s"
}

stop_flightdeck() {
  if [[ -n $server_pid ]] && kill -0 "$server_pid" 2>/dev/null; then
    kill "$server_pid"
    wait "$server_pid" 2>/dev/null || true
  fi
}

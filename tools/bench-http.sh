#!/usr/bin/env bash
# Load test of `taku serve` (bcdice-api v2) with wrk, on loopback.
#
# Builds the release binary, starts the server on a free port, waits for /healthz, then
# runs wrk against the roll endpoint and against /v2/version (the floor: routing, HTTP
# and sockets with no dice), prints requests/s, p50 and p99 for each, and stops the
# server (also on failure or Ctrl-C).
#
# Environment (all optional):
#   DURATION     wrk duration per URL (default 10s)
#   THREADS      wrk threads (default 2)
#   CONNECTIONS  wrk connections (default 32)
#   COMMAND      the dice command, url-encoded (default 2D6%2B4%3E%3D10, i.e. 2D6+4>=10)
#   SYSTEM       the game system id (default DiceBot); one only the reference engine has
#                (Cthulhu7th) needs BCDICE_JS
#   BCDICE_JS    a directory holding npm bcdice (the server's --bcdice-js), e.g.
#                tools/bcdice-oracle after tools/bcdice-js.sh
#   BCDICE_WORKERS  the server's --bcdice-workers (default: its default)
#   SERVER_CPUS  taskset CPU list for the server, e.g. 0 (default: no pinning)
#   WRK_CPUS     taskset CPU list for wrk, e.g. 1 (default: no pinning)
#   WARMUP       wrk warm-up duration before each measured run (default 2s; 0 skips it)
#   TAKU_BIN     use this binary instead of building one
#   LOG          the server's --log: text (default), json or off
#   RATE_LIMIT   the server's --rate-limit (default 10^9 a second: on, never reached)
#
# Needs wrk (Debian: apt-get install -y wrk) and curl. The server's own CPU time per
# request (user + system, from /proc) is printed too: on a machine shared with the load
# generator and other work it moves less than requests/s does.
set -euo pipefail

cd "$(dirname "$0")/.."

DURATION=${DURATION:-10s}
THREADS=${THREADS:-2}
CONNECTIONS=${CONNECTIONS:-32}
COMMAND=${COMMAND:-2D6%2B4%3E%3D10}
SYSTEM=${SYSTEM:-DiceBot}
SERVER_CPUS=${SERVER_CPUS:-}
WRK_CPUS=${WRK_CPUS:-}
WARMUP=${WARMUP:-2s}

for tool in wrk curl; do
    command -v "$tool" >/dev/null || {
        echo "bench-http: $tool not found (Debian: apt-get install -y $tool)" >&2
        exit 1
    }
done

if [[ -n ${TAKU_BIN:-} ]]; then
    bin=$TAKU_BIN
else
    cargo build --release --locked -p taku-cli >&2
    bin="${CARGO_TARGET_DIR:-target}/release/taku"
fi

work=$(mktemp -d)
server_pid=
wrk_pid=
cleanup() {
    local pid
    for pid in $wrk_pid $server_pid; do
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null || true
            wait "$pid" 2>/dev/null || true
        fi
    done
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

wrk_cmd=(wrk -t"$THREADS" -c"$CONNECTIONS")
[[ -n $WRK_CPUS ]] && wrk_cmd=(taskset -c "$WRK_CPUS" "${wrk_cmd[@]}")
wrk_run() { # wrk_run OUTPUT WRK-ARGS...: in the background and waited for, so that a
    # signal to this script stops wrk and the server at once
    local out=$1
    shift
    "${wrk_cmd[@]}" "$@" >"$out" &
    wrk_pid=$!
    wait "$wrk_pid"
    wrk_pid=
}

# As deployed: request logs on (to a file) and the rate limiter on, with a limit no
# benchmark reaches, so both costs are in the figures. LOG=off measures without logs.
server_cmd=("$bin" serve --bind 127.0.0.1:0 --db "$work/taku.db"
    --rate-limit "${RATE_LIMIT:-1000000000}" --log "${LOG:-text}")
# The engine's throughput from one client: each client's share of it (A2-4) off.
[[ -n ${BCDICE_JS:-} ]] && server_cmd+=(--bcdice-js "$BCDICE_JS" --reference-share false)
[[ -n ${BCDICE_WORKERS:-} ]] && server_cmd+=(--bcdice-workers "$BCDICE_WORKERS")
[[ -n $SERVER_CPUS ]] && server_cmd=(taskset -c "$SERVER_CPUS" "${server_cmd[@]}")
# Started directly (not through a function) so that $! is the server's own pid.
"${server_cmd[@]}" >"$work/server.out" 2>"$work/server.err" &
server_pid=$!

base=
for _ in $(seq 100); do
    base=$(grep -o 'http://[0-9.:]*' "$work/server.out" || true)
    [[ -n $base ]] && break
    kill -0 "$server_pid" 2>/dev/null || {
        cat "$work/server.err" >&2
        exit 1
    }
    sleep 0.1
done
[[ -n $base ]] || {
    echo "bench-http: the server printed no address" >&2
    exit 1
}
for _ in $(seq 100); do
    curl -fsS "$base/healthz" >/dev/null 2>&1 && break
    sleep 0.1
done
curl -fsS "$base/healthz" >/dev/null

roll_url="$base/v2/game_system/$SYSTEM/roll?command=$COMMAND"
sample=$(curl -sS "$roll_url")
[[ $sample == '{"ok":true,'* ]] || {
    echo "bench-http: the roll did not succeed: $sample" >&2
    exit 1
}

cpu_ticks() { # user + system clock ticks of the server so far
    awk '{ print $14 + $15 }' "/proc/$server_pid/stat"
}
ticks_per_s=$(getconf CLK_TCK)

echo "taku: $bin (pid $server_pid${SERVER_CPUS:+, CPUs $SERVER_CPUS}) on $base"
echo "wrk -t$THREADS -c$CONNECTIONS -d$DURATION --latency${WRK_CPUS:+ (CPUs $WRK_CPUS)}"
echo "sample: $sample"
echo

results=()
run() { # run NAME URL
    local name=$1 url=$2 out=$work/wrk-$1.txt
    if [[ $WARMUP != 0 ]]; then
        wrk_run /dev/null -d"$WARMUP" "$url"
    fi
    local before after
    before=$(cpu_ticks)
    wrk_run "$out" -d"$DURATION" --latency "$url"
    after=$(cpu_ticks)
    cat "$out"
    if grep -Eq 'Non-2xx|Socket errors' "$out"; then
        echo "bench-http: errors during the $name run (see above)" >&2
        exit 1
    fi
    local rps p50 p99 requests cpu_us
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$out")
    p50=$(awk '$1 == "50%" { print $2 }' "$out")
    p99=$(awk '$1 == "99%" { print $2 }' "$out")
    requests=$(awk '/requests in/ { print $1 }' "$out")
    cpu_us=$(awk -v t=$((after - before)) -v hz="$ticks_per_s" -v n="$requests" \
        'BEGIN { printf "%.1f", t / hz * 1e6 / n }')
    results+=("$(printf '%-8s %12s %10s %10s %14s' "$name" "$rps" "$p50" "$p99" "$cpu_us")")
    echo
}

run roll "$roll_url"
run version "$base/v2/version"

printf '%-8s %12s %10s %10s %14s\n' endpoint 'req/s' p50 p99 'server CPU µs/req'
printf '%s\n' "${results[@]}"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

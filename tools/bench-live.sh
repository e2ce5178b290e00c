#!/usr/bin/env bash
# Live-update latency and memory of `taku serve` (BENCHMARKS.md, "Server: live updates
# and memory"): builds release, starts a server on a temporary SQLite database for each
# part, runs crates/server/examples/loadgen.rs against it, and stops the server on exit.
#
#   tools/bench-live.sh                 # both parts
#   tools/bench-live.sh live [ARGS…]    # live only, extra arguments to `loadgen live`
#   tools/bench-live.sh memory [ARGS…]  # memory only, extra arguments to `loadgen memory`
#   TAKU=/path/to/taku tools/bench-live.sh …  # against another build of the server
#
# Server and generator share the machine's cores; the figures include both.
set -euo pipefail

cd "$(dirname "$0")/.."
target="${CARGO_TARGET_DIR:-target}"
part="${1:-all}"
[ $# -gt 0 ] && shift

# 1,000 sockets on each side of loopback, plus the database and the HTTP connections.
need=8192
if [ "$(ulimit -n)" != unlimited ] && [ "$(ulimit -n)" -lt "$need" ]; then
    hard="$(ulimit -Hn)"
    if [ "$hard" = unlimited ] || [ "$hard" -ge "$need" ]; then
        ulimit -n "$need"
    else
        ulimit -n "$hard"
        echo "warning: open files limited to $hard (hard limit); 1,000 sockets need about 2,100" >&2
    fi
fi
echo "open files limit: $(ulimit -n)"

cargo build --release --locked -p taku-cli --bin taku
cargo build --release --locked -p taku-server --example loadgen
taku="${TAKU:-$target/release/taku}"  # TAKU=path benches another build
loadgen="$target/release/examples/loadgen"

work="$(mktemp -d)"
server_pid=""
stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}
cleanup() {
    stop_server
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Starts a fresh server on database $1; sets $server_pid and $addr.
start_server() {
    local out="$work/serve.out"
    : >"$out"
    "$taku" serve --bind 127.0.0.1:0 --db "$1" --rate-limit 0 --lines-per-minute 0 --line-bytes-per-minute 0 --log off >"$out" 2>"$work/serve.err" &
    server_pid=$!
    for _ in $(seq 1 100); do
        if grep -q '^taku serving on http://' "$out"; then
            break
        fi
        sleep 0.1
    done
    addr="$(sed -n 's|^taku serving on http://\([^ ]*\).*|\1|p' "$out" | head -n1)"
    if [ -z "$addr" ]; then
        echo "taku serve did not start:" >&2
        cat "$work/serve.err" >&2
        exit 1
    fi
    echo "$taku serve (pid $server_pid) on $addr, database $1"
}

echo "commit $(git rev-parse --short HEAD)$(git diff --quiet HEAD -- crates tools || echo ' (with local changes)'), $(nproc) cores, $(date -u +%FT%TZ)"

if [ "$part" = all ] || [ "$part" = live ]; then
    echo
    echo "== (a) live updates: one table, 1,000 members with a WebSocket each =="
    start_server "$work/live.db"
    "$loadgen" live --addr "$addr" --pid "$server_pid" "$@"
    echo "server: VmHWM $(awk '/VmHWM/ {print $2, $3}' "/proc/$server_pid/status")"
    stop_server
fi

if [ "$part" = all ] || [ "$part" = memory ]; then
    echo
    echo "== (b) memory: 1,000 open tables of 3 members and 20 lines =="
    start_server "$work/memory.db"
    sleep 0.5
    "$loadgen" memory --addr "$addr" --pid "$server_pid" --sockets "$@"
    echo "database file: $(du -k "$work/memory.db" | cut -f1) KiB"
    stop_server
fi

#!/usr/bin/env bash
# Starts a throwaway PostgreSQL server on loopback for the test suite and exports its URL
# as TAKU_TEST_PG; stops it and deletes its data when the calling shell exits.
# Sourced by tools/test-all.sh. If TAKU_TEST_PG is already set, that server is used as is.
# Installs Debian's postgresql package when no server binaries are found.

taku_pg_start() {
    if [[ -n "${TAKU_TEST_PG:-}" ]]; then
        echo "== PostgreSQL: using TAKU_TEST_PG from the environment"
        return
    fi
    local bindir
    bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    if [[ -z "$bindir" || ! -x "$bindir/initdb" ]]; then
        echo "== PostgreSQL: installing Debian's postgresql package"
        local sudo=""
        [[ $(id -u) -eq 0 ]] || sudo="sudo"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get install -y -q postgresql >/dev/null ||
            { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q postgresql >/dev/null; }
        bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
        [[ -x "$bindir/initdb" ]] || { echo "cannot install PostgreSQL; set TAKU_TEST_PG to a server URL" >&2; return 1; }
    fi
    TAKU_PG_DIR=$(mktemp -d /tmp/taku-pg.XXXXXX)
    # initdb refuses to run as root: run the server as the package's postgres user.
    local as=()
    if [[ $(id -u) -eq 0 ]]; then
        id postgres >/dev/null 2>&1 || useradd --system --home-dir /var/lib/postgresql postgres
        chown postgres "$TAKU_PG_DIR"
        as=(runuser -u postgres --)
    fi
    TAKU_PG_RUN=("${as[@]}")
    local port
    port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
    "${as[@]}" "$bindir/initdb" -D "$TAKU_PG_DIR/data" -U taku -A trust -E UTF8 --no-locale >"$TAKU_PG_DIR/initdb.log" 2>&1 ||
        { cat "$TAKU_PG_DIR/initdb.log" >&2; return 1; }
    "${as[@]}" "$bindir/pg_ctl" -D "$TAKU_PG_DIR/data" -l "$TAKU_PG_DIR/server.log" -w \
        -o "-p $port -k $TAKU_PG_DIR -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null ||
        { cat "$TAKU_PG_DIR/server.log" >&2; return 1; }
    TAKU_PG_CTL="$bindir/pg_ctl"
    trap taku_pg_stop EXIT
    "$bindir/createdb" -h 127.0.0.1 -p "$port" -U taku taku
    export TAKU_TEST_PG="postgres://taku@127.0.0.1:$port/taku"
    echo "== PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port (data in $TAKU_PG_DIR)"
}

taku_pg_stop() {
    if [[ -n "${TAKU_PG_DIR:-}" ]]; then
        "${TAKU_PG_RUN[@]}" "$TAKU_PG_CTL" -D "$TAKU_PG_DIR/data" -m fast -w stop >/dev/null 2>&1 || true
        rm -rf "$TAKU_PG_DIR"
    fi
}

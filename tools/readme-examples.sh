#!/usr/bin/env bash
# Runs every shell example in README.md as a newcomer would type them on a fresh clone,
# and fails, naming the README line, on the first that does not work.
#
# The ```sh blocks run in order as one shell session (variables carry from block to
# block), from a scratch folder holding links to the checkout's files (so
# `examples/deck.txt` resolves, `./taku.db` starts empty and what the examples write stays
# out of the checkout), with a fresh build of `taku` first on PATH and stdin empty.
# - A block is skipped when the line above its fence is `<!-- not run: REASON -->`.
# - Blank and comment lines are skipped; every other line (with its `\` continuations) is
#   one command. It must exit with status 0, or N where its comment says "exit status N",
#   and must not panic.
# - `localhost:8080` is replaced by the address of a `taku serve` this script starts on a
#   free loopback port (with its own empty database).
#
# Usage: tools/readme-examples.sh   (from anywhere; needs the Rust toolchain; installs
# Debian's curl and jq packages when missing, as the README's server examples use them)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$(pwd)
TARGET=${CARGO_TARGET_DIR:-target}
mkdir -p "$TARGET"
TARGET=$(cd "$TARGET" && pwd)

for tool in curl jq; do
    if ! command -v "$tool" >/dev/null; then
        echo "== installing Debian's $tool package"
        sudo=""
        [[ $(id -u) -eq 0 ]] || sudo="sudo"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get install -y -q "$tool" >/dev/null ||
            { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q "$tool" >/dev/null; }
    fi
done

echo "== cargo build -p taku-cli"
cargo build --quiet --locked -p taku-cli
TAKU="$TARGET/debug/taku"
START=$SECONDS

WORK=$(mktemp -d /tmp/taku-readme.XXXXXX)
SERVER_PID=
cleanup() {
    if [[ -n "$SERVER_PID" ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT
fail() {
    echo "readme-examples: $*" >&2
    exit 1
}

# The checkout's tracked top-level entries (everything but .git outside a git checkout).
mkdir "$WORK/checkout" "$WORK/state"
{ git ls-files 2>/dev/null || ls -A | grep -vx '.git'; } | cut -d/ -f1 | sort -u |
    while read -r entry; do ln -s "$ROOT/$entry" "$WORK/checkout/$entry"; done
[[ -e "$WORK/checkout/README.md" ]] || fail "no README.md linked from $ROOT"

"$TAKU" serve --bind 127.0.0.1:0 --db "$WORK/serve.db" --rate-limit 0 --log off \
    >"$WORK/serve.out" 2>"$WORK/serve.err" </dev/null &
SERVER_PID=$!
ADDR=
for _ in $(seq 1 100); do
    ADDR=$(sed -n '1s|^taku serving on http://\([^ ]*\).*|\1|p' "$WORK/serve.out")
    [[ -n "$ADDR" ]] && break
    kill -0 "$SERVER_PID" 2>/dev/null || fail "taku serve exited: $(cat "$WORK/serve.err")"
    sleep 0.1
done
[[ -n "$ADDR" ]] || fail "taku serve printed no address in 10 s"
curl -fsS "http://$ADDR/healthz" >/dev/null || fail "taku serve on $ADDR does not answer /healthz"

# The session: a prelude, then each command between `__begin LINE` and
# `__end $? LINE EXPECTED_STATUS`, which capture its output and judge it.
{
    cat <<'PRELUDE'
set -uo pipefail
exec 3>&1 4>&2
__count=0
__begin() { exec >"$__work/out" 2>"$__work/err"; }
__end() {
    local status=$1 line=$2 want=$3
    exec 1>&3 2>&4
    local what=""
    if grep -q 'panicked at' "$__work/err"; then
        what="panicked"
    elif [[ $status -ne $want ]]; then
        what="exit status $status, expected $want"
    fi
    if [[ -n "$what" ]]; then
        {
            echo "readme-examples: README.md:$line: $what"
            echo "  $(sed -n "${line}p" "$__readme")"
            echo "---- its stdout ----"
            cat "$__work/out"
            echo "---- its stderr ----"
            cat "$__work/err"
        } >&2
        exit 1
    fi
    __count=$((__count + 1))
    echo "README.md:$line ok: $(sed -n "${line}p" "$__readme")"
}
PRELUDE
    awk -v addr="$ADDR" '
        /^```/ {
            if (!inblock) {
                inblock = 1
                run = ($0 ~ /^```sh[[:space:]]*$/) && !skip
                skip = 0
            } else {
                inblock = 0
                if (cont) { printf "README.md:%d: a block ends inside a continued command\n", NR > "/dev/stderr"; exit 1 }
            }
            next
        }
        !inblock {
            if ($0 ~ /^<!-- not run:/) skip = 1
            else if ($0 !~ /^[[:space:]]*$/) skip = 0
            next
        }
        !run { next }
        {
            line = $0
            if (!cont) {
                if (line ~ /^[[:space:]]*(#|$)/) next
                want = 0
                if (match(line, /#.*exit status [0-9]+/)) {
                    s = substr(line, RSTART, RLENGTH)
                    sub(/.*exit status /, "", s)
                    want = s + 0
                }
                start = NR
                printf "__begin\n"
            }
            gsub(/localhost:8080/, addr, line)
            print line
            if (line ~ /\\$/) cont = 1
            else { cont = 0; printf "__end $? %d %d\n", start, want }
        }
        END { print "echo \"$__count examples ran\"" }
    ' README.md
} >"$WORK/examples.sh"

echo "== README.md's examples (taku serve on $ADDR)"
(
    cd "$WORK/checkout"
    unset TAKU_DB TAKU_BIND TAKU_LOG TAKU_RATE_LIMIT
    export PATH="$TARGET/debug:$PATH" \
        TAKU_CARDS="$WORK/state/cards.idx" TAKU_HISTORY="$WORK/state/history" \
        XDG_STATE_HOME="$WORK/state" XDG_DATA_HOME="$WORK/state" \
        __work="$WORK" __readme="$ROOT/README.md"
    bash --noprofile --norc "$WORK/examples.sh" </dev/null
) || fail "README.md's examples failed (above)"
# What README says of backups: the examples' database is complete on its own.
[[ ! -s "$WORK/checkout/taku.db-wal" ]] || fail "taku.db-wal was left with content"
kill -0 "$SERVER_PID" 2>/dev/null || fail "taku serve died: $(cat "$WORK/serve.err")"
echo "== README.md's examples pass ($((SECONDS - START)) s)"

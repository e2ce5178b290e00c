#!/usr/bin/env bash
# Makes sure Node.js, npm and the pinned npm `bcdice` (BCDice's JavaScript build, 4.9.0 by
# tools/bcdice-oracle/package-lock.json) are installed for the reference-engine tests
# (crates/*/tests/reference.rs), which never skip: they fail when either is missing.
# Sourced by tools/test-all.sh; exports TAKU_TEST_BCDICE_JS for those tests.

taku_bcdice_js_install() {
    local dir
    dir="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/bcdice-oracle"
    if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
        echo "== Node.js: installing Debian's nodejs and npm"
        local sudo=""
        [[ $(id -u) -eq 0 ]] || sudo="sudo"
        export DEBIAN_FRONTEND=noninteractive
        $sudo apt-get install -y -q nodejs npm >/dev/null ||
            { $sudo apt-get update -q >/dev/null && $sudo apt-get install -y -q nodejs npm >/dev/null; }
        command -v node >/dev/null || { echo "cannot install Node.js" >&2; return 1; }
    fi
    if ! grep -qs '"version": "4.9.0"' "$dir/node_modules/bcdice/package.json"; then
        echo "== npm bcdice: installing the pinned version into $dir"
        (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error) ||
            { echo "cannot install npm bcdice" >&2; return 1; }
    fi
    export TAKU_TEST_BCDICE_JS="$dir"
}

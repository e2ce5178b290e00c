#!/usr/bin/env bash
# The web table in headless Chromium (BENCHMARKS.md, "Web table in a browser"): time to
# first render of the table page on a long log, and live-update latency to browsers and
# to the page's HTML live sockets. Runs crates/server/examples/webbench.rs (the server
# runs inside it, on a fresh SQLite file); installs Chromium like the browser tests.
#
#   tools/bench-web.sh                       # release build, the defaults
#   tools/bench-web.sh --browsers 8 --sockets 87 --entries 5000   # members: 8 + 87 + GM ≤ 100
#   PROFILE=dev tools/bench-web.sh …         # a debug build (quicker to build, slower)
#
# Browsers, sockets and the server share the machine's cores; the figures include all.
set -euo pipefail

cd "$(dirname "$0")/.."
source tools/chromium-test.sh
taku_chromium_install
ulimit -n 4096 2>/dev/null || true
profile="${PROFILE:-release}"
cargo run --profile "$profile" -q -p taku-server --example webbench -- "$@"

#!/usr/bin/env bash
# Runs every check taku has: formatting, lints, docs, the whole test suite, and README's
# examples.
# Usage: tools/test-all.sh   (from anywhere; needs the Rust toolchain, and starts its own
# PostgreSQL on loopback, installing Debian's package if needed, unless TAKU_TEST_PG names one;
# installs Debian's chromium and chromium-driver for the web table's browser tests, and
# Node.js with the pinned npm bcdice for the reference engine's tests)
set -euo pipefail
cd "$(dirname "$0")/.."
source tools/pg-test-server.sh
taku_pg_start
source tools/chromium-test.sh
taku_chromium_install
source tools/bcdice-js.sh
taku_bcdice_js_install

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo doc (warnings, such as broken links, are errors)"
RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps --locked --quiet
echo "== cargo test"
cargo test --workspace --locked
echo "== taku conform on the shipped BCDice vectors"
cargo run --quiet --locked -p taku-cli -- conform crates/systems/tests/data
echo "== the OpenAPI document against a running taku serve (schemathesis)"
tools/openapi-check.sh
echo "== README.md's examples, as written"
tools/readme-examples.sh

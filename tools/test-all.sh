#!/usr/bin/env bash
# Runs every check taku has: formatting, lints, and the whole test suite.
# Usage: tools/test-all.sh   (from anywhere; needs only the Rust toolchain)
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt --check"
cargo fmt --all -- --check
echo "== cargo clippy (warnings are errors)"
cargo clippy --workspace --all-targets --locked -- -D warnings
echo "== cargo test"
cargo test --workspace --locked
echo "== taku conform on the shipped BCDice vectors"
cargo run --quiet --locked -p taku-cli -- conform crates/systems/tests/data

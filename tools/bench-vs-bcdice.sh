#!/usr/bin/env bash
# Throughput of `taku roll --strict --seed 1 -` against BCDice's npm build (DiceBot), on
# the same command lines, timed in the same run.
#
# Usage: tools/bench-vs-bcdice.sh [LINES] [BCDICE_LINES]
#   LINES         lines given to taku (default 100000)
#   BCDICE_LINES  how many of them (a prefix) the npm build evaluates (default: all)
#
# The lines cycle through a fixed list of ten commands, so every run measures the same mix.
# Rates are wall-clock lines/s of each whole process (start-up included), output to /dev/null.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
oracle="$root/tools/bcdice-oracle"
lines_total="${1:-100000}"
bcdice_lines="${2:-$lines_total}"

commands=(
  '2D6'
  '2D6+4>=10'
  '3D6/2+1D6'
  '12R6>=6'
  '5D10KH3'
  '10B6>=4'
  'D66'
  'CHOICE[a,b,c]'
  'C(10*3+4)'
  'x5 2D6'
)

now() { date +%s.%N; }
# rate LINES START END -> lines/s
rate() { awk -v n="$1" -v s="$2" -v e="$3" 'BEGIN { printf "%.0f", n / (e - s) }'; }
secs() { awk -v s="$1" -v e="$2" 'BEGIN { printf "%.3f", e - s }'; }

echo "== building taku (release)" >&2
(cd "$root" && cargo build --release -p taku-cli >&2)
taku="$root/target/release/taku"

if [[ ! -d "$oracle/node_modules/bcdice" ]]; then
  echo "== npm install in tools/bcdice-oracle" >&2
  (cd "$oracle" && npm install --no-audit --no-fund >&2)
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
lines="$tmp/lines.txt"
printf '%s\n' "${commands[@]}" |
  awk -v n="$lines_total" '{ c[NR - 1] = $0 } END { for (i = 0; i < n; i++) print c[i % NR] }' >"$lines"
head -n "$bcdice_lines" "$lines" >"$tmp/bcdice-lines.txt"

# Sanity check: both sides give a result for every command in the mix.
printf '%s\n' "${commands[@]}" >"$tmp/mix.txt"
if "$taku" roll --strict --seed 1 - <"$tmp/mix.txt" | grep -q '^error: '; then
  echo "taku fails on a command of the mix:" >&2
  "$taku" roll --strict --seed 1 - <"$tmp/mix.txt" | grep '^error: ' >&2
  exit 1
fi
if node "$oracle/bench.js" "$tmp/mix.txt" 2>/dev/null | grep -q '^error: '; then
  echo "BCDice gives no result for a command of the mix" >&2
  exit 1
fi

echo "== taku: $lines_total lines" >&2
t0="$(now)"
"$taku" roll --strict --seed 1 - <"$lines" >/dev/null
t1="$(now)"

echo "== bcdice (npm $(node -p "require('$oracle/node_modules/bcdice/package.json').version")): $bcdice_lines lines" >&2
t2="$(now)"
node "$oracle/bench.js" "$tmp/bcdice-lines.txt" >/dev/null
t3="$(now)"

taku_rate="$(rate "$lines_total" "$t0" "$t1")"
bcdice_rate="$(rate "$bcdice_lines" "$t2" "$t3")"
echo
echo "mix: ${#commands[@]} commands cycled (${commands[*]})"
echo "taku roll --strict --seed 1 -: $lines_total lines in $(secs "$t0" "$t1") s = $taku_rate lines/s"
if [[ "$bcdice_lines" != "$lines_total" ]]; then
  echo "bcdice npm (timed on a $bcdice_lines-line prefix of the same lines):"
fi
echo "bcdice npm bench.js:           $bcdice_lines lines in $(secs "$t2" "$t3") s = $bcdice_rate lines/s"
awk -v a="$taku_rate" -v b="$bcdice_rate" 'BEGIN { printf "ratio taku / bcdice: %.1fx (target >= 50x: %s)\n", a / b, (a / b >= 50 ? "met" : "NOT met") }'

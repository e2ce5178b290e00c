#!/usr/bin/env bash
# Differential test of taku against BCDice 3.16.1 (the npm build, via tools/bcdice-oracle).
#
#   tools/difftest/run.sh N SEED [OUT_DIR]      (run from anywhere; OUT_DIR defaults to
#                                                tools/difftest/out/seed-SEED)
#   INPUT=cases.jsonl tools/difftest/run.sh - SEED [OUT_DIR]
#                                               (replay hand-written {"system","input"} lines
#                                                instead of generating; N is ignored)
# Set NO_BUILD=1 to skip `cargo build`, TAKU=path to test another binary.
#
# 1. gen.py makes N command lines (seeded) for DiceBot, SRS and Sengensyou;
# 2. oracle.js evaluates them with BCDice, drawing dice from its own generator seeded with SEED
#    and recording every draw;
# 3. convert.py writes the answers as BCDice-format vectors (vectors.toml, cases.jsonl), the
#    inputs where BCDice raised (errors.jsonl) and the untrusted ones (skipped.jsonl);
# 4. `taku conform` replays vectors.toml with the recorded draws -> conform.txt;
# 5. check_errors.py checks taku gives an error where BCDice raised -> errors-report.txt;
# 6. triage.py groups the mismatches -> triage.txt.
# Needs node (with tools/bcdice-oracle/node_modules installed), python3 and cargo.
set -euo pipefail

if [ $# -lt 2 ]; then
  echo "usage: $0 N SEED [OUT_DIR]" >&2
  exit 2
fi
N=$1
SEED=$2
HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
OUT=${3:-$HERE/out/seed-$SEED}
mkdir -p "$OUT"
TAKU=${TAKU:-$ROOT/target/debug/taku}

if [ -z "${NO_BUILD:-}" ]; then
  (cd "$ROOT" && cargo build -q -p taku-cli)
fi

if [ -n "${INPUT:-}" ]; then
  grep -v '^[[:space:]]*$' "$INPUT" > "$OUT/input.jsonl"
else
  python3 "$HERE/gen.py" "$N" "$SEED" > "$OUT/input.jsonl"
fi
node "$ROOT/tools/bcdice-oracle/oracle.js" --seed "$SEED" < "$OUT/input.jsonl" > "$OUT/oracle.jsonl"
python3 "$HERE/convert.py" "$OUT/input.jsonl" "$OUT/oracle.jsonl" "$OUT"
"$TAKU" conform "$OUT/vectors.toml" > "$OUT/conform.txt" || true
python3 "$HERE/check_errors.py" "$OUT/errors.jsonl" "$TAKU" > "$OUT/errors-report.txt"
python3 "$HERE/triage.py" "$OUT" > "$OUT/triage.txt"

echo "conform: $(tail -n 1 "$OUT/conform.txt")"
echo "errors:  $(tail -n 1 "$OUT/errors-report.txt")"
echo "report:  $OUT/{conform,errors-report,triage}.txt"

#!/usr/bin/env node
// Dev-only benchmark peer for tools/bench-vs-bcdice.sh: evaluates every line of a file with
// BCDice's JS build under DiceBot and writes each result's text to stdout, one write per
// line (as `taku roll -` does), so both sides do comparable work.
//
// Usage: node bench.js LINES_FILE [LIMIT]
// LIMIT, when given, evaluates only the first LIMIT lines. Prints the number of lines
// evaluated, of lines without a result, and the in-process time to stderr.
const fs = require('fs');
const { DynamicLoader } = require('bcdice');

(async () => {
  const [file, limitArg] = process.argv.slice(2);
  if (!file) {
    process.stderr.write('usage: node bench.js LINES_FILE [LIMIT]\n');
    process.exit(2);
  }
  let lines = fs.readFileSync(file, 'utf8').split('\n');
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  if (limitArg) lines = lines.slice(0, Number(limitArg));

  const G = await new DynamicLoader().dynamicLoad('DiceBot');
  let failed = 0;
  const start = process.hrtime.bigint();
  for (const line of lines) {
    const res = new G(line).eval();
    if (res) {
      process.stdout.write(res.text + '\n');
    } else {
      failed++;
      process.stdout.write('error: no result\n');
    }
  }
  const secs = Number(process.hrtime.bigint() - start) / 1e9;
  process.stderr.write(
    `bcdice: ${lines.length} lines, ${failed} without a result, ${secs.toFixed(3)} s in-process\n`,
  );
})();

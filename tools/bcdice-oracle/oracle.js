#!/usr/bin/env node
// Dev-only differential oracle: evaluates commands with BCDice's JS build.
//
// Reads JSON lines from stdin: {"system": "DiceBot", "input": "2D6>=7", "rands": [[6,3],[6,4]]}
// "rands" is optional. When given, draws are scripted (a sides mismatch or an extra draw is
// reported as an error); when absent, draws come from a seeded generator (--seed N) and are
// recorded. Writes one JSON line per input: the result fields BCDice reports plus the draws
// made, so the output can be replayed against taku with scripted dice.
const readline = require('readline');
const { DynamicLoader } = require('bcdice');

const seedArg = process.argv.indexOf('--seed');
let state = BigInt(seedArg >= 0 ? process.argv[seedArg + 1] : 1) || 1n;
function nextRandom(sides) {
  // xorshift64*; quality is irrelevant here, reproducibility is what matters.
  state ^= state >> 12n; state ^= (state << 25n) & 0xffffffffffffffffn; state ^= state >> 27n;
  const r = (state * 0x2545F4914F6CDD1Dn) & 0xffffffffffffffffn;
  return Number(r % BigInt(sides)) + 1;
}

(async () => {
  const loader = new DynamicLoader();
  const classes = {};
  const rl = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const req = JSON.parse(line);
    const out = { system: req.system, input: req.input };
    try {
      const G = classes[req.system] || (classes[req.system] = await loader.dynamicLoad(req.system));
      const g = new G(req.input);
      const draws = [];
      let i = 0;
      Object.assign(g.randomizer, {
        $random(sides) {
          let value;
          if (req.rands) {
            if (i >= req.rands.length) throw new Error(`extra draw d${sides}`);
            const [s, v] = req.rands[i++];
            if (s !== sides) throw new Error(`draw ${i} asked d${sides}, script has d${s}`);
            value = v;
          } else {
            value = nextRandom(sides);
          }
          draws.push([sides, value]);
          return value;
        },
      });
      const res = g.eval();
      out.draws = draws;
      if (res) {
        out.text = res.text;
        for (const f of ['secret', 'success', 'failure', 'critical', 'fumble']) out[f] = !!res[f];
      } else {
        out.text = null;
      }
    } catch (e) {
      out.error = String(e && e.message || e);
    }
    process.stdout.write(JSON.stringify(out) + '\n');
  }
})();

// Time of one BCDice evaluation inside Node (npm bcdice under tools/bcdice-oracle), with
// and without Opal's stack traces, as the reference engine's worker runs it.
//   node tools/bench-bcdice-eval.js            (from the repository root)
'use strict';
const path = require('path');
const bcdice = require(require.resolve('bcdice', { paths: [path.join(__dirname, 'bcdice-oracle')] }));

async function time(label, G, command, draw) {
  const n = 5000;
  for (let i = 0; i < 500; i++) { const g = new G(command); g.randomizer.$random = draw; g.eval(); }
  const t = process.hrtime.bigint();
  for (let i = 0; i < n; i++) { const g = new G(command); g.randomizer.$random = draw; g.eval(); }
  console.log(`${label}\t${(Number(process.hrtime.bigint() - t) / 1e3 / n).toFixed(1)} µs/eval`);
}

(async () => {
  const loader = new bcdice.DynamicLoader();
  let x = 1;
  const draw = (s) => { x = (x * 1103515245 + 12345) & 0x7fffffff; return (x % s) + 1; };
  const cases = [['Cthulhu7th', 'CC1'], ['DiceBot', '2D6+4>=10']];
  for (const traces of [true, false]) {
    Error.stackTraceLimit = traces ? 100 : 0;
    globalThis.Opal.config.enable_stack_trace = traces;
    for (const [id, command] of cases) {
      await time(`${id} ${command} (stack traces ${traces ? 'on' : 'off'})`, await loader.dynamicLoad(id), command, draw);
    }
  }
})();

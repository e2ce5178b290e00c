// taku's reference-engine worker: evaluates commands of BCDice game systems that taku does
// not carry natively, with BCDice's JavaScript build (npm `bcdice`).
//
// Protocol: JSON lines. fd 0 carries requests and draw answers, fd 1 answers and draw
// requests. Every die the engine rolls is asked of the parent (taku's dice source), so a
// roll is recorded and replayed like a native one:
//   parent -> {"op":"eval","system":"Cthulhu7th","input":"CC1"}
//   worker -> {"draw":100}            parent -> {"value":37} | {"refuse":"why"}
//   worker -> {"ok":{...result...}} | {"ok":null} (no command) | {"error":"why"}
//   parent -> {"op":"info","system":"Cthulhu7th"}
//   worker -> {"ok":{"help":"...","pattern":"..."}}
// Started with the package's directory as the working directory (argv[2] may name it).
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2] || process.cwd();
const bcdice = require(require.resolve('bcdice', { paths: [dir] }));
const loader = new bcdice.DynamicLoader();
const classes = new Map();

let pending = Buffer.alloc(0);
const chunk = Buffer.alloc(65536);
// Reads one line from fd 0, blocking; null at end of input.
function readLine() {
  for (;;) {
    const nl = pending.indexOf(10);
    if (nl >= 0) {
      const line = pending.subarray(0, nl).toString('utf8');
      pending = pending.subarray(nl + 1);
      return line;
    }
    let n;
    try {
      n = fs.readSync(0, chunk, 0, chunk.length, null);
    } catch (e) {
      if (e.code === 'EAGAIN') continue;
      if (e.code === 'EOF') return null;
      throw e;
    }
    if (n === 0) return null;
    pending = Buffer.concat([pending, chunk.subarray(0, n)]);
  }
}

function send(obj) {
  const data = Buffer.from(JSON.stringify(obj) + '\n', 'utf8');
  let off = 0;
  while (off < data.length) {
    try {
      off += fs.writeSync(1, data, off);
    } catch (e) {
      if (e.code !== 'EAGAIN') throw e;
    }
  }
}

class Refused extends Error {}

function drawFromParent(sides) {
  send({ draw: sides });
  const line = readLine();
  if (line === null) throw new Refused('parent closed');
  const answer = JSON.parse(line);
  if (typeof answer.value === 'number') return answer.value;
  throw new Refused(answer.refuse || 'draw refused');
}

async function load(id) {
  let G = classes.get(id);
  if (!G) {
    G = await loader.dynamicLoad(id);
    classes.set(id, G);
  }
  return G;
}

async function handle(req) {
  const G = await load(req.system);
  if (req.op === 'info') {
    return { ok: { help: String(G.HELP_MESSAGE || ''), pattern: G.COMMAND_PATTERN.source } };
  }
  const game = new G(req.input);
  game.randomizer.$random = drawFromParent;
  // Loaded: the evaluation's own time starts now.
  send({ started: true });
  const res = game.eval();
  if (!res) return { ok: null };
  return {
    ok: {
      text: res.text,
      secret: !!res.secret,
      success: !!res.success,
      failure: !!res.failure,
      critical: !!res.critical,
      fumble: !!res.fumble,
      rands: res.detailedRands.map((d) => [String(d.kind), d.sides, d.value]),
    },
  };
}

(async () => {
  for (;;) {
    const line = readLine();
    if (line === null) return;
    let answer;
    try {
      answer = await handle(JSON.parse(line));
    } catch (e) {
      if (e instanceof Refused) {
        answer = { refused: e.message };
      } else {
        // Ruby exceptions (Opal) name their class; BCDice's dice limit has no message.
        const name = e && typeof e.$class === 'function' ? String(e.$class().$name()) : (e && e.name) || 'Error';
        answer = { error: String((e && e.message) || ''), name };
      }
    }
    send(answer);
  }
})();

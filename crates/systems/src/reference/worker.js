// taku's reference-engine worker: evaluates commands of BCDice game systems that taku does
// not carry natively, with BCDice's JavaScript build (npm `bcdice`).
//
// Protocol: JSON lines. fd 0 carries requests and draw answers, fd 1 answers and draw
// requests. The parent may send the next requests before this one is answered (they
// are answered in order, one at a time); one read while a draw's answer is awaited
// waits its turn. Every die the engine rolls is asked of the parent (taku's dice source), so a
// roll is recorded and replayed like a native one:
//   parent -> {"op":"eval","system":"Cthulhu7th","input":"CC1"}
//   worker -> {"started":true}     (only when it had to load the system first)
//   worker -> {"draw":100}            parent -> {"value":37} | {"refuse":"why"}
//   worker -> {"ok":{...result...},"used":0} | {"ok":null} (no command) | {"error":"why"}
//   parent -> {"op":"info","system":"Cthulhu7th"}
//   worker -> {"ok":{"help":"...","pattern":"..."}}
// An eval may carry draws the parent took ahead, [[sides, face], ...] under "ahead"
// (only from dice nothing records): they are used in order while the engine asks for
// the same sides, the rest thrown away at the first that differs, and "used" says how
// many were used, so the parent knows exactly which draws the result used.
// The worker ends itself if its parent goes away, even in the middle of an evaluation.
// Started with the package's directory as the working directory (argv[2] may name it).
'use strict';
const fs = require('fs');
const path = require('path');

const dir = process.argv[2] || process.cwd();
const bcdice = require(require.resolve('bcdice', { paths: [dir] }));
const loader = new bcdice.DynamicLoader();
// BCDice's Ruby runtime (Opal) captures a 100-frame stack trace for every exception and
// non-local return it raises, and its parsers raise many while reading a command; nothing
// here reads a trace, and taking them was a quarter of an evaluation's time.
Error.stackTraceLimit = 0;
if (globalThis.Opal) globalThis.Opal.config.enable_stack_trace = false;
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

// Requests that arrived while an evaluation waited for a draw, in order.
const waiting = [];

// Draws the parent took ahead for this evaluation, and how many were used.
let ahead = [];
let used = 0;

function drawFromParent(sides) {
  if (used < ahead.length) {
    const [s, face] = ahead[used];
    if (s === sides) {
      used += 1;
      return face;
    }
    ahead = [];
  }
  send({ draw: sides });
  for (;;) {
    const line = readLine();
    if (line === null) throw new Refused('parent closed');
    const answer = JSON.parse(line);
    // The parent may have sent the next requests already: they wait their turn.
    if (answer.op !== undefined) {
      waiting.push(answer);
      continue;
    }
    if (typeof answer.value === 'number') return answer.value;
    throw new Refused(answer.refuse || 'draw refused');
  }
}

async function handle(req) {
  let G = classes.get(req.system);
  const fresh = !G;
  if (fresh) {
    G = await loader.dynamicLoad(req.system);
    classes.set(req.system, G);
  }
  if (req.op === 'info') {
    return { ok: { help: String(G.HELP_MESSAGE || ''), pattern: G.COMMAND_PATTERN.source } };
  }
  ahead = Array.isArray(req.ahead) ? req.ahead : [];
  used = 0;
  const game = new G(req.input);
  game.randomizer.$random = drawFromParent;
  // Loaded: the evaluation's own time starts now.
  if (fresh) send({ started: true });
  const res = game.eval();
  if (!res) return { ok: null, used };
  return {
    used,
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

// A watcher thread ends the process when the parent is gone (the worker is re-parented),
// which the main thread cannot see while it computes.
const { Worker, isMainThread } = require('worker_threads');
if (isMainThread) {
  const watcher = new Worker(
    `const parent = ${process.ppid};
     setInterval(() => { if (process.ppid !== parent) process.kill(process.pid, 'SIGKILL'); }, 500);`,
    { eval: true, resourceLimits: { maxOldGenerationSizeMb: 8, maxYoungGenerationSizeMb: 2 } },
  );
  watcher.unref();
}

(async () => {
  for (;;) {
    let req = waiting.shift();
    if (req === undefined) {
      const line = readLine();
      if (line === null) return;
      req = line;
    }
    let answer;
    try {
      answer = await handle(typeof req === 'string' ? JSON.parse(req) : req);
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

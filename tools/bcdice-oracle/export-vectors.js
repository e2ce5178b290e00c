#!/usr/bin/env node
// Dev-only: writes BCDice's own test vectors (shipped in the npm package's test_data.json)
// for the given vector sets as TOML files in BCDice's format.
//   node export-vectors.js OUT_DIR None AddDice calc ...
const fs = require('fs');
const path = require('path');
const data = require('bcdice/lib/bcdice/test_data.json');

const [outDir, ...names] = process.argv.slice(2);
if (!outDir || names.length === 0) {
  console.error('usage: export-vectors.js OUT_DIR NAME...');
  process.exit(2);
}
fs.mkdirSync(outDir, { recursive: true });
const str = (s) => JSON.stringify(s); // a JSON string is a valid TOML basic string
for (const name of names) {
  const set = data[name];
  if (!set) { console.error(`no vector set ${name}`); process.exit(1); }
  let out = `# BCDice ${require('bcdice').Version} test vectors "${name}" (BSD 3-Clause, bcdice/BCDice test/data),\n# exported by tools/bcdice-oracle/export-vectors.js.\n`;
  for (const t of set.test) {
    out += `\n[[ test ]]\ngame_system = ${str(t.game_system)}\ninput = ${str(t.input)}\noutput = ${str(t.output)}\n`;
    for (const f of ['secret', 'success', 'failure', 'critical', 'fumble']) if (t[f]) out += `${f} = true\n`;
    out += 'rands = [\n' + (t.rands || []).map((r) => `  { sides = ${r.sides}, value = ${r.value} },\n`).join('') + ']\n';
  }
  fs.writeFileSync(path.join(outDir, `${name}.toml`), out);
  console.log(`${name}: ${set.test.length} vectors`);
}

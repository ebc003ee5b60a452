/**
 * `npm run docs`: regenerates the generated documentation from the model (and, for
 * docs/candidates.md, from real runs). `--check` exits 1 when a committed file is stale.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedDocs } from './docs/generated.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const check = process.argv.includes('--check');
let stale = 0;
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const [file, { render }] of Object.entries(generatedDocs)) {
  if (only.length > 0 && !only.some((o) => file.includes(o))) continue;
  const text = await render();
  const path = root + file;
  let current = '';
  try {
    current = readFileSync(path, 'utf8');
  } catch {
    current = '';
  }
  if (current === text) {
    console.log(`${file}: up to date`);
  } else if (check) {
    stale++;
    console.log(`${file}: stale (run npm run docs)`);
  } else {
    writeFileSync(path, text);
    console.log(`${file}: written`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;

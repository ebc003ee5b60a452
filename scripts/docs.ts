/**
 * `npm run docs`: regenerates the generated documentation from the model (and, for
 * docs/candidates.md and docs/client-findings.md, from real runs). `--check` exits 1 when a
 * committed file is stale: a doc from real runs is stale when its findings tables changed, not
 * when only the rest did (its traces and counts vary run to run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { generatedDocs, type GeneratedDoc } from './docs/generated.js';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Whether two versions of a run-derived doc report the same findings (a doc whose tables cannot be read does not). */
function sameFindings({ findings, changes }: GeneratedDoc, current: string, fresh: string): boolean {
  try {
    if (changes) return changes(current, fresh).length === 0;
    return JSON.stringify(findings!(current)) === JSON.stringify(findings!(fresh));
  } catch {
    return false;
  }
}
const check = process.argv.includes('--check');
let stale = 0;
const only = process.argv.slice(2).filter((a) => !a.startsWith('--'));
for (const [file, doc] of Object.entries(generatedDocs)) {
  const { render, findings } = doc;
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
  } else if (check && findings && current !== '' && sameFindings(doc, current, text)) {
    console.log(`${file}: up to date (the same findings; traces vary run to run)`);
  } else if (check) {
    stale++;
    console.log(`${file}: stale (run npm run docs)`);
  } else {
    writeFileSync(path, text);
    console.log(`${file}: written`);
  }
}
process.exitCode = stale > 0 ? 1 : 0;

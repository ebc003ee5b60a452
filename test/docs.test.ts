/** The generated docs are committed; they must match what the generators produce now. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { judgedClaims, tally } from '../model/claims/index.js';
import { summaryLine } from '../scripts/docs/claims-doc.js';
import { generatedDocs } from '../scripts/docs/generated.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('generated docs are current', () => {
  test.each(Object.keys(generatedDocs).filter((f) => generatedDocs[f]!.exact))('%s', async (file) => {
    const expected = await generatedDocs[file]!.render();
    const committed = readFileSync(root + file, 'utf8');
    expect(committed === expected, `${file} is stale: run npm run docs`).toBe(true);
  });
});

describe('hand-written docs quote generated numbers', () => {
  test("every claims tally in README.md and docs/README.md is the seeds' tally docs/claims.md prints", () => {
    const expected = summaryLine(tally(judgedClaims()));
    for (const file of ['README.md', 'docs/README.md']) {
      const said = [...readFileSync(root + file, 'utf8').matchAll(/\d+ confirmed, \d+ refined, \d+ refuted/g)].map((m) => m[0]);
      for (const s of said) expect(s, `${file} says ${s}`).toBe(expected);
    }
    expect(readFileSync(`${root}docs/claims.md`, 'utf8')).toContain(`Summary: ${expected},`);
  });
});

/** The generated docs are committed; they must match what the generators produce now. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { generatedDocs } from '../scripts/docs/generated.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('generated docs are current', () => {
  test.each(Object.keys(generatedDocs).filter((f) => generatedDocs[f]!.exact))('%s', async (file) => {
    const expected = await generatedDocs[file]!.render();
    const committed = readFileSync(root + file, 'utf8');
    expect(committed === expected, `${file} is stale: run npm run docs`).toBe(true);
  });
});

/** The generated docs are committed; they must match what the generators produce now. */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { judgedClaims, tally } from '../model/claims/index.js';
import { summaryLine } from '../scripts/docs/claims-doc.js';
import { generatedDocs } from '../scripts/docs/generated.js';
import { replaceRegion } from '../scripts/docs/markdown.js';
import { readmeFindings } from '../scripts/docs/readme-doc.js';

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

describe('README.md is a front page', () => {
  const read = (file: string) => readFileSync(root + file, 'utf8');

  test('at most 120 lines, opening with the two commands a fresh clone runs', () => {
    const readme = read('README.md');
    expect(readme.trimEnd().split('\n').length).toBeLessThanOrEqual(120);
    const first = /^# [^\n]+\n\n```sh\n([\s\S]*?)\n```/.exec(readme)?.[1]?.split('\n');
    expect(first?.map((line) => line.split('#')[0]!.trim())).toEqual(['npm ci && npm start', 'npm ci && npm test']);
  });

  test('its "Where the rest is" reaches the pages the reference moved to, and they hold it', () => {
    const rest = read('README.md').split('\n## Where the rest is\n')[1] ?? '';
    for (const page of ['docs/README.md', 'docs/usage.md', 'docs/cli.md', 'docs/layout.md']) expect(rest, page).toContain(`](${page})`);
    const usage = read('docs/usage.md');
    for (const heading of [
      '## Check your server',
      '### Exit status and reports',
      '### Baselines',
      '### What a level means',
      '### In CI (GitHub Actions)',
      '## Event stores',
      '## Check your client',
      '## Other commands',
      "### explore's memory",
    ])
      expect(usage, heading).toContain(`\n${heading}\n`);
    expect(read('docs/layout.md')).toContain('| `src/check-server/` |');
    for (const page of ['usage.md', 'cli.md', 'layout.md']) expect(read('docs/README.md'), page).toContain(`](${page})`);
  });
});

describe("README.md's generated findings region", () => {
  test('replaceRegion renders only the region between its markers, and refuses a page without one', () => {
    const page = 'intro\n<!-- generated: findings -->\nold\ntable\n<!-- /generated -->\nrest\n';
    expect(replaceRegion(page, 'findings', 'new')).toBe('intro\n<!-- generated: findings -->\nnew\n<!-- /generated -->\nrest\n');
    expect(() => replaceRegion('intro\n', 'findings', 'new')).toThrow(/no region/);
    expect(() => replaceRegion(page, 'other', 'new')).toThrow(/no region/);
  });

  test('the table follows docs/candidates.md and docs/contract.md, and refuses a verdict it cannot read', () => {
    const read = (file: string) => readFileSync(root + file, 'utf8');
    const row = (section: string, id: string) => section.split('\n').find((l) => l.startsWith(`| [\`${id}\`]`));
    const now = readmeFindings(read);
    expect(row(now, 'no-silent-loss')).toBe(
      '| [`no-silent-loss`](docs/properties.md#no-silent-loss-should) (SHOULD) | holds | **fails** | **fails** | **fails** | holds | holds | **fails** |',
    );
    // mcp-proxy's unknown-cursor-rejected passes in a (hypothetical) new candidates.md: the README's cell says so.
    const candidates = read('docs/candidates.md').replace(
      '| unknown-cursor-rejected | fail | fail | pass |',
      '| unknown-cursor-rejected | fail | pass | pass |',
    );
    const changed = readmeFindings((file) => (file === 'docs/candidates.md' ? candidates : read(file)));
    expect(row(changed, 'unknown-cursor-rejected')).toContain('| **fails** | **fails** | holds | holds | **fails** |');
    expect(row(now, 'unknown-cursor-rejected')).toContain('| **fails** | **fails** | **fails** | holds | **fails** |');
    // The Python SDK no longer failing no-cross-stream-replay: the row goes (nothing else fails it).
    const contract = read('docs/contract.md').replace(/^\| `no-cross-stream-replay` \| MUST \| \*\*fail\*\*/m, '| `no-cross-stream-replay` | MUST | pass');
    expect(contract).not.toBe(read('docs/contract.md'));
    expect(
      row(
        readmeFindings((file) => (file === 'docs/contract.md' ? contract : read(file))),
        'no-cross-stream-replay',
      ),
    ).toBeUndefined();
    const unreadable = read('docs/contract.md').replace(/^\| `no-cross-stream-replay` \| MUST \| \*\*fail\*\*/m, '| `no-cross-stream-replay` | MUST | flaky');
    expect(() => readmeFindings((file) => (file === 'docs/contract.md' ? unreadable : read(file)))).toThrow(/Python verdict this reader does not know/);
  });
});

/**
 * docs/layout.md's table is the map of the tree: every folder under src/ is named in it (a top folder
 * as a row, a folder inside one as `name/` in its row), everything it names exists, and its rows stand
 * in the order imports flow (the layers of scripts/check-imports.ts).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import { layers } from '../scripts/check-imports.js';

const root = fileURLToPath(new URL('../', import.meta.url));

/** The table's rows: the path of the first cell (without its trailing slash) and the text of the second. */
function layoutRows(markdown: string): Array<{ path: string; holds: string }> {
  return markdown
    .split('\n')
    .filter((l) => /^\| `[^`]+` \|/.test(l))
    .map((l) => {
      const [, path, holds] = /^\| `([^`]+)` \| (.*) \|$/.exec(l) ?? [];
      return { path: path!.replace(/\/$/, ''), holds: holds ?? '' };
    });
}

/** Every folder under `dir` (relative to the root), deepest last. */
function foldersUnder(dir: string): string[] {
  return readdirSync(root + dir, { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .flatMap((e) => [`${dir}/${e.name}`, ...foldersUnder(`${dir}/${e.name}`)]);
}

/** What is wrong with a layout table against the tree: folders it leaves out, names it has that do not exist. */
function layoutProblems(markdown: string, folders: string[], exists: (path: string) => boolean): string[] {
  const rows = layoutRows(markdown);
  const problems: string[] = [];
  for (const { path, holds } of rows) {
    if (!exists(path)) problems.push(`${path}: named, but not in the tree`);
    // A folder named inside a row (`name/`) must be one under that row's folder.
    for (const [, name] of holds.matchAll(/`([\w.-]+)\/`/g)) {
      if (!folders.some((f) => f.startsWith(`${path}/`) && f.endsWith(`/${name}`))) problems.push(`${path}: names ${name}/, not a folder under it`);
    }
  }
  for (const folder of folders) {
    const row = rows.find((r) => folder === r.path || folder.startsWith(`${r.path}/`));
    const name = folder.split('/').pop()!;
    if (!row) problems.push(`${folder}: no row`);
    else if (row.path !== folder && !row.holds.includes(`\`${name}/\``)) problems.push(`${folder}: not named (as \`${name}/\`) in the row of ${row.path}/`);
  }
  return problems;
}

describe('docs/layout.md', () => {
  const markdown = readFileSync(`${root}docs/layout.md`, 'utf8');

  test('names every folder under src/, and nothing that is not in the tree', () => {
    expect(layoutRows(markdown).length).toBeGreaterThan(10);
    expect(layoutProblems(markdown, foldersUnder('src'), (path) => existsSync(root + path))).toEqual([]);
  });

  test('its rows stand in the order imports flow', () => {
    const rows = layoutRows(markdown).map((r) => r.path);
    // Each layer's unit falls in the row of its longest prefix; rows must not go back down as layers go up.
    const rowOf = (unit: string) =>
      rows.findIndex((r) => r === rows.filter((p) => unit === p || unit.startsWith(`${p}/`)).sort((a, b) => b.length - a.length)[0]);
    // A single file of a layer (src/version.ts) may go unlisted; every folder has a row (the test above).
    const order = layers
      .flat()
      .map((unit) => [unit, rowOf(unit)] as const)
      .filter(([, row]) => row >= 0);
    expect(order.length).toBeGreaterThan(10);
    const back = order.filter(([, row], i) => i > 0 && row < order[i - 1]![1]);
    expect(back).toEqual([]);
  });

  test('the check finds a missing folder, a folder left unnamed and a name that is not there', () => {
    const table = '| folder | holds |\n|---|---|\n| `src/a/` | a; `inner/` inside |\n| `src/gone/` | x |\n';
    const exists = (path: string) => path !== 'src/gone';
    expect(layoutProblems(table, ['src/a', 'src/a/inner'], exists)).toEqual(['src/gone: named, but not in the tree']);
    expect(layoutProblems(table, ['src/a', 'src/a/inner', 'src/a/other', 'src/b'], exists)).toEqual([
      'src/gone: named, but not in the tree',
      'src/a/other: not named (as `other/`) in the row of src/a/',
      'src/b: no row',
    ]);
    expect(layoutProblems(table, ['src/a'], exists)).toContain('src/a: names inner/, not a folder under it');
  });
});

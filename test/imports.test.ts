/** Imports flow down the layers of scripts/check-imports.ts, and no file circle remains. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, test } from 'vitest';
import { importProblems } from '../scripts/check-imports.js';

const root = fileURLToPath(new URL('..', import.meta.url));

describe('the import direction', () => {
  test('this tree: every file in a layer, imports only down, no circle', () => {
    expect(importProblems(root)).toEqual([]);
  });
});

describe('the check itself', () => {
  let tree: string | undefined;
  afterEach(() => {
    if (tree !== undefined) rmSync(tree, { recursive: true, force: true });
    tree = undefined;
  });

  /** A tree of the given files (path -> content). */
  function treeOf(files: Record<string, string>): string {
    tree = mkdtempSync(join(tmpdir(), 'check-imports-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(tree, path)), { recursive: true });
      writeFileSync(join(tree, path), text);
    }
    return tree;
  }

  const layered = [['model'], ['src/low', 'src/side'], ['src/high']];

  test('an import down passes', () => {
    const dir = treeOf({ 'model/a.ts': 'export const a = 1;\n', 'src/high/b.ts': "import { a } from '../../model/a.js';\n" });
    expect(importProblems(dir, layered)).toEqual([]);
  });

  test('an import up fails', () => {
    const dir = treeOf({ 'src/high/a.ts': 'export const a = 1;\n', 'src/low/b.ts': "export { a } from '../high/a.js';\n" });
    expect(importProblems(dir, layered)).toEqual(['src/low/b.ts imports src/high/a.ts: up from src/low to src/high']);
  });

  test('a dynamic import sideways fails', () => {
    const dir = treeOf({ 'src/side/a.ts': 'export const a = 1;\n', 'src/low/b.ts': "export const b = () => import('../side/a.js');\n" });
    expect(importProblems(dir, layered)).toEqual(['src/low/b.ts imports src/side/a.ts: sideways between src/low and src/side (one layer)']);
  });

  test('a type-only circle fails', () => {
    const dir = treeOf({
      'src/low/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'src/low/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
    });
    expect(importProblems(dir, layered)).toEqual(['file circle: src/low/a.ts <-> src/low/b.ts']);
  });

  test('a folder in no layer, and a layer importing test/, fail', () => {
    const dir = treeOf({ 'src/new/a.ts': 'export const a = 1;\n', 'test/h.ts': 'export const h = 1;\n', 'src/low/b.ts': "import '../../test/h.js';\n" });
    expect(importProblems(dir, layered)).toEqual([
      'src/new/a.ts: in no declared layer (scripts/check-imports.ts)',
      'src/low/b.ts imports test/h.ts: test/ uses the layers, no layer uses it',
    ]);
  });
});

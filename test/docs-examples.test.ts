/**
 * Every TypeScript block in README.md and docs/*.md is one of: a whole file of the repository
 * (`<!-- example: PATH -->` on the line before it: the block is the file's text, byte for byte),
 * an excerpt of one (`<!-- excerpt: PATH -->`: its parts, separated by `// ...` lines, are runs of
 * the file's lines, in order, indentation aside), or declarations only (`<!-- declarations -->`:
 * TypeScript that compiles to nothing, so it claims to run nothing). The files are the ones the
 * tests run (examples/sdk-server/server.ts: test/candidates/fixtures-example.test.ts), so a doc
 * cannot drift from code that works.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, test } from 'vitest';

const root = fileURLToPath(new URL('../', import.meta.url));
const docs = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

interface Block {
  doc: string;
  line: number;
  marker: string | undefined;
  code: string;
}

/** The ```ts blocks of a Markdown text, each with the HTML comment on the line before it, if any. */
function tsBlocks(doc: string, text: string): Block[] {
  const lines = text.split('\n');
  const blocks: Block[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!/^```(ts|typescript)\s*$/.test(lines[i]!)) continue;
    const end = lines.findIndex((l, j) => j > i && l.startsWith('```'));
    const marker = /^<!-- (.*) -->$/.exec(lines[i - 1] ?? '')?.[1];
    blocks.push({ doc, line: i + 1, marker, code: `${lines.slice(i + 1, end).join('\n')}\n` });
    i = end;
  }
  return blocks;
}

/** Why `block` is not what its marker says, or undefined when it is. */
function mismatch(block: Block, read: (path: string) => string): string | undefined {
  const [kind, path] = (block.marker ?? '').split(/:\s*/);
  if (kind === 'example' && path) return read(path) === block.code ? undefined : `is not the text of ${path}`;
  if (kind === 'excerpt' && path) {
    const file = read(path)
      .split('\n')
      .map((l) => l.trim());
    let from = 0;
    const parts = block.code
      .trimEnd()
      .split(/\n[ \t]*\/\/ \.\.\.\n/)
      .map((part) => part.split('\n').map((l) => l.trim()));
    for (const part of parts) {
      const at = file.findIndex((_, i) => i >= from && part.every((l, k) => file[i + k] === l));
      if (at < 0) return `has lines not found in order in ${path}: ${part[0]}`;
      from = at + part.length;
    }
    return undefined;
  }
  if (kind === 'declarations') {
    const js = ts.transpileModule(block.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
    return js.replace(/export \{\};/, '').trim() === '' ? undefined : 'is not declarations only';
  }
  return 'has no marker (<!-- example: PATH -->, <!-- excerpt: PATH --> or <!-- declarations -->)';
}

describe('code examples in the docs', () => {
  test('every TypeScript block is a tested file, an excerpt of one, or declarations only', () => {
    const read = (path: string) => readFileSync(`${root}${path}`, 'utf8');
    const blocks = docs.flatMap((doc) => tsBlocks(doc, read(doc)));
    expect(blocks.filter((b) => b.marker?.startsWith('example:')).length).toBeGreaterThan(0);
    const wrong = blocks.flatMap((b) => {
      const why = mismatch(b, read);
      return why === undefined ? [] : [`${b.doc}:${b.line} ${why}`];
    });
    expect(wrong).toEqual([]);
  });

  test('the check catches drift', () => {
    const file = 'const a = 1;\nif (a) {\n  run(a);\n}\nexport {};\n';
    const read = () => file;
    const block = (marker: string, code: string): Block => ({ doc: 'd.md', line: 1, marker, code });
    expect(mismatch(block('example: f.ts', file), read)).toBeUndefined();
    expect(mismatch(block('example: f.ts', file.replace('1', '2')), read)).toBe('is not the text of f.ts');
    expect(mismatch(block('excerpt: f.ts', 'const a = 1;\n// ...\nrun(a);\n'), read)).toBeUndefined();
    expect(mismatch(block('excerpt: f.ts', 'run(a);\n// ...\nconst a = 1;\n'), read)).toMatch(/not found in order/);
    expect(mismatch(block('excerpt: f.ts', 'run(b);\n'), read)).toMatch(/not found in order/);
    expect(mismatch(block('declarations', 'interface A { b: string }\ntype C = A;\n'), read)).toBeUndefined();
    expect(mismatch(block('declarations', 'interface A { b: string }\nconst c = 1;\n'), read)).toBe('is not declarations only');
    expect(mismatch({ doc: 'd.md', line: 1, marker: undefined, code: 'x();\n' }, read)).toMatch(/has no marker/);
    expect(
      tsBlocks('d.md', 'text\n<!-- excerpt: f.ts -->\n```ts\nx();\n```\n```sh\nls\n```\n```ts\ny();\n```\n').map((b) => [b.line, b.marker, b.code]),
    ).toEqual([
      [3, 'excerpt: f.ts', 'x();\n'],
      [9, undefined, 'y();\n'],
    ]);
  });
});

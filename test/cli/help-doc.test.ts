/**
 * docs/cli.md holds what `--help` prints, word for word: each block is checked against the output of
 * `main` itself (console.log captured, no process spawned), so the page is the help and not a copy
 * of the strings it is made from.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, test, vi } from 'vitest';
import { loaders, main } from '../../src/cli/main.js';

const root = fileURLToPath(new URL('../../', import.meta.url));

afterEach(() => {
  vi.restoreAllMocks();
});

/** What `main(argv)` prints on stdout, and its exit status. */
async function printed(argv: string[]): Promise<{ code: number; out: string }> {
  const lines: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void lines.push(args.join(' ')));
  const code = await main(argv);
  vi.restoreAllMocks();
  return { code, out: lines.join('\n') };
}

/** The ```text blocks of docs/cli.md: the first is the command list, then one per command under its heading. */
function helpBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>();
  for (const [, heading, body] of markdown.matchAll(/(?:^## `mcp-resume-spec ([\w-]+)`\n\n)?^```text\n([\s\S]*?)\n```$/gm)) {
    blocks.set(heading ?? '', body!);
  }
  return blocks;
}

test('every block of docs/cli.md is what the command prints for --help, and every command has one', async () => {
  const blocks = helpBlocks(readFileSync(`${root}docs/cli.md`, 'utf8'));
  expect([...blocks.keys()]).toEqual(['', ...Object.keys(loaders)]);
  const top = await printed(['--help']);
  expect(top.code).toBe(0);
  expect(blocks.get('')).toBe(top.out);
  for (const name of Object.keys(loaders)) {
    const help = await printed([name, '--help']);
    expect(help.code, name).toBe(0);
    expect(blocks.get(name), name).toBe(help.out);
  }
}, 60_000);

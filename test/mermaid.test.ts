// @vitest-environment jsdom
/**
 * Every Mermaid block must parse with Mermaid's own parser (GitHub renders a parse error as an
 * error box): the committed docs (their staleness tests keep them equal to what the generators
 * write) and the Markdown reports the checker writes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import { mermaidStateDiagram, sessionBranches } from '../scripts/docs/model-doc.js';
import { renderMarkdown } from '../src/report/markdown.js';
import { nastyReport, sampleReport } from './report/sample.js';

// A string, not a URL: the jsdom environment replaces the global URL class.
const root = `${join(dirname(fileURLToPath(import.meta.url)), '..')}/`;

/** The bodies of the ```mermaid blocks of a Markdown text. */
function mermaidBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^(`{3,})mermaid\n([\s\S]*?)\n\1$/gm)].map((m) => m[2]!);
}

type Mermaid = typeof import('mermaid')['default'];
let mermaid: Mermaid;

beforeAll(async () => {
  mermaid = (await import('mermaid')).default;
  mermaid.initialize({ startOnLoad: false });
});

/** Parses every block; returns the first line of each parse error, with the block's index. */
async function parseErrors(markdown: string): Promise<string[]> {
  const errors: string[] = [];
  for (const [i, block] of mermaidBlocks(markdown).entries()) {
    try {
      await mermaid.parse(block);
    } catch (error) {
      errors.push(
        `block ${i + 1}: ${String((error as Error).message)
          .split('\n')
          .slice(0, 3)
          .join(' ')}`,
      );
    }
  }
  return errors;
}

const docs = [
  'README.md',
  ...readdirSync(`${root}docs`)
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

describe('Mermaid blocks parse', () => {
  test('the parser is real: it rejects the diagram docs/model.md used to carry', async () => {
    const broken = '```mermaid\nstateDiagram-v2\n  [*] --> a\n  note right of a: any other event: 400 not initialized\n```';
    expect(await parseErrors(broken)).toHaveLength(1);
    expect(await parseErrors(broken.replace('event: 400', 'event, 400'))).toEqual([]);
  });

  test("the session machine's state diagram, as the generator draws it now", async () => {
    const diagram = mermaidStateDiagram();
    expect(readFileSync(`${root}docs/model.md`, 'utf8')).toContain(diagram);
    await expect(mermaid.parse(diagram)).resolves.toMatchObject({ diagramType: 'stateDiagram' });
  });

  test.each(docs)('%s', async (file) => {
    expect(await parseErrors(readFileSync(root + file, 'utf8'))).toEqual([]);
  });

  test.each([
    ['a sample report', sampleReport],
    ['a report full of characters that need escaping', nastyReport],
  ])('the Markdown report: %s', async (_, report) => {
    const markdown = renderMarkdown(report());
    expect(mermaidBlocks(markdown).length).toBeGreaterThan(0);
    expect(await parseErrors(markdown)).toEqual([]);
  });
});

test("the state diagram labels each edge with its transition's meta.answer, not words cut out of its description", () => {
  const branches = sessionBranches();
  expect(branches.length).toBeGreaterThan(20);
  const diagram = mermaidStateDiagram();
  for (const b of branches.filter((b) => b.event !== '*')) {
    expect(b.answer.length, `${b.state} ${b.event}`).toBeGreaterThan(0);
    expect(diagram).toContain(`${b.event}${b.guard ? ` [${b.guard}]` : ''} ${b.answer.replace(/[:;]/g, ',')}`);
  }
  // A status with its reason stays whole where the description goes on past it.
  expect(branches.some((b) => b.answer === '404 unknown Last-Event-ID')).toBe(true);
});

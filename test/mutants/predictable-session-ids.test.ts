/** `predictable-session-ids`: session IDs are a counter, under both transports. */
import { expect, test } from 'vitest';
import { predictableSessionIds } from '../../src/check-server/mutants/index.js';
import { serveVariant, session, useCleanup } from './helpers.js';

useCleanup();

async function ids(variant: 'reference' | 'mutant'): Promise<string[]> {
  const server = await serveVariant(variant, predictableSessionIds);
  const found: string[] = [];
  for (const transport of ['streamable', 'streamable', 'sse', 'streamable'] as const) {
    found.push((await session(server, transport)).session.sessionId!);
  }
  return found;
}

test('reference: 128 random bits in hex, all different', async () => {
  const found = await ids('reference');
  for (const id of found) expect(id).toMatch(/^[0-9a-f]{32}$/);
  expect(new Set(found).size).toBe(found.length);
});

test('mutant: session-1, session-2, ...', async () => {
  expect(await ids('mutant')).toEqual(['session-1', 'session-2', 'session-3', 'session-4']);
});

/** `streamable-session-counter`: a counter for streamable HTTP session IDs, random UUIDs for legacy SSE ones. */
import { expect, test } from 'vitest';
import { streamableSessionCounter } from '../../src/check-server/mutants/index.js';
import { serveVariant, session, useCleanup } from './helpers.js';

useCleanup();

test('mutant: session-1, session-2, ... at /mcp, UUIDs at /sse', async () => {
  const server = await serveVariant('mutant', streamableSessionCounter);
  const found: string[] = [];
  for (const transport of ['streamable', 'sse', 'streamable', 'sse'] as const) found.push((await session(server, transport)).session.sessionId!);
  expect(found[0]).toBe('session-1');
  expect(found[2]).toBe('session-2');
  for (const id of [found[1], found[3]]) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

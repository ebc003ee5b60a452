/** `session-ids-with-space`: streamable HTTP session IDs with a space in them, random UUIDs for legacy SSE ones. */
import { expect, test } from 'vitest';
import { sessionIdsWithSpace } from '../../src/check-server/mutants/index.js';
import { serveVariant, session, useCleanup } from './helpers.js';

useCleanup();

test('mutant: a space inside each ID at /mcp (and the session still works), UUIDs at /sse', async () => {
  const server = await serveVariant('mutant', sessionIdsWithSpace);
  const streamable = await session(server, 'streamable');
  expect(streamable.session.sessionId).toMatch(/^[0-9a-f]{8} [0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  // The ID is served back as given: the session answers under it.
  expect((await (await streamable.ping()).response()).kind).toBe('response');
  const legacy = await session(server, 'sse');
  expect(legacy.session.sessionId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
});

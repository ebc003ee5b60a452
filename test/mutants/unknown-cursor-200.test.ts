/**
 * `unknown-cursor-200`: a cursor the session cannot place is answered 200 with a quiet stream, as
 * code; refusals for other reasons (a foreign transport, a terminated session) stay 404.
 */
import { expect, test } from 'vitest';
import { unknownCursor200 } from '../../src/check-server/mutants/index.js';
import { carried, serveVariant, session, stream, useCleanup, type Variant } from './helpers.js';

useCleanup();

test('reference: an unknown Last-Event-ID is 404', async () => {
  const server = await serveVariant('reference', unknownCursor200);
  const c = await session(server);
  expect(await c.resume({ lastEventId: 'no-such-event' })).toMatchObject({ kind: 'body', status: 404 });
});

test('mutant: an unknown Last-Event-ID is 200 with a stream that stays open and quiet', async () => {
  const server = await serveVariant('mutant' as Variant, unknownCursor200);
  expect(server.policy.server.unknownCursor).toBe('reject');
  const c = await session(server);
  const answer = await c.resume({ lastEventId: 'no-such-event' });
  expect(answer).toMatchObject({ kind: 'stream', status: 200 });
  expect(await carried(stream(answer))).toEqual({ frames: [], stream: 'open' });
});

test.each(['reference', 'mutant'] as const)('%s: a legacy cursor at /mcp and any cursor after DELETE are 404', async (variant) => {
  const server = await serveVariant(variant, unknownCursor200);
  const legacy = await session(server, 'sse');
  expect((await (await legacy.callTool('emit', { label: 'l', count: 1 })).response()).kind).toBe('response');
  expect(await legacy.resume({ from: legacy.session.legacyStream!, endpoint: 'mcp' })).toMatchObject({ kind: 'body', status: 404 });

  const c = await session(server);
  expect(await c.deleteSession()).toMatchObject({ kind: 'body', status: 200 });
  expect(await c.resume({ lastEventId: 'no-such-event' })).toMatchObject({ kind: 'body', status: 404 });
});

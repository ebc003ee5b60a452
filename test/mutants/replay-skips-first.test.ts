/**
 * `replay-skips-first`: a replay leaves out the first event after the cursor. On a POST stream the
 * next notification is lost; on the legacy stream a lost response leaves its request waiting.
 */
import { expect, test } from 'vitest';
import { replaySkipsFirst } from '../../src/check-server/mutants/index.js';
import { ARRIVES_MS, QUIET_MS, carried, dropAfter, serveVariant, session, stream, until, useCleanup, type Variant } from './helpers.js';

useCleanup();

test.each([
  ['reference', ['a2', 'a3', 'result a']],
  ['mutant', ['a3', 'result a']],
] as const)('%s: a POST stream dropped after notification 1 and resumed replays %j', async (variant, expected) => {
  const server = await serveVariant(variant as Variant, replaySkipsFirst);
  const c = await session(server);
  const dropped = await dropAfter(c, 'a', 3, 1);
  expect(await carried(stream(await c.resume({ from: dropped })))).toEqual({ frames: expected, stream: 'end' });
  expect(server.internalErrors).toEqual([]);
});

test.each([
  ['reference', 'response'],
  ['mutant', 'timeout'],
] as const)('%s: a response sent while the legacy stream was down, then resumed: %s', async (variant, expected) => {
  const server = await serveVariant(variant as Variant, replaySkipsFirst);
  const c = await session(server, 'sse');
  const legacy = c.session.legacyStream!;
  expect((await (await c.callTool('emit', { label: 'a', count: 1 })).response()).kind).toBe('response');
  legacy.drop();
  const held = server.sessions.get(c.session.sessionId!)!;
  await until(() => held.context.streams[0]?.connected === false, 'the server to see the drop');

  const call = await c.callTool('emit', { label: 'b', count: 0 });
  expect(call.answer).toMatchObject({ kind: 'body', status: 202 });
  const resumed = stream(await c.resume({ from: legacy }));
  const outcome = await c.awaitResponseOn(resumed, call.id, { timeoutMs: expected === 'response' ? ARRIVES_MS : QUIET_MS });
  expect(outcome.kind).toBe(expected);
  expect(resumed.state).toBe('open');
});

/**
 * `legacy-session-at-mcp`: a legacy session's cursor presented at /mcp resumes the legacy stream
 * there, and the session's later messages arrive on that /mcp response.
 */
import { expect, test } from 'vitest';
import { legacySessionAtMcp } from '../../src/check-server/mutants/index.js';
import { carried, serveVariant, session, stream, until, useCleanup, type Variant } from './helpers.js';

useCleanup();

/** A legacy session whose stream went down after `l` was answered, with `m` run meanwhile. */
async function legacyWithMissed(variant: Variant) {
  const server = await serveVariant(variant, legacySessionAtMcp);
  const c = await session(server, 'sse');
  const legacy = c.session.legacyStream!;
  expect((await (await c.callTool('emit', { label: 'l', count: 1 })).response()).kind).toBe('response');
  legacy.drop();
  const held = server.sessions.get(c.session.sessionId!)!;
  await until(() => held.context.streams[0]?.connected === false, 'the server to see the drop');
  expect((await c.callTool('emit', { label: 'm', count: 1 })).answer).toMatchObject({ kind: 'body', status: 202 });
  return { c, legacy };
}

test('reference: the legacy cursor at /mcp is 404', async () => {
  const { c, legacy } = await legacyWithMissed('reference');
  expect(await c.resume({ from: legacy, endpoint: 'mcp' })).toMatchObject({ kind: 'body', status: 404 });
});

test('mutant: the legacy cursor at /mcp replays the legacy stream there, which then carries the session', async () => {
  const { c, legacy } = await legacyWithMissed('mutant');
  const answer = await c.resume({ from: legacy, endpoint: 'mcp' });
  expect(answer).toMatchObject({ kind: 'stream', status: 200 });
  const atMcp = stream(answer);
  expect(await carried(atMcp)).toEqual({ frames: ['m1', 'result m'], stream: 'open' });
  // A legacy POST is now answered on the /mcp response.
  const ping = await c.ping();
  expect(ping.answer).toMatchObject({ kind: 'body', status: 202 });
  expect((await c.awaitResponseOn(atMcp, ping.id)).kind).toBe('response');
  // Only the resume handler bridges: a request at /mcp with the legacy session ID is still refused.
  expect((await c.ping({ transport: 'streamable' })).answer).toMatchObject({ kind: 'body', status: 404 });
});

/**
 * `rerun-on-resume`: a legacy session's call answered while its stream was down is run again when
 * the resume replays its result (same event ID, one more execution), and only once; the reference
 * replays the stored result.
 */
import { expect, test } from 'vitest';
import { toolJson } from '../../properties/messages.js';
import { rerunOnResume } from '../../src/check-server/mutants/index.js';
import { receive, serveVariant, session, show, stream, until, useCleanup, type Variant } from './helpers.js';

useCleanup();

test.each([
  ['reference', 1],
  ['mutant', 2],
] as const)('%s: the replay carries the result of the call made while the stream was down, reporting %i execution(s)', async (variant: Variant, executions) => {
  const server = await serveVariant(variant, rerunOnResume);
  const c = await session(server, 'sse');
  const legacy = c.session.legacyStream!;
  expect((await (await c.callTool('emit', { label: 'x', count: 0 })).response()).kind).toBe('response');
  legacy.drop();
  const held = server.sessions.get(c.session.sessionId!)!;
  await until(() => held.context.streams[0]?.connected === false, 'the server to see the drop');
  await c.callTool('emit', { label: 'b', count: 1 });
  const resumed = stream(await c.resume({ from: legacy }));
  const frames = await receive(resumed, 2);
  expect(frames.map(show)).toEqual(['b1', 'result b']);
  expect(toolJson(frames[1]!.message)).toEqual({ label: 'b', executions });
  // A second replay of the same result carries the same content: an event ID never names two.
  resumed.drop();
  await until(() => held.context.streams[0]?.connected === false, 'the server to see the drop');
  const again = stream(await c.resume({ from: legacy }));
  const replayed = await receive(again, 2);
  expect(replayed.map((f) => [f.id, f.data])).toEqual(frames.map((f) => [f.id, f.data]));
  expect(server.internalErrors).toEqual([]);
});

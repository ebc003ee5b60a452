/**
 * `replay-other-streams`: a replay also carries the other streams' events logged after the cursor.
 */
import { expect, test } from 'vitest';
import { replayOtherStreams } from '../../src/check-server/mutants/index.js';
import { carried, dropAfter, receiveUntil, serveVariant, session, show, stream, useCleanup, type Variant } from './helpers.js';

useCleanup();

test.each([
  ['reference', ['a2', 'result a']],
  ['mutant', ['a2', 'result a', 'b1', 'result b']],
] as const)('%s: stream a dropped after a1, stream b run meanwhile; resuming a replays %j', async (variant, expected) => {
  const server = await serveVariant(variant as Variant, replayOtherStreams);
  const c = await session(server);
  const a = await dropAfter(c, 'a', 2, 1);
  await receiveUntil(stream((await c.callTool('emit', { label: 'b', count: 1 })).answer), (f) => show(f) === 'result b');
  expect(await carried(stream(await c.resume({ from: a })))).toEqual({ frames: expected, stream: 'end' });
});

/**
 * `ids-reused-across-streams`: event IDs numbered per stream. A second POST stream reuses the first
 * one's IDs, and resuming it with its cursor replays the first stream instead.
 */
import { expect, test } from 'vitest';
import { idsReusedAcrossStreams } from '../../src/check-server/mutants/index.js';
import { carried, dropAfter, receiveUntil, serveVariant, session, show, stream, useCleanup, type Variant } from './helpers.js';

useCleanup();

test.each([
  ['reference', false, ['b2', 'result b']],
  ['mutant', true, ['a2', 'result a']],
] as const)("%s: stream b reuses stream a's IDs: %s; resuming b after b1 replays %j", async (variant, reused, expected) => {
  const server = await serveVariant(variant as Variant, idsReusedAcrossStreams);
  const c = await session(server);
  const a = await receiveUntil(stream((await c.callTool('emit', { label: 'a', count: 2 })).answer), (f) => show(f) === 'result a');
  const b = await dropAfter(c, 'b', 2, 1);
  const a1 = a.find((f) => show(f) === 'a1')!;
  expect(b.cursor === a1.id).toBe(reused);
  expect(await carried(stream(await c.resume({ from: b })))).toEqual({ frames: expected, stream: 'end' });
});

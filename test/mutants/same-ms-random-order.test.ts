/**
 * `same-ms-random-order`: the SDK example store's replay, sorted by `<stream>_<ms>_<random>` IDs.
 * With a frozen clock and chosen tiebreaks the scenario is deterministic: the stream's events sort
 * priming, x2, x1, x4, x3, result, so a replay after x1 sends x4, x3, result and never x2.
 */
import { expect, test } from 'vitest';
import { sameMsRandomOrder } from '../../src/check-server/mutants/index.js';
import { brief, carried, dropAfter, serve, serveVariant, session, stream, useCleanup, type Variant } from './helpers.js';

useCleanup();

const MS = 1_700_000_000_000;

/** Tiebreaks by event: priming first, then x2, x1, x4, x3, the result. */
function frozen() {
  const tiebreaks: Record<string, string> = { x1: 'c', x2: 'b', x3: 'e', x4: 'd', 'result x': 'f' };
  return sameMsRandomOrder({ now: () => MS, tiebreak: (event) => (event.opening ? 'a' : tiebreaks[brief(event.message) ?? '']!) });
}

test.each([
  ['reference', ['x2', 'x3', 'x4', 'result x']],
  ['mutant', ['x4', 'x3', 'result x']],
] as const)('%s: a POST stream of one millisecond, dropped after x1 and resumed, replays %j', async (variant, expected) => {
  const server = await serveVariant(variant as Variant, frozen);
  const c = await session(server);
  const dropped = await dropAfter(c, 'x', 4, 1);
  if (variant === 'mutant') expect(dropped.cursor).toMatch(new RegExp(`^[0-9a-f]{8}-r0_${MS}_c$`));
  else expect(dropped.cursor).toMatch(/^http:[0-9a-f]{8}-e2$/);
  expect(await carried(stream(await c.resume({ from: dropped })))).toEqual({ frames: expected, stream: 'end' });
});

test('the catalog mutant reads the clock and the random tiebreak as the SDK does', async () => {
  const server = await serve(sameMsRandomOrder());
  const c = await session(server);
  const dropped = await dropAfter(c, 'x', 2, 1);
  expect(dropped.cursor).toMatch(/^[0-9a-f]{8}-r0_\d{13}_[0-9a-z]{1,8}$/);
  const replay = await carried(stream(await c.resume({ from: dropped })));
  // Whatever the tiebreaks, the replay is the stream's events sorting after x1: a suffix of some order of them.
  expect(replay.stream).toBe('end');
  expect(replay.frames.every((f) => ['x2', 'result x'].includes(f))).toBe(true);
});

/**
 * The coverage plan's order and reuse: the targeted scenarios (stream kinds, stale cursor, missed
 * call) run before the shortest paths, and candidates alike share one plan.
 */
import { expect, test } from 'vitest';
import { planCoverage } from '../../src/check-server/coverage.js';
import { referenceClient } from '../../src/check-server/run-suite.js';
import type { CandidateAbilities } from '../../src/check-server/types.js';

const both: CandidateAbilities = {
  transports: ['streamable', 'sse'],
  fixtures: { emit: true, emitUnsolicited: true, sessionInfo: true },
  notes: [],
};

test('the targeted scenarios come first, then every maximal shortest path', () => {
  const plan = planCoverage(both, referenceClient);
  const targeted = [...new Set([...plan.streamKinds.keys(), ...plan.wider.keys()])].sort((a, b) => a - b);
  // three stream kinds, the stale-cursor and the missed-call scenario
  expect(targeted).toEqual([0, 1, 2, 3, 4]);
  expect(plan.fresh.slice(0, 5)).toEqual([0, 0, 0, 0, 0]);
  // every shortest path after them adds states no earlier one covered, and together they cover all
  expect(plan.fresh.slice(5).every((n) => n > 0)).toBe(true);
  expect(plan.fresh.reduce((a, b) => a + b, 0)).toBe(plan.states);
});

test('candidates alike share one plan; another transport set or client gets its own', () => {
  const plan = planCoverage(both, referenceClient);
  expect(planCoverage({ ...both, notes: ['other notes'] }, { ...referenceClient })).toBe(plan);
  const streamableOnly = planCoverage({ ...both, transports: ['streamable'] }, referenceClient);
  expect(streamableOnly).not.toBe(plan);
  expect([...streamableOnly.streamKinds.values()]).not.toContain('legacy');
  expect(planCoverage(both, { ...referenceClient, dedup: !referenceClient.dedup })).not.toBe(plan);
});

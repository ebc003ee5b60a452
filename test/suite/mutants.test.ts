/**
 * An exact catalog: every mutant fails exactly its `breaks`, no more and no less, checked as the
 * CLI checks by default (`defaultRuns` interleavings). Every other property passes or skips.
 * Here one of the catalog's seeds per mutant (taken in turn, so each seed is used); `npm run deep`
 * checks every mutant with every seed.
 */
import { describe, expect, test } from 'vitest';
import { propertyIds } from '../../model/property-ids.js';
import { catalogSeeds, findBroken, type Found } from '../../src/mutants/found.js';
import { mutants } from '../../src/mutants/index.js';
import type { Mutant } from '../../src/mutants/mutant.js';

/**
 * Checks in flight at once. Most of a check's time is spent waiting on quiet streams (a stall is
 * only concluded after a full wait), so this file runs more of them side by side than vitest's
 * `maxConcurrency` would; each test then awaits its own mutant's check.
 */
const width = 5;
const queue: Array<() => void> = [];
let running = 0;
const checks = new Map<string, Promise<Found>>();

/** The check of `mutant` with `seed`, started at most once and at most `width` at a time. */
function check(mutant: Mutant, seed: number): Promise<Found> {
  let found = checks.get(mutant.name);
  if (!found) {
    found = new Promise<void>((go) => (running < width ? (running++, go()) : queue.push(() => go()))).then(() =>
      findBroken(mutant, seed).finally(() => {
        const next = queue.shift();
        if (next) next();
        else running--;
      }),
    );
    // Awaited by its test; marked handled here so a failure before then is not an unhandled rejection.
    found.catch(() => undefined);
    checks.set(mutant.name, found);
  }
  return found;
}

const seedOf = (i: number) => catalogSeeds[i % catalogSeeds.length]!;
// Started together when the file loads, so the queue stays full whichever tests vitest runs first.
mutants.forEach((m, i) => void check(m, seedOf(i)));

test('the catalog has three seeds', () => {
  expect(catalogSeeds).toHaveLength(3);
});

describe.concurrent('each mutant, at the default run count', () => {
  test.each(mutants.map((m, i) => [m.name, m, seedOf(i)] as const))(
    '%s: fails exactly what it breaks',
    async (name, mutant, seed) => {
      const { failed, report } = await check(mutant, seed);
      const why = report.properties.map((p) => `${p.id}: ${p.status} (${p.reason})`).join('\n');
      expect(failed, `${name}, seed ${seed}:\n${why}`).toEqual([...mutant.breaks].sort());
      for (const p of report.properties) {
        if (p.status === 'fail') expect(p.counterexample!.steps.length, p.id).toBeGreaterThan(0);
        else expect(['pass', 'skip']).toContain(p.status);
      }
      expect(report.properties.map((p) => p.id)).toEqual([...propertyIds]);
    },
    240_000,
  );
});

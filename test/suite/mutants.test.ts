/**
 * An exact catalog: every mutant fails exactly its `breaks`, no more and no less, checked as the
 * CLI checks by default (`defaultRuns` interleavings). Every other property passes or skips.
 * Here one of the catalog's seeds per mutant (taken in turn, so each seed is used); `npm run deep`
 * checks every mutant with every seed.
 */
import { describe, expect, test } from 'vitest';
import { propertyIds } from '../../model/property-ids.js';
import { catalogSeeds, findBroken } from '../../src/mutants/found.js';
import { mutants } from '../../src/mutants/index.js';

test('the catalog has three seeds', () => {
  expect(catalogSeeds).toHaveLength(3);
});

// Mutants run side by side (vitest's maxConcurrency): most of their time is spent waiting on quiet streams.
describe.concurrent('each mutant, at the default run count', () => {
  test.each(mutants.map((m, i) => [m.name, m, catalogSeeds[i % catalogSeeds.length]!] as const))(
    '%s: fails exactly what it breaks',
    async (name, mutant, seed) => {
      const { failed, report } = await findBroken(mutant, seed);
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

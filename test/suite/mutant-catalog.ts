/**
 * An exact catalog: every mutant fails exactly its `breaks`, no more and no less, checked as the
 * CLI checks by default (`defaultRuns` interleavings), but with waits of 1 s, not 2: a stall is
 * concluded after a full wait, and these checks are much of `npm test`'s time. The waits count only
 * time the checker could attend to (src/wire/patient-timer.ts), so a loaded machine does not make
 * an answer late; `npm run deep` checks with the CLI's own 2 s. Every other property passes or skips.
 * `npm test` checks each mutant with one of the catalog's seeds, taken in turn so each seed is used,
 * one file per seed (`mutants-seed-N.test.ts`) so that vitest's workers share the work; `npm run deep`
 * checks every mutant with every seed.
 */
import { describe, expect, test } from 'vitest';
import { propertyIds } from '../../model/property-ids.js';
import { catalogSeeds, findBroken, type Found } from '../../src/check-server/mutants/found.js';
import { mutants } from '../../src/check-server/mutants/index.js';
import type { Mutant } from '../../src/check-server/mutants/mutant.js';

/** The bound of every wait of the catalog's checks in `npm test` (see the module comment). */
const catalogWaitMs = 1000;

/** The mutants `npm test` checks with `seed`: every third one, so that the three seeds share them. */
export function mutantsCheckedWith(seed: number): Mutant[] {
  const turn = catalogSeeds.indexOf(seed);
  if (turn < 0) throw new Error(`seed ${seed} is not one of the catalog's seeds (${catalogSeeds.join(', ')})`);
  return mutants.filter((_, i) => i % catalogSeeds.length === turn);
}

/**
 * Declares one test per mutant checked with `seed`. The checks are queued when the file loads,
 * `width` at a time: most of a check's time is spent waiting on quiet streams (a stall is only
 * concluded after a full wait), so several run side by side whichever test vitest awaits first;
 * more would crowd the event loop that the checks share with the mutants they check.
 */
export function describeCatalogWith(seed: number, width = 3): void {
  const checked = mutantsCheckedWith(seed);
  const checks = new Map<string, Promise<Found>>();
  let running = 0;
  const waiting: Array<() => void> = [];
  const slot = (): Promise<void> =>
    new Promise((go) => {
      if (running < width) {
        running++;
        go();
      } else waiting.push(go);
    });
  const release = (): void => {
    const next = waiting.shift();
    if (next) next();
    else running--;
  };
  for (const mutant of checked) {
    const found = slot().then(() => findBroken(mutant, seed, catalogWaitMs).finally(release));
    // Awaited by its test; marked handled here so a failure before then is not an unhandled rejection.
    found.catch(() => undefined);
    checks.set(mutant.name, found);
  }

  describe.concurrent(`each mutant checked with seed ${seed}, at the default run count`, () => {
    test.each(checked.map((m) => [m.name, m] as const))(
      '%s: fails exactly what it breaks',
      async (name, mutant) => {
        const { failed, report } = await checks.get(name)!;
        const why = report.properties.map((p) => `${p.id}: ${p.status} (${p.reason})`).join('\n');
        expect(failed, `${name}, seed ${seed}:\n${why}`).toEqual([...mutant.breaks].sort());
        for (const p of report.properties) {
          if (p.status === 'fail') expect(p.counterexample!.steps.length, p.id).toBeGreaterThan(0);
          else expect(['pass', 'skip']).toContain(p.status);
          // A verdict names a stream as its trace does (`stream r1`), never by the recorder's connection number.
          const reason = p.reason ?? '';
          expect(reason, p.id).not.toMatch(/connection \d/);
          const streams = new Set(p.counterexample?.steps.map((s) => s.stream));
          for (const [, stream] of reason.matchAll(/\bstream ([rsl]\d+)\b/g)) expect(streams, `${p.id}: ${reason}`).toContain(stream);
        }
        expect(report.properties.map((p) => p.id)).toEqual([...propertyIds]);
      },
      240_000,
    );
  });
}

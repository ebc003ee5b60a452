/**
 * What the suite finds broken on a mutant, checked as the CLI checks by default (its run count):
 * the measure a mutant's `breaks` must equal, for each of the catalog's seeds. `npm test` checks
 * one seed per mutant (test/suite/mutants-seed-N.test.ts), `npm run deep` all of them (scripts/deep.ts).
 */
import type { PropertyId } from '../../../model/property-ids.js';
import { defaultRuns, runSuite } from '../run-suite.js';
import type { SuiteReport } from '../types.js';
import type { Mutant } from './mutant.js';

/** The fast-check seeds each mutant's `breaks` is measured with. */
export const catalogSeeds: readonly number[] = Object.freeze([1, 2, 3]);

/** One mutant checked with one seed: what failed, and the report. */
export interface Found {
  failed: PropertyId[];
  report: SuiteReport;
}

/**
 * Starts `mutant`, checks it at the CLI's default run count with `seed`, stops it.
 *
 * @param timeoutMs - bound of every wait (a stall is concluded only after one): the CLI's default; on
 *   a loaded machine the checker's waits lengthen by themselves (src/wire/patient-timer.ts)
 */
export async function findBroken(mutant: Mutant, seed: number, timeoutMs = 2000): Promise<Found> {
  const candidate = await mutant.start();
  try {
    // Shrinking changes which trace is printed, never which property fails: a token budget.
    const report = await runSuite({ name: mutant.name, url: candidate.url }, { runs: defaultRuns, seed, timeoutMs, shrinkMs: 1, maxMs: 600_000 });
    const failed = report.properties.filter((p) => p.status === 'fail').map((p) => p.id);
    return { failed: failed.sort(), report };
  } finally {
    await candidate.stop();
  }
}

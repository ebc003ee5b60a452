/**
 * Starts the files that take longest first, whatever vitest's cache holds: on a clean clone (as in
 * CI) vitest has no durations and orders by file size, which put the small files that run the
 * mutant catalog last, so that one worker ran them alone at the end. Measured with
 * `npx vitest run --reporter=json`; an unlisted or renamed file only loses its head start.
 */
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Longest first; paths relative to the repository. */
export const slowFirst: readonly string[] = [
  // The three catalog files alternate with other long files, so that both workers rarely run
  // mutant checks at once.
  'test/suite/shortest-witness.test.ts',
  'test/suite/mutants-seed-2.test.ts',
  'test/replicas/replicas.test.ts',
  'test/suite/mutants-seed-1.test.ts',
  'test/candidates-doc.test.ts',
  'test/suite/mutants-seed-3.test.ts',
  'test/candidates/variants.test.ts',
  'test/client-check/clients.test.ts',
  'test/event-store/sdk-candidates.test.ts',
  'test/report/adapter-loader.test.ts',
  'test/cli/check.test.ts',
  'test/suite/replay.test.ts',
  'test/candidates/plain-server.test.ts',
  'test/candidates/python.test.ts',
  'test/install/ensure.test.ts',
  'test/pack/install.test.ts',
];

export default class SlowFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    const rank = (spec: TestSpecification): number => {
      const i = slowFirst.findIndex((path) => spec.moduleId.endsWith(`/${path}`));
      return i < 0 ? slowFirst.length : i;
    };
    // Array.prototype.sort is stable: the rest keep vitest's own order.
    return sorted.sort((a, b) => rank(a) - rank(b));
  }
}

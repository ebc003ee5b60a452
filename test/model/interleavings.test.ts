/**
 * fast-check beyond the exhaustive bounds: longer interleavings of the same world, every
 * invariant checked after every step. Fixed seeds here; `npm run deep` uses random ones.
 */
import { describe, expect, test } from 'vitest';
import { explore } from '../../model/explore.js';
import { mutants, policies, reference, safeVariants } from '../../model/policy.js';
import { parseBounds } from '../../model/bounds.js';
import { checkInterleavings, interleavingBounds } from '../../properties/model-interleavings.js';
import { violatedInvariants } from '../../model/invariants.js';
import { replay } from '../../model/trace.js';

const seed = 20261130;

describe('fast-check interleavings of the model', () => {
  test('the interleavings go past the exhaustive bounds', () => {
    expect(interleavingBounds.calls).toBeGreaterThan(2);
    expect(interleavingBounds.drops).toBeGreaterThan(2);
    expect(interleavingBounds.resumes).toBeGreaterThan(2);
  });

  test('reference: 300 runs, every invariant holds after every step', () => {
    const report = checkInterleavings({ policy: reference, numRuns: 300, seed });
    expect(report.failed).toBe(false);
    expect(report.numRuns).toBe(300);
    // Runs that did nothing would pass vacuously: they must be long, and longer than exploration's paths.
    expect(report.longestRun).toBeGreaterThan(40);
    expect(report.totalSteps).toBeGreaterThan(300 * 10);
  });

  test.each(Object.keys(safeVariants))('safe variant %s: 150 runs hold', (name) => {
    expect(checkInterleavings({ policy: safeVariants[name]!, numRuns: 150, seed }).failed).toBe(false);
  });

  test.each(['seed-000', 'seed-003', ...Object.keys(mutants)])('%s: a violation, shrunk near the shortest path, replayable from {seed, path}', (name) => {
    const policy = policies[name]!;
    const report = checkInterleavings({ policy, numRuns: 300, seed });
    expect(report.failed).toBe(true);
    const violation = report.violation!;
    // The shrunk steps reproduce the violation when replayed on their own.
    const steps = replay(policy, interleavingBounds, report.steps!);
    expect(violatedInvariants(steps.at(-1)!.world).map((v) => v.property)).toContain(violation.property);
    // No shrunk counterexample is shorter than what exhaustive exploration proves minimal.
    const shortest = explore({ policy, bounds: parseBounds('calls=2,notifications=1,drops=1,resumes=1') }).violations.find(
      (v) => v.property === violation.property,
    );
    if (shortest) expect(report.steps!.length).toBeGreaterThanOrEqual(shortest.path.length);
    expect(report.steps!.length).toBeLessThanOrEqual(20);
    // {seed, path} replays the counterexample in one run.
    const again = checkInterleavings({ policy, seed: report.seed, path: report.counterexamplePath! });
    expect(again.failed).toBe(true);
    expect(again.numRuns).toBe(1);
    expect(again.steps).toEqual(report.steps);
  });
});

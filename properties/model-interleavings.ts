/**
 * Interleavings beyond the exhaustive bounds: fast-check drives the model's world in-process
 * with long sequences of steps (calls, sends, receives, drains, drops, resumes, migrations,
 * re-initializations, timeouts) and checks every invariant after every step. A failure shrinks
 * to a minimal sequence and is reported with its numbered trace.
 */
import fc from 'fast-check';
import { defaultBounds, type Bounds } from '../model/bounds.js';
import { violatedInvariants } from '../model/invariants.js';
import type { Policy } from '../model/policy.js';
import type { PropertyId } from '../model/property-ids.js';
import { describeStep, formatTrace, replay } from '../model/trace.js';
import { enabledSteps } from '../model/world-steps.js';
import type { World, WorldStep } from '../model/world-types.js';
import { initialWorld, step } from '../model/world.js';

/** Bounds for in-process runs: well past what exhaustive exploration can enumerate. */
export const interleavingBounds: Bounds = {
  ...defaultBounds,
  calls: 4,
  notifications: 3,
  drops: 4,
  resumes: 4,
  reinitializes: 2,
  retries: 2,
  deletes: 1,
  unsolicited: 2,
  inFlight: 2,
  undrained: 3,
};

/** The world a command sequence drives, plus the steps taken so far (for the trace). */
export interface WorldRun {
  world: World;
  taken: WorldStep[];
}

/** Thrown when an invariant fails; carries what the report needs. */
export class InvariantViolation extends Error {
  override name = 'InvariantViolation';
  constructor(
    readonly property: PropertyId,
    readonly detail: string,
    readonly path: WorldStep[],
    trace: string,
  ) {
    super(`${property}: ${detail}\n${trace}`);
  }
}

type Kind = WorldStep['type'];

/** Traffic steps are likelier than disruptions, so runs live long enough to pile disruptions up. */
const kindWeights: Record<Kind, number> = {
  INITIALIZE: 1,
  CALL: 2,
  SEND: 4,
  RECEIVE: 4,
  DRAIN: 4,
  DROP: 1,
  RESUME: 2,
  TIMEOUT: 1,
  DELETE: 1,
  EXPIRE: 1,
  TRIM: 1,
};

/**
 * One choice: a kind of step among those enabled, then one step of that kind. Choosing the kind
 * first keeps runs balanced (resumes have six variants per stream; a drain has one).
 */
export type Choice = readonly [kind: number, item: number];

/** Applies choices in turn, checking every invariant after every step; stops when nothing is enabled. */
function runChoices(policy: Policy, bounds: Bounds, choices: readonly Choice[]): WorldRun {
  const run: WorldRun = { world: initialWorld({ policy, bounds }), taken: [] };
  for (const [kindChoice, itemChoice] of choices) {
    const enabled = enabledSteps(run.world);
    if (enabled.length === 0) break;
    const kinds = [...new Set(enabled.map((s) => s.type))].flatMap((k) => Array<Kind>(kindWeights[k]).fill(k));
    const kind = kinds[kindChoice % kinds.length]!;
    const ofKind = enabled.filter((s) => s.type === kind);
    const next = ofKind[itemChoice % ofKind.length]!;
    run.world = step(run.world, next);
    run.taken.push(next);
    const [violation] = violatedInvariants(run.world);
    if (violation) {
      throw new InvariantViolation(violation.property, violation.message, [...run.taken], formatTrace(replay(policy, bounds, run.taken)));
    }
  }
  return run;
}

/** Sequences of choices, up to `maxSteps` long, lengths spread over the whole range. */
function choiceSequences(maxSteps = 120): fc.Arbitrary<Choice[]> {
  return fc.array(fc.tuple(fc.nat({ max: 63 }), fc.nat({ max: 15 })), { minLength: 1, maxLength: maxSteps, size: 'max' });
}

export interface InterleavingOptions {
  policy: Policy;
  bounds?: Bounds;
  numRuns?: number;
  seed?: number;
  path?: string;
  maxSteps?: number;
}

export interface InterleavingReport {
  failed: boolean;
  numRuns: number;
  /** Steps taken in the longest run (runs stop when nothing is enabled). */
  longestRun: number;
  /** Steps taken over all runs. */
  totalSteps: number;
  seed: number;
  /** fast-check's replay path of the shrunk counterexample. */
  counterexamplePath?: string;
  violation?: InvariantViolation;
  /** The shrunk sequence of concrete steps. */
  steps?: WorldStep[];
  /** One sentence per step of the shrunk sequence. */
  trace?: string;
}

/** Runs fast-check over world interleavings and reports the (shrunk) first violation. */
export function checkInterleavings(options: InterleavingOptions): InterleavingReport {
  const bounds = options.bounds ?? interleavingBounds;
  let longestRun = 0;
  let totalSteps = 0;
  const property = fc.property(choiceSequences(options.maxSteps), (choices) => {
    const run = runChoices(options.policy, bounds, choices);
    longestRun = Math.max(longestRun, run.taken.length);
    totalSteps += run.taken.length;
  });
  const details = fc.check(property, {
    numRuns: options.numRuns ?? 200,
    ...(options.seed !== undefined ? { seed: options.seed } : {}),
    ...(options.path !== undefined ? { path: options.path, endOnFailure: true } : {}),
  });
  const report: InterleavingReport = { failed: details.failed, numRuns: details.numRuns, seed: details.seed, longestRun, totalSteps };
  if (!details.failed) return report;
  report.counterexamplePath = details.counterexamplePath ?? undefined;
  const error = details.errorInstance;
  if (error instanceof InvariantViolation) {
    report.violation = error;
    report.steps = error.path;
    let world = initialWorld({ policy: options.policy, bounds });
    report.trace = error.path
      .map((s, i) => {
        const line = `${i + 1}. ${describeStep(world, s)}`;
        world = step(world, s);
        return line;
      })
      .join('\n');
  }
  return report;
}

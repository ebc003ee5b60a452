/** Runs one scenario against the candidate with a fresh driver and returns its record. */
import type { Bounds } from '../../model/bounds.js';
import type { WorldStep } from '../../model/world-types.js';
import { ScenarioDriver } from './driver.js';
import type { CandidateAbilities, CandidateTarget, ClientSettings } from './types.js';
import type { ScenarioRecord } from './verdicts.js';

export interface ScenarioContext {
  target: CandidateTarget;
  abilities: CandidateAbilities;
  client: ClientSettings;
  timeoutMs: number;
  /** Unique per suite run, so tool-call labels never repeat across runs on one server. */
  runTag: string;
  /**
   * Requests left waiting so far in this suite. Once one is seen, later scenarios wait less for
   * unanswered requests: the stall is already established, and a quiet candidate would
   * otherwise cost a full bound per scenario.
   */
  stalls: number;
}

/** How long to wait for an unanswered request when settling. */
export function settleWait(context: ScenarioContext): number {
  return context.stalls > 0 ? Math.min(context.timeoutMs, 30) : context.timeoutMs;
}

let scenarioCounter = 0;

/** A fresh driver for one scenario. */
export function newDriver(context: ScenarioContext, bounds: Bounds): ScenarioDriver {
  return new ScenarioDriver({
    target: context.target,
    abilities: context.abilities,
    client: context.client,
    bounds,
    timeoutMs: context.timeoutMs,
    labelPrefix: `${context.runTag}-${++scenarioCounter}-`,
    settleWaitMs: () => settleWait(context),
  });
}

/** Drives `steps` (stopping early if the candidate diverges), settles, and records. */
export async function runSteps(
  context: ScenarioContext,
  bounds: Bounds,
  steps: readonly WorldStep[],
  name: { seed: number; path: string },
): Promise<ScenarioRecord & { applied: number }> {
  const driver = newDriver(context, bounds);
  let applied = 0;
  try {
    for (const step of steps) {
      if (driver.stopped !== undefined) break;
      await driver.apply(step);
      if (driver.stopped === undefined) applied++;
    }
    await driver.settle();
  } finally {
    driver.close();
    context.stalls += driver.stalls;
  }
  return { history: driver.history, steps: driver.steps, oracle: driver.oracle, ...name, applied };
}

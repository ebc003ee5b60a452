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
  });
}

/**
 * Drives `steps` (where the candidate diverges, going on with the steps the model can still
 * follow), settles, and records. `followed` counts the steps of `steps` done in lockstep with the
 * model before anything was left out or diverged.
 */
export async function runSteps(
  context: ScenarioContext,
  bounds: Bounds,
  steps: readonly WorldStep[],
  name: { seed: number; path: string },
): Promise<ScenarioRecord & { followed: number }> {
  const driver = newDriver(context, bounds);
  let followed = 0;
  let inStep = true;
  try {
    for (const step of steps) {
      const done = await driver.apply(step);
      inStep &&= done && driver.firstDivergence === undefined;
      if (inStep) followed++;
    }
    await driver.settle();
  } finally {
    driver.close();
  }
  return { history: driver.history, steps: driver.steps, ...name, followed };
}

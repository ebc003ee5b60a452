/**
 * The previous exploration engine, kept as the yardstick for `explore`: xstate/graph's
 * `getShortestPaths` over the world machine, every invariant checked on every state.
 */
import { getShortestPaths } from 'xstate/graph';
import { ExplorationBudgetExceeded, type ExploreOptions, type ExploreResult, type ModelViolation, type SignatureMatch } from './explore.js';
import { violatedInvariants } from './invariants.js';
import type { PropertyId } from './property-ids.js';
import { worldKey } from './world-key.js';
import { worldMachine } from './world-machine.js';
import { enabledSteps } from './world-steps.js';
import type { World, WorldStep } from './world-types.js';

/**
 * Explores every state of the world reachable within the bounds, by xstate/graph's
 * `getShortestPaths` over the world machine. This was the engine before `explore`'s own search;
 * it stays as the yardstick: tests assert both find the same states and verdicts, and
 * `npm run bench` measures the ratio.
 */
export function exploreWithGraph(options: ExploreOptions): ExploreResult {
  const maxStates = options.maxStates ?? 2_000_000;
  const maxMs = options.maxMs ?? 120_000;
  const started = performance.now();
  let states = 0;
  let transitions = 0;
  const paths = getShortestPaths(worldMachine, {
    input: { policy: options.policy, bounds: options.bounds },
    ...(options.fromWorld ? { fromState: worldMachine.resolveState({ value: {}, context: options.fromWorld }) } : {}),
    serializeState: (snapshot) => worldKey(snapshot.context as World),
    events: (snapshot) => {
      // Called once per distinct state, so it counts them and enforces the budgets.
      states++;
      if (states > maxStates) {
        throw new ExplorationBudgetExceeded(`more than ${maxStates} states: lower the bounds`);
      }
      if ((states & 1023) === 0 && performance.now() - started > maxMs) {
        throw new ExplorationBudgetExceeded(`still exploring after ${Math.round(maxMs / 1000)} s (${states} states): lower the bounds`);
      }
      options.visit?.(snapshot.context as World);
      const steps = enabledSteps(snapshot.context as World);
      transitions += steps.length;
      return steps;
    },
  });
  const best = new Map<PropertyId, ModelViolation>();
  const matches: Record<string, SignatureMatch> = {};
  const signatures = Object.entries(options.signatures ?? {});
  const pathOf = (path: (typeof paths)[number]) => path.steps.slice(1).map((s) => s.event as WorldStep);
  for (const path of paths) {
    const world = path.state.context as World;
    for (const { property, message } of violatedInvariants(world)) {
      const known = best.get(property);
      if (!known || path.weight < known.path.length) best.set(property, { property, message, path: pathOf(path), world });
    }
    for (const [name, accepts] of signatures) {
      const known = matches[name];
      if ((!known || path.weight < known.path.length) && accepts(world)) matches[name] = { name, path: pathOf(path), world };
    }
  }
  return {
    states,
    transitions,
    ms: performance.now() - started,
    violations: [...best.values()].sort((a, b) => a.path.length - b.path.length),
    matches,
  };
}

/**
 * Exhaustive exploration of the bounded world with xstate/graph: every reachable state is
 * visited, every invariant checked on it, and each violated property reported with its
 * shortest path from the initial world.
 */
import { getShortestPaths } from 'xstate/graph';
import type { Bounds } from './bounds.js';
import { violatedInvariants } from './invariants.js';
import type { Policy } from './policy.js';
import type { PropertyId } from './property-ids.js';
import { worldKey } from './world-key.js';
import { worldMachine } from './world-machine.js';
import { enabledSteps } from './world-steps.js';
import type { World, WorldStep } from './world-types.js';

/** A property violated somewhere in the world, with the shortest way there. */
export interface ModelViolation {
  property: PropertyId;
  message: string;
  /** The steps from the initial world to the first state found violating the property. */
  path: WorldStep[];
  world: World;
}

export interface ExploreOptions {
  policy: Policy;
  bounds: Bounds;
  /** Stop with an error past this many distinct states (default 2,000,000). */
  maxStates?: number;
  /** Stop with an error past this many milliseconds (default 120,000). */
  maxMs?: number;
  /** Only report worlds for which this holds (e.g. a seed's signature); all invariants apply. */
  where?: (world: World, property: PropertyId) => boolean;
}

export interface ExploreResult {
  states: number;
  transitions: number;
  ms: number;
  /** One violation per property: the shortest path to a state that breaks it. */
  violations: ModelViolation[];
}

/** Thrown when exploration would exceed its state or time budget: the bounds are too large. */
export class ExplorationBudgetExceeded extends Error {
  override name = 'ExplorationBudgetExceeded';
}

/**
 * Explores every state of the world reachable within the bounds.
 *
 * @example
 * ```ts
 * const { states, violations } = explore({ policy: reference, bounds: defaultBounds });
 * ```
 */
export function explore(options: ExploreOptions): ExploreResult {
  const maxStates = options.maxStates ?? 2_000_000;
  const maxMs = options.maxMs ?? 120_000;
  const started = performance.now();
  let states = 0;
  let transitions = 0;
  const paths = getShortestPaths(worldMachine, {
    input: { policy: options.policy, bounds: options.bounds },
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
      const steps = enabledSteps(snapshot.context as World);
      transitions += steps.length;
      return steps;
    },
  });
  const best = new Map<PropertyId, ModelViolation>();
  for (const path of paths) {
    const world = path.state.context as World;
    for (const { property, message } of violatedInvariants(world)) {
      if (options.where && !options.where(world, property)) continue;
      const steps = path.steps.slice(1).map((s) => s.event as WorldStep);
      const known = best.get(property);
      if (!known || steps.length < known.path.length) best.set(property, { property, message, path: steps, world });
    }
  }
  return {
    states,
    transitions,
    ms: performance.now() - started,
    violations: [...best.values()].sort((a, b) => a.path.length - b.path.length),
  };
}

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
  /**
   * Named predicates over worlds (e.g. an incident's signature): for each, the shortest path to
   * a world that satisfies it is reported in `matches`.
   */
  signatures?: Record<string, (world: World) => boolean>;
  /** Start from this world instead of the initial one (paths are then relative to it). */
  fromWorld?: World;
  /** Called once with every distinct reachable world (e.g. to count situations across the state space). */
  visit?: (world: World) => void;
}

/** The shortest path to a world a signature predicate accepts. */
export interface SignatureMatch {
  name: string;
  path: WorldStep[];
  world: World;
}

export interface ExploreResult {
  states: number;
  transitions: number;
  ms: number;
  /** One violation per property: the shortest path to a state that breaks it. */
  violations: ModelViolation[];
  /** One match per signature that some reachable world satisfies. */
  matches: Record<string, SignatureMatch>;
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

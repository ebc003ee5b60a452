/**
 * Exhaustive exploration of the bounded world: every state reachable within the bounds, keyed by
 * `worldKey`, every invariant checked on every state, and each violated property reported with
 * its shortest path from the initial world.
 *
 * States are found depth-first: the worlds found and not yet expanded sit on a stack a few dozen
 * deep, where a breadth-first queue holds thousands, so most worlds die young and the collector
 * copies and promotes little. What is kept per state is numbers: its fingerprint, its successors
 * (state, step) in the order `enabledSteps` offers them, and which properties it violates. When
 * some property is violated, or signatures are asked for, a breadth-first pass over those numbers
 * gives each violated property the state and path a breadth-first search of worlds would report
 * first (the path is replayed to rebuild its world), and each signature its first accepting world
 * in that order (see `signatureMatches`).
 * xstate/graph's traversal of the world machine (`exploreWithGraph`) finds the same states and
 * verdicts and remains the yardstick in the tests and the bench.
 */
import type { Bounds } from './bounds.js';
import { violatedInvariants } from './invariants.js';
import type { Policy } from './policy.js';
import { propertyIds, type PropertyId } from './property-ids.js';
import { forgetSessionMemo } from './session-step.js';
import { FingerprintSink } from './explore-fingerprint.js';
import { SuccessorGraph, type BreadthFirstTree } from './explore-paths.js';
import { ExactTable, FingerprintTable, Ints, StepTable, type SeenTable } from './explore-tables.js';
import type { KeyParts } from './world-fingerprint.js';
import { enabledSteps } from './world-steps.js';
import type { World, WorldStep } from './world-types.js';
import { initialWorld, step as takeStep } from './world.js';

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
  /** `fingerprint` (default): states are told apart by a 64-bit fingerprint of their key; `exact`: by the whole key. */
  keys?: 'fingerprint' | 'exact';
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
  /** The most worlds found and not yet expanded at once (the deepest the stack went); xstate/graph's traversal holds every state. */
  widest?: number;
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
 * A 64-bit fingerprint of a state key taken as one part (two 32-bit FNV-1a variants, mixed),
 * as a 4-character string. Two distinct keys share a fingerprint with probability about
 * n^2 / 2^65 (under 1e-8 for a million states); `keys: 'exact'` keeps whole keys, and the tests
 * compare both with xstate/graph's traversal.
 */
export function fingerprint(key: string): string {
  sink.reset().add(key);
  const { a, b } = sink;
  return String.fromCharCode(a >>> 16, a & 0xffff, b >>> 16, b & 0xffff);
}

const sink = new FingerprintSink();

/**
 * Explores every state of the world reachable within the bounds.
 *
 * @example
 * ```ts
 * const { states, violations } = explore({ policy: reference, bounds: defaultBounds });
 * ```
 */
export function explore(options: ExploreOptions): ExploreResult {
  try {
    return search(options);
  } finally {
    forgetSessionMemo();
  }
}

function search(options: ExploreOptions): ExploreResult {
  const maxStates = options.maxStates ?? 2_000_000;
  const maxMs = options.maxMs ?? 120_000;
  const started = performance.now();
  const initial = options.fromWorld ?? initialWorld({ policy: options.policy, bounds: options.bounds });
  const seen: SeenTable = options.keys === 'exact' ? new ExactTable() : new FingerprintTable();
  const graph = new SuccessorGraph();
  const table = new StepTable();
  // Per state, bit i: the i-th property in `propertyIds` is violated there.
  const violated = new Ints();
  seen.getOrAdd(initial, 0);
  // Worlds found and not yet expanded, with their key parts: depth-first, so a few dozen at a time.
  const stack: World[] = [initial];
  const stackParts: Array<KeyParts | undefined> = [seen.keepParts()];
  const stackIds: number[] = [0];
  let transitions = 0;
  let expanded = 0;
  let widest = 0;
  const budget = () => {
    if (performance.now() - started > maxMs) {
      throw new ExplorationBudgetExceeded(`still exploring after ${Math.round(maxMs / 1000)} s (${expanded} states): lower the bounds`);
    }
  };
  while (stack.length > 0) {
    if (stack.length > widest) widest = stack.length;
    const world = stack.pop()!;
    const parts = stackParts.pop();
    const id = stackIds.pop()!;
    if (seen.size > maxStates) throw new ExplorationBudgetExceeded(`more than ${maxStates} states: lower the bounds`);
    if ((++expanded & 1023) === 0) budget();
    options.visit?.(world);
    let bits = 0;
    for (const { property } of violatedInvariants(world)) bits |= 1 << propertyIds.indexOf(property);
    if (bits !== 0) violated.put(id, bits);
    const steps = enabledSteps(world);
    transitions += steps.length;
    graph.expand(id);
    for (const s of steps) {
      const next = takeStep(world, s);
      const nextId = seen.size;
      const known = seen.getOrAdd(next, nextId, parts);
      graph.successor(id, known >= 0 ? known : nextId, table.id(s));
      if (known >= 0) continue;
      stack.push(next);
      stackParts.push(seen.keepParts());
      stackIds.push(nextId);
    }
  }
  const signatures = options.signatures ?? {};
  const result = { states: seen.size, transitions, widest, violations: [] as ModelViolation[], matches: {} as Record<string, SignatureMatch> };
  // Paths are wanted only for violations and signatures.
  if (violated.length > 0 || Object.keys(signatures).length > 0) {
    const tree = graph.breadthFirst(seen.size);
    const pathTo = (id: number): WorldStep[] => {
      const path: WorldStep[] = [];
      for (let at = id; tree.parent[at]! >= 0; at = tree.parent[at]!) path.push(table.steps[tree.step[at]!]!);
      return path.reverse();
    };
    result.violations = shortestViolations(tree.order, violated, pathTo, (path) => path.reduce(takeStep, initial));
    result.matches = signatureMatches(signatures, initial, tree, table, pathTo, budget);
  }
  return { ...result, ms: performance.now() - started };
}

/**
 * Each violated property's first state in breadth-first order, with its path: what a
 * breadth-first search of worlds reports. The world at the end of a path is rebuilt by replaying
 * it and judged again: a verdict that differed there would mean an invariant reads something the
 * state key leaves out, and is an error. (Only states found violating something are replayed, so
 * this catches a verdict the replayed world loses, not one it would gain.)
 */
function shortestViolations(order: Int32Array, violated: Ints, pathTo: (id: number) => WorldStep[], replay: (path: WorldStep[]) => World): ModelViolation[] {
  const violations: ModelViolation[] = [];
  let found = 0;
  for (let i = 0; i < order.length; i++) {
    const id = order[i]!;
    const fresh = violated.at(id) & ~found;
    if (fresh === 0) continue;
    const path = pathTo(id);
    const world = replay(path);
    let judged = 0;
    for (const { property, message } of violatedInvariants(world)) {
      const bit = 1 << propertyIds.indexOf(property);
      judged |= bit;
      if (fresh & bit) violations.push({ property, message, path, world });
    }
    if ((judged & ~found) !== fresh)
      throw new Error(`the invariants' verdicts differ between two worlds of state ${id}: an invariant reads something the state key leaves out`);
    found |= fresh;
  }
  // Stable: equally short violations keep breadth-first order, then the order invariants are judged in.
  return violations.sort((a, b) => a.path.length - b.path.length);
}

/**
 * Each signature's first accepting world in breadth-first order. A signature may read what the
 * state key leaves out (why the last resume was refused, say), so it is judged on the world a
 * breadth-first search keeps for each state: the one its first path reaches. Those worlds are
 * rebuilt along the breadth-first tree, a level at a time, until every signature has matched.
 */
function signatureMatches(
  signatures: Record<string, (world: World) => boolean>,
  initial: World,
  tree: BreadthFirstTree,
  table: StepTable,
  pathTo: (id: number) => WorldStep[],
  budget: () => void,
): Record<string, SignatureMatch> {
  const matches: Record<string, SignatureMatch> = {};
  let open = Object.entries(signatures);
  if (open.length === 0) return matches;
  // Per state, its children in the tree not yet rebuilt: a world is kept only until its last child is.
  const children = new Int32Array(tree.order.length);
  for (let id = 0; id < tree.parent.length; id++) if (tree.parent[id]! >= 0) children[tree.parent[id]!]!++;
  // The worlds of states with children still to rebuild (a breadth-first frontier).
  const worlds = new Map<number, World>();
  for (let i = 0; i < tree.order.length && open.length > 0; i++) {
    if ((i & 1023) === 1023) budget();
    const id = tree.order[i]!;
    const parent = tree.parent[id]!;
    let world = initial;
    if (parent >= 0) {
      world = takeStep(worlds.get(parent)!, table.steps[tree.step[id]!]!);
      if (--children[parent]! === 0) worlds.delete(parent);
    }
    if (children[id]! > 0) worlds.set(id, world);
    open = open.filter(([name, accepts]) => {
      if (!accepts(world)) return true;
      matches[name] = { name, path: pathTo(id), world };
      return false;
    });
  }
  return matches;
}

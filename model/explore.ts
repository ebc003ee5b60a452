/**
 * Exhaustive exploration of the bounded world: a breadth-first search over world states keyed by
 * `worldKey`, every invariant checked on every state, and each violated property reported with
 * its shortest path from the initial world. It keeps, per state, only its fingerprint, its parent
 * and the step that reached it (paths are rebuilt from those); worlds, with their key parts for
 * their successors to reuse, live only while in the queue.
 * xstate/graph's traversal of the world machine (`exploreWithGraph`) finds the same states and
 * verdicts and remains the yardstick in the tests and the bench.
 */
import type { Bounds } from './bounds.js';
import { violatedInvariants } from './invariants.js';
import type { Policy } from './policy.js';
import type { PropertyId } from './property-ids.js';
import { forgetSessionMemo } from './session-step.js';
import { FingerprintSink } from './explore-fingerprint.js';
import { computeWorldKey } from './world-key.js';
import { WorldFingerprinter, type KeyParts } from './world-fingerprint.js';
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
  /** The most worlds held at once (the widest breadth-first frontier); xstate/graph's traversal holds every state. */
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
 * The states seen, by fingerprint, in an open-addressing table of typed arrays: about 24 bytes
 * per state, where a Map from a 4-character string to an ID takes several times that.
 */
class FingerprintTable {
  private a = new Int32Array(1 << 12);
  private b = new Int32Array(1 << 12);
  /** The state ID plus one; 0 marks an empty slot. */
  private ids = new Int32Array(1 << 12);
  size = 0;
  private readonly fingerprinter = new WorldFingerprinter();
  /** The ID of the state `world` is, or -1 after recording it under `id`. `parent`: the parts of the world it was reached from. */
  getOrAdd(world: World, id: number, parent?: KeyParts): number {
    this.fingerprinter.fingerprint(world, parent);
    const { a, b } = this.fingerprinter.sink;
    const found = this.find(a, b);
    if (this.ids[found] !== 0) return this.ids[found]! - 1;
    this.a[found] = a;
    this.b[found] = b;
    this.ids[found] = id + 1;
    if (++this.size * 2 > this.ids.length) this.grow();
    return -1;
  }
  /** The key parts of the state just added, for its successors to reuse. */
  keepParts(): KeyParts {
    return this.fingerprinter.keep();
  }
  private find(a: number, b: number): number {
    const mask = this.ids.length - 1;
    let i = (Math.imul(a ^ b, 0x9e3779b1) >>> 0) & mask;
    while (this.ids[i] !== 0 && (this.a[i] !== a || this.b[i] !== b)) i = (i + 1) & mask;
    return i;
  }
  private grow(): void {
    const { a, b, ids } = this;
    this.a = new Int32Array(ids.length * 2);
    this.b = new Int32Array(ids.length * 2);
    this.ids = new Int32Array(ids.length * 2);
    for (let i = 0; i < ids.length; i++) {
      if (ids[i] === 0) continue;
      const at = this.find(a[i]!, b[i]!);
      this.a[at] = a[i]!;
      this.b[at] = b[i]!;
      this.ids[at] = ids[i]!;
    }
  }
}

/** Seen states by whole key. */
class ExactTable {
  private readonly map = new Map<string, number>();
  keepParts(): undefined {
    return undefined;
  }
  get size(): number {
    return this.map.size;
  }
  getOrAdd(world: World, id: number): number {
    const key = computeWorldKey(world);
    const known = this.map.get(key);
    if (known !== undefined) return known;
    this.map.set(key, id);
    return -1;
  }
}

/** Growable parent pointers: per state, the state it was first reached from and the step taken. */
class Parents {
  parent = new Int32Array(1024);
  step = new Int32Array(1024);
  size = 0;
  add(parent: number, step: number): number {
    if (this.size === this.parent.length) {
      const grow = (a: Int32Array) => {
        const next = new Int32Array(a.length * 2);
        next.set(a);
        return next;
      };
      this.parent = grow(this.parent);
      this.step = grow(this.step);
    }
    this.parent[this.size] = parent;
    this.step[this.size] = step;
    return this.size++;
  }
}

/** Steps interned: parent pointers refer to a step by its index here (`enabledSteps` returns one object per distinct step). */
class StepTable {
  readonly steps: WorldStep[] = [];
  private readonly ids = new Map<WorldStep, number>();
  id(step: WorldStep): number {
    let id = this.ids.get(step);
    if (id === undefined) {
      id = this.steps.length;
      this.steps.push(step);
      this.ids.set(step, id);
    }
    return id;
  }
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
  const seen = options.keys === 'exact' ? new ExactTable() : new FingerprintTable();
  const parents = new Parents();
  const table = new StepTable();
  seen.getOrAdd(initial, parents.add(-1, -1));
  // The queue holds worlds not yet expanded (with their key parts); an expanded world is dropped from it.
  let queue: Array<World | undefined> = [initial];
  let queueParts: Array<KeyParts | undefined> = [seen.keepParts()];
  let queueIds: number[] = [0];
  let head = 0;
  let transitions = 0;
  let widest = 0;
  const found = new Map<PropertyId, { message: string; id: number; world: World }>();
  const signatures = Object.entries(options.signatures ?? {});
  const matched = new Map<string, { id: number; world: World }>();
  while (head < queue.length) {
    const world = queue[head]!;
    const id = queueIds[head]!;
    const parts = queueParts[head];
    if (queue.length - head > widest) widest = queue.length - head;
    queue[head] = undefined;
    queueParts[head] = undefined;
    head++;
    if (head > 65_536 && head * 2 > queue.length) {
      // Compact the queue so expanded worlds can be collected.
      queue = queue.slice(head);
      queueParts = queueParts.slice(head);
      queueIds = queueIds.slice(head);
      head = 0;
    }
    if (seen.size > maxStates) throw new ExplorationBudgetExceeded(`more than ${maxStates} states: lower the bounds`);
    if ((id & 1023) === 0 && performance.now() - started > maxMs) {
      throw new ExplorationBudgetExceeded(`still exploring after ${Math.round(maxMs / 1000)} s (${id} states): lower the bounds`);
    }
    options.visit?.(world);
    // Breadth-first: the first state found violating a property (or matching a signature) has a shortest path.
    // A property already found violated need not be judged again: only its first (shortest) violation is reported.
    for (const { property, message } of violatedInvariants(world, found)) found.set(property, { message, id, world });
    for (const [name, accepts] of signatures) if (!matched.has(name) && accepts(world)) matched.set(name, { id, world });
    const steps = enabledSteps(world);
    transitions += steps.length;
    for (const s of steps) {
      const next = takeStep(world, s);
      if (seen.getOrAdd(next, parents.size, parts) >= 0) continue;
      const nextId = parents.add(id, table.id(s));
      queue.push(next);
      queueParts.push(seen.keepParts());
      queueIds.push(nextId);
    }
  }
  const pathTo = (id: number): WorldStep[] => {
    const path: WorldStep[] = [];
    for (let at = id; parents.parent[at]! >= 0; at = parents.parent[at]!) path.push(table.steps[parents.step[at]!]!);
    return path.reverse();
  };
  const violations: ModelViolation[] = [...found.entries()].map(([property, v]) => ({ property, message: v.message, path: pathTo(v.id), world: v.world }));
  const matches: Record<string, SignatureMatch> = {};
  for (const [name, m] of matched) matches[name] = { name, path: pathTo(m.id), world: m.world };
  return {
    states: seen.size,
    transitions,
    widest,
    ms: performance.now() - started,
    violations: violations.sort((a, b) => a.path.length - b.path.length),
    matches,
  };
}

/**
 * The tables `explore` keeps per state, all of numbers: the states seen (by fingerprint or by
 * whole key), the steps taken (interned), and growable columns of 32-bit integers.
 */
import { computeWorldKey } from './world-key.js';
import { WorldFingerprinter, type KeyParts } from './world-fingerprint.js';
import type { World, WorldStep } from './world-types.js';

const chunkBits = 14;
const chunkSize = 1 << chunkBits;

/**
 * A growable column of 32-bit integers, in fixed chunks: growing never copies, so the column
 * takes what it holds plus at most one chunk (64 KB), where doubling an array briefly holds three
 * times what it keeps.
 */
export class Ints {
  private readonly chunks: Int32Array[] = [];
  length = 0;
  /** The value at `i` (0 past the end). */
  at(i: number): number {
    return i < this.length ? this.chunks[i >>> chunkBits]![i & (chunkSize - 1)]! : 0;
  }
  /** Sets the value at `i`, growing the column with zeros to reach it. */
  put(i: number, value: number): void {
    while (this.chunks.length <= i >>> chunkBits) this.chunks.push(new Int32Array(chunkSize));
    if (i >= this.length) this.length = i + 1;
    this.chunks[i >>> chunkBits]![i & (chunkSize - 1)] = value;
  }
  /** Appends a value; its index. */
  push(value: number): number {
    const i = this.length;
    this.put(i, value);
    return i;
  }
}

/** The states seen: `getOrAdd` gives a known state's ID, or records a new one under `id` and gives -1. */
export interface SeenTable {
  readonly size: number;
  getOrAdd(world: World, id: number, parent?: KeyParts): number;
  /** The key parts of the state just added, for its successors to reuse (none by whole key). */
  keepParts(): KeyParts | undefined;
}

/**
 * The states seen, by fingerprint, in an open-addressing table of typed arrays: about 24 bytes
 * per state, where a Map from a 4-character string to an ID takes several times that.
 */
export class FingerprintTable implements SeenTable {
  private a = new Int32Array(1 << 12);
  private b = new Int32Array(1 << 12);
  /** The state ID plus one; 0 marks an empty slot. */
  private ids = new Int32Array(1 << 12);
  size = 0;
  private readonly fingerprinter = new WorldFingerprinter();
  /** `parent`: the parts of the world `world` was reached from. */
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

/** The states seen, by whole key. */
export class ExactTable implements SeenTable {
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

/** Steps interned: the graph refers to a step by its index here (`enabledSteps` returns one object per distinct step). */
export class StepTable {
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

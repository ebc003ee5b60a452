/**
 * 64-bit fingerprints of state keys, mixed from the hashes of the key's parts.
 *
 * A key is a sequence of parts (a session, a stream, the request list...). Each part is hashed
 * on its own (two 32-bit FNV-1a variants) and the part hashes are mixed in order. A part that
 * recurs unchanged from one world to the next (an untouched stream, the same session state)
 * keeps its hash (`PartHash`), so only what a step changed is hashed again. Fed the same parts
 * in the same order, the sink gives the same fingerprint, whether a part comes as text or as
 * the `PartHash` of that text.
 */

/** Where a key's parts go: a string, or a running fingerprint. */
export interface KeySink {
  /** Appends one part. */
  add(part: string): void;
}

/** The hash of a key part, computed once and reused wherever the part recurs. */
export interface PartHash {
  readonly a: number;
  readonly b: number;
}

/** The two 32-bit FNV-1a variants of a part's characters. */
export function hashPart(text: string): PartHash {
  let a = 0x811c9dc5 | 0;
  let b = 0x9747b28c | 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 15;
  }
  return { a: a | 0, b: b | 0 };
}

/** Builds the whole key as a string. */
export class StringSink implements KeySink {
  key = '';
  add(part: string): void {
    this.key += part;
  }
}

/** Mixes each part's hash into the two halves of a fingerprint, in order. */
export class FingerprintSink implements KeySink {
  a = 0;
  b = 0;
  reset(): this {
    this.a = 0x2545f491;
    this.b = 0x5bd1e995;
    return this;
  }
  add(part: string): void {
    const { a, b } = hashPart(part);
    this.mix(a, b);
  }
  /** Appends one part by its hash. */
  addHashed(part: PartHash): void {
    this.mix(part.a, part.b);
  }
  /** Folds one part's hash in: each half runs the running value, xored with the part's half, through a 32-bit finalizer (murmur3's, and a variant). */
  private mix(pa: number, pb: number): void {
    let a = (this.a ^ pa) + 0x9e3779b9;
    a = Math.imul(a ^ (a >>> 16), 0x85ebca6b);
    a = Math.imul(a ^ (a >>> 13), 0xc2b2ae35);
    this.a = (a ^ (a >>> 16)) | 0;
    let b = (this.b ^ pb) + 0x7f4a7c15;
    b = Math.imul(b ^ (b >>> 15), 0x2c1b3c6d);
    b = Math.imul(b ^ (b >>> 12), 0x297a2d39);
    this.b = (b ^ (b >>> 15)) | 0;
  }
}

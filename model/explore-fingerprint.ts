/**
 * 64-bit fingerprints of state keys (two 32-bit FNV-1a variants), computed as the key's parts
 * are written: a world's fingerprint needs no key string, so exploring allocates no string per
 * transition. Fed the same characters, the sink gives the same halves whether they come in one
 * piece or many.
 */

/** Where a key's parts go: a string, or a running fingerprint. */
export interface KeySink {
  add(part: string): void;
}

/** Builds the whole key as a string. */
export class StringSink implements KeySink {
  key = '';
  add(part: string): void {
    this.key += part;
  }
}

/** Folds every character into the two halves of a fingerprint. */
export class FingerprintSink implements KeySink {
  a = 0x811c9dc5 | 0;
  b = 0x9747b28c | 0;
  reset(): this {
    this.a = 0x811c9dc5 | 0;
    this.b = 0x9747b28c | 0;
    return this;
  }
  add(part: string): void {
    let { a, b } = this;
    for (let i = 0; i < part.length; i++) {
      const c = part.charCodeAt(i);
      a = Math.imul(a ^ c, 0x01000193);
      b = Math.imul(b ^ c, 0x5bd1e995);
      b ^= b >>> 15;
    }
    this.a = a | 0;
    this.b = b | 0;
  }
}

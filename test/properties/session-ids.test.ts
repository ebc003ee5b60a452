import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { counterFamily, judgeSessionIdsUnguessable, observedVariation } from '../../properties/judges/session-ids-unguessable.js';
import { judgeSessionIdsVisibleAscii } from '../../properties/judges/session-ids-visible-ascii.js';
import { HistoryBuilder } from './history-builder.js';

/** Streamable sessions with these IDs, then legacy sessions with `legacy`. */
function sessions(ids: string[], legacy: string[] = []) {
  const h = new HistoryBuilder();
  for (const id of ids) h.initialize(id);
  for (const id of legacy) h.legacySession(id);
  return h.view();
}

const uuids = [
  '3f0c8a1e-9b2d-4c5e-8f7a-1b2c3d4e5f60',
  'a71e44b2-05cd-4e9f-b3a8-6d7e8f9a0b1c',
  'c9d0e1f2-a3b4-4c5d-9e6f-7a8b9c0d1e2f',
  '50617283-94a5-4b6c-8d7e-0f1a2b3c4d5e',
];

describe('session-ids-visible-ascii', () => {
  test('fail: a character outside visible ASCII (space, non-ASCII, control), even in a small sample', () => {
    for (const bad of ['has space', 'caf\u00e9', 'tab\there']) {
      const j = judgeSessionIdsVisibleAscii(sessions([bad]));
      expect(j.status, bad).toBe('fail');
      expect(j.reason).toBe(`session ID ${JSON.stringify(bad)} has characters outside visible ASCII`);
    }
    expect(judgeSessionIdsVisibleAscii(sessions([], ['legacy id'])).status).toBe('fail');
  });

  test('pass: visible ASCII includes its ends (0x21 and 0x7E); one ID is enough', () => {
    expect(judgeSessionIdsVisibleAscii(sessions(['!~']))).toEqual({ status: 'pass', reason: '1 session ID(s), all visible ASCII' });
  });

  test('skip: no session ID seen', () => {
    expect(judgeSessionIdsVisibleAscii(sessions([]))).toEqual({ status: 'skip', reason: 'no session ID seen' });
  });

  test('a guessable ID is no concern of it', () => {
    expect(judgeSessionIdsVisibleAscii(sessions(['session-1', 'session-2', 'session-3', 'session-4'])).status).toBe('pass');
  });
});

describe('session-ids-unguessable', () => {
  test('pass: UUIDs vary in many bits', () => {
    const j = judgeSessionIdsUnguessable(sessions(uuids));
    expect(j.status).toBe('pass');
    expect(j.reason).toMatch(/^4 streamable HTTP session IDs, ~1\d\d varying bits \(3\d varying characters, read as hex\)$/);
  });

  test('a character outside visible ASCII is no concern of it', () => {
    expect(judgeSessionIdsUnguessable(sessions(uuids.map((u) => `${u} `))).status).toBe('pass');
  });

  test('skip: fewer than four sessions of one transport cannot show guessability', () => {
    const j = judgeSessionIdsUnguessable(sessions(uuids.slice(0, 3)));
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('3 streamable HTTP session ID(s) seen; 4 of one transport needed to judge guessability');
    expect(judgeSessionIdsUnguessable(sessions(uuids.slice(0, 2), uuids.slice(2))).reason).toBe(
      '2 streamable HTTP and 2 legacy SSE session ID(s) seen; 4 of one transport needed to judge guessability',
    );
  });

  test('fail: a counter on streamable HTTP is not hidden by random IDs on the legacy transport', () => {
    const random = [
      '8d2f1c3a-4b5e-4f60-9a7b-1c2d3e4f5a6b',
      '0e1d2c3b-4a59-4867-b5a4-9382716a5b4c',
      'f1e2d3c4-b5a6-4978-8a1b-2c3d4e5f6a7b',
      '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
    ];
    const j = judgeSessionIdsUnguessable(sessions(['session-1', 'session-2', 'session-3', 'session-4'], [...uuids, ...random]));
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('session IDs are a counter under the prefix "session-": session-1, session-2, session-3... (numbers within 3 of each other)');
    // ... nor under too few of its own to be judged alone.
    expect(judgeSessionIdsUnguessable(sessions(['session-1', 'session-2'], uuids)).status).toBe('fail');
  });

  test('fail: a family of IDs under one prefix mixed with random ones on the same transport', () => {
    const j = judgeSessionIdsUnguessable(sessions([...uuids, 'sid_41', 'sid_43']));
    expect(j.reason).toBe('session IDs are a counter under the prefix "sid_": sid_41, sid_43 (numbers within 2 of each other)');
  });

  test('fail: too few bits on one transport, however random the other', () => {
    const j = judgeSessionIdsUnguessable(sessions(['9f86d081', '3e23e816', 'b1a9c4d2', '07c5e3fa'], uuids));
    expect(j.reason).toMatch(/^streamable HTTP session IDs vary in only ~32 bits across 4 sessions/);
    const k = judgeSessionIdsUnguessable(sessions(uuids, ['9f86d081', '3e23e816', 'b1a9c4d2', '07c5e3fa']));
    expect(k.reason).toMatch(/^legacy SSE session IDs vary in only ~32 bits across 4 sessions/);
  });

  test('pass: each transport judged, each said', () => {
    const legacy = [
      '8d2f1c3a-4b5e-4f60-9a7b-1c2d3e4f5a6b',
      '0e1d2c3b-4a59-4867-b5a4-9382716a5b4c',
      'f1e2d3c4-b5a6-4978-8a1b-2c3d4e5f6a7b',
      '6a5b4c3d-2e1f-4a0b-9c8d-7e6f5a4b3c2d',
    ];
    expect(judgeSessionIdsUnguessable(sessions(uuids, legacy)).reason).toMatch(
      /^4 streamable HTTP session IDs, ~\d+ varying bits .*; 4 legacy SSE session IDs, ~\d+ varying bits/,
    );
  });

  test('counterFamily: IDs that are one text and a close trailing number', () => {
    expect(counterFamily(['a7', 'b8', 'c9'])).toBeUndefined();
    expect(counterFamily(['x-100000000000000000000', 'x-1'])).toBeUndefined();
    expect(counterFamily(['x', 'y-1', 'y-9'])).toEqual({ prefix: 'y-', ids: ['y-1', 'y-9'], spread: 8n });
  });

  test('fail: sequential IDs (a shared prefix and a counter)', () => {
    const j = judgeSessionIdsUnguessable(sessions(['session-7', 'session-8', 'session-9', 'session-10']));
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('session IDs are a counter under the prefix "session-": session-7, session-8, session-9... (numbers within 3 of each other)');
  });

  test('fail: a clock is sequential too (milliseconds, after a shared prefix)', () => {
    const j = judgeSessionIdsUnguessable(sessions(['s1764667200123', 's1764667200456', 's1764667201002', 's1764667203999']));
    expect(j.reason).toBe(
      'session IDs are a counter under the prefix "s": s1764667200123, s1764667200456, s1764667201002... (numbers within 3876 of each other)',
    );
    // A clock after a shared prefix that is no family of its own (the prefixes differ in more than the number).
    const k = judgeSessionIdsUnguessable(sessions(['t1764667200123a', 't1764667200456b', 't1764667201002c', 't1764667203999d']));
    expect(k.status).toBe('fail');
  });

  test('fail: random but short: too few varying bits', () => {
    const ids = ['fixed-prefix-0000000000-ab', 'fixed-prefix-0000000000-cd', 'fixed-prefix-0000000000-ef', 'fixed-prefix-0000000000-gh'];
    const j = judgeSessionIdsUnguessable(sessions(ids));
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/^streamable HTTP session IDs vary in only ~10 bits across 4 sessions \(2 varying character\(s\), read as base36\): guessable/);
  });

  test('fail: random hex, but 32 bits of it', () => {
    const j = judgeSessionIdsUnguessable(sessions(['9f86d081', '3e23e816', 'b1a9c4d2', '07c5e3fa']));
    expect(j.reason).toMatch(/^streamable HTTP session IDs vary in only ~32 bits across 4 sessions \(8 varying character\(s\), read as hex\): guessable/);
  });

  test('observedVariation: the positions that vary over the shortest ID, in the smallest alphabet of their characters', () => {
    expect(observedVariation(['aa', 'ab', 'ba', 'bb'])).toEqual({ positions: 2, alphabet: 'hex', bits: 8 });
    expect(observedVariation(['xbc', 'xbd'])).toEqual({ positions: 1, alphabet: 'hex', bits: 4 });
    expect(observedVariation(['k1', 'k9'])).toEqual({ positions: 1, alphabet: 'decimal', bits: Math.log2(10) });
    expect(observedVariation(['x', 'xyz'])).toEqual({ positions: 0, alphabet: 'decimal', bits: 0 });
    expect(observedVariation(['a_', 'B-'])).toMatchObject({ positions: 2, alphabet: 'base64url' });
  });

  // Secure IDs of other designs than the UUID: any sample of four from a secure generator passes.
  // (Per position, counting distinct characters, four samples show at most two bits: that reading
  // failed a 96-bit base64url ID three times in four, and any decimal ID as "sequential".)
  const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n });
  const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
  const crockford = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
  const designs: Record<string, fc.Arbitrary<string>> = {
    '128-bit decimal': bytes(16).map((b) => BigInt(`0x${hex(b)}`).toString()),
    '96-bit base64url': bytes(12).map((b) => Buffer.from(b).toString('base64url')),
    '64-bit hex': bytes(8).map(hex),
    '128-bit base64 (padded)': bytes(16).map((b) => Buffer.from(b).toString('base64')),
    'ULID, all four in one millisecond': bytes(16).map((b) => `01JE2K3M4N${[...b].map((x) => crockford[x & 31]).join('')}`),
    'UUIDv7, all four in one millisecond': bytes(10).map((b) => {
      const h = hex(b);
      return `0193e1a2-b3c4-7${h.slice(0, 3)}-${((b[2]! & 0x3f) | 0x80).toString(16)}${h.slice(6, 8)}-${h.slice(8, 20)}`;
    }),
  };
  for (const [design, ids] of Object.entries(designs)) {
    test(`pass: ${design}`, () => {
      fc.assert(
        fc.property(fc.uniqueArray(ids, { minLength: 4, maxLength: 8 }), (sample) => {
          const j = judgeSessionIdsUnguessable(sessions(sample));
          expect(j.status, `${j.reason}`).toBe('pass');
        }),
        { seed: 20261202, numRuns: 300 },
      );
    });
  }

  test('an ID seen twice (two initializes answered alike) counts once', () => {
    expect(judgeSessionIdsUnguessable(sessions([...uuids.slice(0, 3), uuids[0]!])).status).toBe('skip');
  });
});

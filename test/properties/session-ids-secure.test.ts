import { describe, expect, test } from 'vitest';
import { judgeSessionIdsSecure, observedBits } from '../../properties/judges/session-ids-secure.js';
import { HistoryBuilder } from './history-builder.js';

function sessions(ids: string[]) {
  const h = new HistoryBuilder();
  for (const id of ids) h.initialize(id);
  return h.view();
}

const uuids = ['3f0c8a1e-9b2d-4c5e-8f7a-1b2c3d4e5f60', 'a71e44b2-05cd-4e9f-b3a8-6d7e8f9a0b1c', 'c9d0e1f2-a3b4-4c5d-9e6f-7a8b9c0d1e2f', '50617283-94a5-4b6c-8d7e-0f1a2b3c4d5e'];

describe('session-ids-secure', () => {
  test('pass: UUIDs are visible ASCII and vary in many bits', () => {
    const j = judgeSessionIdsSecure(sessions(uuids));
    expect(j.status).toBe('pass');
    expect(j.reason).toMatch(/^4 session IDs, visible ASCII, ~\d+ varying bits$/);
  });

  test('fail: a character outside visible ASCII (space, non-ASCII, control), even in a small sample', () => {
    for (const bad of ['has space', 'caf\u00e9', 'tab\there']) {
      const j = judgeSessionIdsSecure(sessions([bad]));
      expect(j.status, bad).toBe('fail');
      expect(j.reason).toBe(`session ID ${JSON.stringify(bad)} has characters outside visible ASCII`);
    }
  });

  test('visible ASCII includes its ends (0x21 and 0x7E)', () => {
    expect(judgeSessionIdsSecure(sessions(['!~']))).toMatchObject({ status: 'skip' });
  });

  test('skip: fewer than four sessions cannot show guessability', () => {
    const j = judgeSessionIdsSecure(sessions(uuids.slice(0, 3)));
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('only 3 session ID(s) seen; 4 needed to judge guessability');
  });

  test('fail: sequential IDs (a shared prefix and a counter)', () => {
    const j = judgeSessionIdsSecure(sessions(['session-7', 'session-8', 'session-9', 'session-10']));
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('session IDs are sequential: session-7, session-8, session-9...');
  });

  test('fail: random but short: too few varying bits', () => {
    const ids = ['fixed-prefix-0000000000-ab', 'fixed-prefix-0000000000-cd', 'fixed-prefix-0000000000-ef', 'fixed-prefix-0000000000-gh'];
    const j = judgeSessionIdsSecure(sessions(ids));
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/^session IDs vary in only ~4 bits across 4 sessions: guessable/);
  });

  test('observedBits: log2 of the distinct characters per position, over the shortest ID', () => {
    expect(observedBits(['aa', 'ab', 'ba', 'bb'])).toBe(2);
    expect(observedBits(['abc', 'abd'])).toBe(1);
    expect(observedBits(['x', 'xyz'])).toBe(0);
  });

  test('an ID seen twice (two initializes answered alike) counts once', () => {
    expect(judgeSessionIdsSecure(sessions([...uuids.slice(0, 3), uuids[0]!])).status).toBe('skip');
  });
});

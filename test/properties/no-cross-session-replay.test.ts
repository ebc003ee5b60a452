import { describe, expect, test } from 'vitest';
import { judgeNoCrossSessionReplay } from '../../properties/judges/no-cross-session-replay.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** Session A's `emit a 2` (IDs A1, A2, A3); session B initialized; B presents A's first cursor. */
function foreignCursor(answer: { status?: number; body?: unknown } = {}) {
  const h = new HistoryBuilder();
  h.initialize('A');
  const a = h.emit('A', 'a', 2);
  h.deliver(a.conn, 'A1', note('a', 1));
  h.deliver(a.conn, 'A2', note('a', 2));
  h.deliver(a.conn, 'A3', emitResult(a.id, 'a'));
  h.initialize('B');
  const r = h.resume('B', 'A1', answer);
  return { h, a, r };
}

describe('no-cross-session-replay', () => {
  test('pass: the foreign cursor yields nothing of the other session (refused or quiet)', () => {
    const refused = foreignCursor({ status: 404, body: {} });
    const j = judgeNoCrossSessionReplay(refused.h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 foreign-session cursor(s) yielded nothing of the other session');
    expect(judgeNoCrossSessionReplay(foreignCursor().h.view()).status).toBe('pass');
  });

  test("fail: session A's notification replayed to session B", () => {
    const { h, r } = foreignCursor();
    const leaked = h.frame(r, 'A2', note('a', 2));
    const j = judgeNoCrossSessionReplay(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/^a cursor of session A presented with session B replayed .*"label":"a","seq":2/);
    expect(j.evidence).toContain(leaked.seq);
  });

  test("fail: session A's response replayed to session B", () => {
    const { h, a, r } = foreignCursor();
    h.frame(r, 'A3', emitResult(a.id, 'a'));
    expect(judgeNoCrossSessionReplay(h.view()).status).toBe('fail');
  });

  test('skip: a cursor of the session itself, or none presented across sessions', () => {
    const h = new HistoryBuilder();
    h.initialize('A');
    const a = h.emit('A', 'a', 1);
    h.deliver(a.conn, 'A1', note('a', 1));
    h.drop(a.conn);
    h.resume('A', 'A1', {}, { resumes: a.conn });
    const j = judgeNoCrossSessionReplay(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no cursor of one session was presented to another');
  });

  test("skip: an ID both sessions issued is this session's own cursor (IDs need only be unique within a session)", () => {
    const h = new HistoryBuilder();
    h.initialize('A');
    const a = h.emit('A', 'a', 1);
    h.deliver(a.conn, '1', note('a', 1));
    h.initialize('B');
    const b = h.emit('B', 'b', 2);
    h.deliver(b.conn, '1', note('b', 1));
    h.drop(b.conn);
    h.resume('B', '1', {}, { resumes: b.conn });
    expect(judgeNoCrossSessionReplay(h.view()).status).toBe('skip');
  });

  test('skip: resumption not offered', () => {
    const h = new HistoryBuilder();
    h.initialize('A');
    h.initialize('B');
    h.resume('B', 'garbage-0');
    expect(judgeNoCrossSessionReplay(h.view()).reason).toMatch(/^resumption not offered/);
  });
});

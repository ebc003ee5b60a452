import { describe, expect, test } from 'vitest';
import { judgeEventIdsUnique } from '../../properties/judges/event-ids-unique.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

describe('event-ids-unique', () => {
  test('pass: distinct IDs; a replay repeats an event under its own ID', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 2);
    h.frame(call.conn, 'e0', undefined);
    h.frame(call.conn, 'e1', note('a', 1));
    h.drop(call.conn);
    const r = h.resume('S', 'e0', {}, { resumes: call.conn });
    h.frame(r, 'e1', note('a', 1));
    h.frame(r, 'e2', note('a', 2));
    h.frame(r, 'e3', emitResult(call.id, 'a'));
    const j = judgeEventIdsUnique(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('4 event IDs, each naming one event');
  });

  test('pass: two sessions may use the same IDs (unique within a session is what is required)', () => {
    const h = new HistoryBuilder();
    for (const s of ['A', 'B']) {
      h.initialize(s);
      const call = h.emit(s, s, 1);
      h.frame(call.conn, '1', note(s, 1));
      h.frame(call.conn, '2', emitResult(call.id, s));
    }
    expect(judgeEventIdsUnique(h.view()).status).toBe('pass');
  });

  test('fail: one ID for two different events in one session (two streams)', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const a = h.emit('S', 'a', 1);
    const first = h.frame(a.conn, '1', note('a', 1));
    const b = h.emit('S', 'b', 1);
    const second = h.frame(b.conn, '1', note('b', 1));
    const j = judgeEventIdsUnique(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/^session S used event ID 1 for two different events: \{"jsonrpc":"2.0","method":"notifications\/message".* and \{/);
    expect(j.evidence).toEqual([first.seq, second.seq]);
  });

  test('fail: a priming event (empty) and a message under one ID', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const a = h.emit('S', 'a', 1);
    h.frame(a.conn, 'p', undefined);
    h.frame(a.conn, 'p', note('a', 1));
    expect(judgeEventIdsUnique(h.view()).reason).toMatch(/event ID p for two different events: \(empty\) and/);
  });

  test('skip: fewer than two event IDs (a server without resumption sends none)', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const a = h.emit('S', 'a', 1);
    h.frame(a.conn, undefined, note('a', 1));
    h.frame(a.conn, 'only', emitResult(a.id, 'a'));
    const j = judgeEventIdsUnique(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('the candidate sent fewer than two event IDs');
  });
});

import { describe, expect, test } from 'vitest';
import { judgeNoCrossStreamReplay } from '../../properties/judges/no-cross-stream-replay.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** Session S: `emit a` dropped after e1, `emit b` answered whole on its own stream. */
function twoStreams() {
  const h = new HistoryBuilder();
  h.initialize('S');
  const a = h.emit('S', 'a', 2);
  h.deliver(a.conn, 'e1', note('a', 1));
  h.drop(a.conn);
  const b = h.emit('S', 'b', 1);
  h.deliver(b.conn, 'e3', note('b', 1));
  h.deliver(b.conn, 'e4', emitResult(b.id, 'b'));
  return { h, a, b };
}

describe('no-cross-stream-replay', () => {
  test('pass: the replay carries only its own stream', () => {
    const { h, a } = twoStreams();
    const r = h.resume('S', 'e1', {}, { resumes: a.conn });
    h.deliver(r, 'e2', note('a', 2));
    h.deliver(r, 'e5', emitResult(a.id, 'a'));
    const j = judgeNoCrossStreamReplay(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 replay(s) carried only their own stream');
  });

  test("fail: another call's notification in the replay", () => {
    const { h, a } = twoStreams();
    const r = h.resume('S', 'e1', {}, { resumes: a.conn });
    const leaked = h.frame(r, 'e3', note('b', 1));
    const j = judgeNoCrossStreamReplay(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(
      new RegExp(`^the replay of the stream of connection ${a.conn} \\(Last-Event-ID e1\\) carried e3 .*"label":"b".*which belongs to another stream$`),
    );
    expect(j.evidence).toEqual([leaked.seq]);
  });

  test("fail: another request's response in the replay", () => {
    const { h, a, b } = twoStreams();
    const r = h.resume('S', 'e1', {}, { resumes: a.conn });
    h.frame(r, 'e4', emitResult(b.id, 'b'));
    expect(judgeNoCrossStreamReplay(h.view()).status).toBe('fail');
  });

  test('fail: a response in the replay of the standalone stream (which carries none)', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const get = h.openStandalone('S');
    const u = h.emitUnsolicited('S', 'u', 1);
    h.deliver(u.conn, 'c1', emitResult(u.id, 'u'));
    h.deliver(get, 'g1', note('u', 1));
    h.drop(get);
    const r = h.resume('S', 'g1', {}, { resumes: get });
    h.frame(r, 'c1', emitResult(u.id, 'u'));
    expect(judgeNoCrossStreamReplay(h.view()).reason).toMatch(/^the replay of the stream of connection \d+ \(Last-Event-ID g1\)/);
  });

  test("unsolicited notifications on the standalone stream's replay belong there", () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const get = h.openStandalone('S');
    const u = h.emitUnsolicited('S', 'u', 2);
    h.deliver(u.conn, 'c1', emitResult(u.id, 'u'));
    h.deliver(get, 'g1', note('u', 1));
    h.drop(get);
    const r = h.resume('S', 'g1', {}, { resumes: get });
    h.deliver(r, 'g2', note('u', 2));
    expect(judgeNoCrossStreamReplay(h.view()).status).toBe('pass');
  });

  test('skip: a made-up cursor names no stream, so what its answer carries is no replay', () => {
    const { h, a, b } = twoStreams();
    const r = h.resume('S', 'garbage-0', {}, { resumes: a.conn });
    h.frame(r, 'e4', emitResult(b.id, 'b'));
    const j = judgeNoCrossStreamReplay(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no replay of a request or standalone stream was accepted');
  });

  test('skip: the legacy stream carries the whole session', () => {
    const h = new HistoryBuilder();
    const legacy = h.legacySession('L');
    h.frame(legacy, 'l1', note('x', 1));
    h.drop(legacy);
    const r = h.resume('L', 'l1', {}, { resumes: legacy, transport: 'sse' });
    h.frame(r, 'l2', note('y', 1));
    expect(judgeNoCrossStreamReplay(h.view()).status).toBe('skip');
  });

  test('skip: refused resumes, and no IDs at all (resumption not offered)', () => {
    const { h, a } = twoStreams();
    h.resume('S', 'e1', { status: 404, body: {} }, { resumes: a.conn });
    expect(judgeNoCrossStreamReplay(h.view()).status).toBe('skip');
    const bare = new HistoryBuilder();
    bare.initialize('S');
    const c = bare.emit('S', 'a', 1);
    bare.deliver(c.conn, undefined, note('a', 1));
    bare.drop(c.conn);
    bare.resume('S', 'garbage-0', {}, { resumes: c.conn });
    expect(judgeNoCrossStreamReplay(bare.view()).reason).toMatch(/^resumption not offered/);
  });
});

import { describe, expect, test } from 'vitest';
import { judgeUnknownCursorRejected } from '../../properties/judges/unknown-cursor-rejected.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** Session S with a POST stream that offered cursor e1 (or none), dropped. */
function offering(ids = true) {
  const h = new HistoryBuilder();
  h.initialize('S');
  const call = h.emit('S', 'a', 2);
  h.deliver(call.conn, ids ? 'e1' : undefined, note('a', 1));
  h.drop(call.conn);
  return { h, call };
}

const gone = { status: 404, body: { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null } };

describe('unknown-cursor-rejected', () => {
  test('pass: a made-up cursor for a stream that offered one is answered 404', () => {
    const { h, call } = offering();
    h.resume('S', 'garbage-0', gone, { resumes: call.conn });
    const j = judgeUnknownCursorRejected(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 unknown cursor(s) refused with 404');
  });

  test("pass: another session's cursor is unknown here, and 404 refuses it", () => {
    const h = new HistoryBuilder();
    h.initialize('A');
    const a = h.emit('A', 'a', 1);
    h.deliver(a.conn, 'A1', note('a', 1));
    h.initialize('B');
    h.resume('B', 'A1', gone);
    expect(judgeUnknownCursorRejected(h.view()).status).toBe('pass');
  });

  test('fail: answered 200 with a stream, as if resumable', () => {
    const { h, call } = offering();
    h.resume('S', 'garbage-0', {}, { resumes: call.conn });
    const j = judgeUnknownCursorRejected(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('Last-Event-ID "garbage-0", which names no event of session S, was answered 200 with a stream, as if resumable');
  });

  test('fail: answered 400 (the SDK\'s "Invalid event ID format"): the client is not told to re-initialize', () => {
    const { h, call } = offering();
    h.resume('S', 'garbage-0', { status: 400, body: { error: 'Invalid event ID format' } }, { resumes: call.conn });
    expect(judgeUnknownCursorRejected(h.view()).reason).toMatch(/was answered 400, not 404: the client is not told to re-initialize$/);
  });

  test('fail: no answer at all', () => {
    const { h, call } = offering();
    h.resume('S', 'garbage-0', 'none', { resumes: call.conn });
    const j = judgeUnknownCursorRejected(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/: no answer$/);
  });

  test('a legacy GET /sse answered with a new session is a refusal, not a resume', () => {
    const h = new HistoryBuilder();
    const legacy = h.legacySession('L');
    h.frame(legacy, 'l1', note('x', 1));
    h.drop(legacy);
    const r = h.resume('L', 'garbage-0', {}, { resumes: legacy, transport: 'sse' });
    h.add({ type: 'receive', conn: r, event: 'endpoint', data: '/messages?sessionId=NEW' });
    expect(judgeUnknownCursorRejected(h.view()).status).toBe('pass');
  });

  test("skip: the stream's own cursor is known", () => {
    const { h, call } = offering();
    h.resume('S', 'e1', {}, { resumes: call.conn });
    const j = judgeUnknownCursorRejected(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no unknown or foreign cursor was presented for a stream that offered one');
  });

  test('skip: a cursor of another stream of the same session is known', () => {
    const { h, call } = offering();
    const other = h.emit('S', 'b', 1);
    h.deliver(other.conn, 'e9', note('b', 1));
    h.resume('S', 'e9', {}, { resumes: call.conn });
    expect(judgeUnknownCursorRejected(h.view()).status).toBe('skip');
  });

  test('skip: a made-up cursor for a stream that never offered one, even when others did', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 1);
    h.deliver(call.conn, 'e1', note('a', 1));
    h.deliver(call.conn, 'e2', emitResult(call.id, 'a'));
    const get = h.openStandalone('S');
    h.drop(get);
    h.resume('S', 'garbage-0', {}, { resumes: get });
    expect(judgeUnknownCursorRejected(h.view()).status).toBe('skip');
  });

  test('skip: a server that sends no event ID at all may ignore Last-Event-ID: resumption not offered', () => {
    const { h, call } = offering(false);
    h.resume('S', 'garbage-0', {}, { resumes: call.conn });
    const j = judgeUnknownCursorRejected(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toMatch(/^resumption not offered/);
  });

  test('skip: a session the client never established is not judged', () => {
    const { h, call } = offering();
    h.resume('NOPE', 'garbage-0', {}, { resumes: call.conn });
    expect(judgeUnknownCursorRejected(h.view()).status).toBe('skip');
  });
});

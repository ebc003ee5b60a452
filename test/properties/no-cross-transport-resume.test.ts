import { describe, expect, test } from 'vitest';
import { judgeNoCrossTransportResume } from '../../properties/judges/no-cross-transport-resume.js';
import { HistoryBuilder, note } from './history-builder.js';

/** A legacy session L whose stream carried l1, dropped, then presented at /mcp with `answer`. */
function migrated(answer: Parameters<HistoryBuilder['resume']>[2]) {
  const h = new HistoryBuilder();
  const legacy = h.legacySession('L');
  h.frame(legacy, 'l1', note('x', 1));
  h.drop(legacy);
  const r = h.resume('L', 'l1', answer, { resumes: legacy, transport: 'streamable' });
  return { h, r };
}

describe('no-cross-transport-resume', () => {
  test('pass: the other transport answers 404', () => {
    const j = judgeNoCrossTransportResume(migrated({ status: 404, body: {} }).h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 cross-transport resume(s) refused with 404');
  });

  test('fail: resumed under the other transport (200 and a stream)', () => {
    const j = judgeNoCrossTransportResume(migrated({}).h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('session L (established under sse) presented under streamable was resumed: 200 with a stream');
  });

  test("fail: refused, but not with 404 (the SDK example's 400)", () => {
    const j = judgeNoCrossTransportResume(migrated({ status: 400, body: {} }).h.view());
    expect(j.reason).toMatch(/was answered 400, not 404: the client is not told to re-initialize$/);
  });

  test('fail: no answer', () => {
    expect(judgeNoCrossTransportResume(migrated('none').h.view()).reason).toMatch(/under streamable: no answer$/);
  });

  test('a streamable session presented at GET /sse and answered with a new legacy session is a refusal', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 1);
    h.deliver(call.conn, 'e1', note('a', 1));
    h.drop(call.conn);
    const r = h.resume('S', 'e1', {}, { resumes: call.conn, transport: 'sse' });
    h.add({ type: 'receive', conn: r, event: 'endpoint', data: '/messages?sessionId=NEW' });
    expect(judgeNoCrossTransportResume(h.view()).status).toBe('pass');
  });

  test("skip: every resume under the session's own transport", () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 1);
    h.deliver(call.conn, 'e1', note('a', 1));
    h.drop(call.conn);
    h.resume('S', 'e1', {}, { resumes: call.conn });
    const j = judgeNoCrossTransportResume(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no resume was presented under the other transport');
  });
});

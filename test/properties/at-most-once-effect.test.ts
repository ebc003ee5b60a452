import { describe, expect, test } from 'vitest';
import { judgeAtMostOnceEffect } from '../../properties/judges/at-most-once-effect.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** `emit a` dropped after notification 1 (with IDs or without), resumed with `cursor`, waited on in vain, retried: the retry answers `executions`. */
function retried(cursor: string, executions: number, ids = true) {
  const h = new HistoryBuilder();
  h.initialize('S');
  const call = h.emit('S', 'a', 1);
  h.deliver(call.conn, ids ? 'e1' : undefined, note('a', 1));
  h.drop(call.conn);
  const r = h.resume('S', cursor, {}, { resumes: call.conn });
  const wait = h.timeout(r, call.id);
  const retry = h.emit('S', 'a', 1);
  const result = h.frame(retry.conn, ids ? 'e5' : undefined, emitResult(retry.id, 'a', executions));
  h.drain(retry.conn, ids ? 'e5' : undefined, emitResult(retry.id, 'a', executions));
  return Object.assign(h, { wait, result });
}

describe('at-most-once-effect', () => {
  test('pass: each effect ran once', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 0);
    h.deliver(call.conn, 'e1', emitResult(call.id, 'a', 1));
    const j = judgeAtMostOnceEffect(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 tool result(s), each effect ran once');
  });

  test('fail: a retry after a real resume stalled ran the effect twice', () => {
    const h = retried('e1', 2);
    const j = judgeAtMostOnceEffect(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('the side effect of emit a ran 2 times');
    // It rests on the wait that ended without the result (what made the client retry), and on the result that counts two runs.
    expect(j.evidence).toEqual([h.wait.seq, h.result.seq]);
  });

  test("not counted: a second run the checker provoked by waiting on a made-up cursor's stream", () => {
    const j = judgeAtMostOnceEffect(retried('garbage-0', 2).view());
    expect(j.status).toBe('skip');
    const noIds = judgeAtMostOnceEffect(retried('garbage-0', 2, false).view());
    expect(noIds.status).toBe('skip');
  });

  test('skip: no result carried an execution count', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const ping = h.post('S', 'ping', undefined);
    h.deliver(ping.conn, 'e1', { jsonrpc: '2.0', id: ping.id, result: {} });
    const j = judgeAtMostOnceEffect(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toMatch(/^no emit result carried an execution count/);
  });
});

import { describe, expect, test } from 'vitest';
import { HistoryView } from '../../properties/history-view.js';
import { judgeOrderPreserved } from '../../properties/judges/order-preserved.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** `emit a 3` on one stream, delivering `seqs` in that order, then (optionally) the response. */
function delivered(seqs: number[], respond = true) {
  const h = new HistoryBuilder();
  h.initialize('S');
  const call = h.emit('S', 'a', 3);
  for (const seq of seqs) h.deliver(call.conn, `e${seq}`, note('a', seq));
  if (respond) h.deliver(call.conn, 'r', emitResult(call.id, 'a'));
  return { h, call };
}

describe('order-preserved', () => {
  test('pass: in order, each once, the response last', () => {
    const j = judgeOrderPreserved(delivered([1, 2, 3]).h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 stream(s) delivered in order, each message once');
  });

  test('pass: across a resume the logical stream continues in order', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 3);
    h.deliver(call.conn, 'e1', note('a', 1));
    h.drop(call.conn);
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    h.deliver(r, 'e3', note('a', 3));
    h.deliver(r, 'r', emitResult(call.id, 'a'));
    expect(judgeOrderPreserved(h.view()).status).toBe('pass');
  });

  test('fail: out of order', () => {
    const j = judgeOrderPreserved(delivered([2, 1, 3]).h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/^notification 1 of a reached the application out of order on the stream of connection \d+ \(after 2\)$/);
  });

  test('fail: a stream the history names is called by its name, as the trace calls it', () => {
    const { h, call } = delivered([2, 1, 3]);
    const history = h.view().history;
    history.streamNames = { [call.conn]: 'stream r1' };
    expect(judgeOrderPreserved(new HistoryView(history)).reason).toBe('notification 1 of a reached the application out of order on stream r1 (after 2)');
  });

  test('fail: twice (a replay repeating an event, no dedup)', () => {
    expect(judgeOrderPreserved(delivered([1, 2, 2, 3]).h.view()).reason).toMatch(/^notification 2 of a reached the application twice/);
  });

  test('a duplicate discarded by dedup is not delivered', () => {
    const { h, call } = delivered([1, 2], false);
    h.frame(call.conn, 'e2', note('a', 2));
    h.drain(call.conn, 'e2', note('a', 2), true);
    h.deliver(call.conn, 'e3', note('a', 3));
    expect(judgeOrderPreserved(h.view()).status).toBe('pass');
  });

  test("fail: a notification after its call's response", () => {
    const { h, call } = delivered([1, 2]);
    h.deliver(call.conn, 'e3', note('a', 3));
    expect(judgeOrderPreserved(h.view()).reason).toMatch(/^notification 3 of a reached the application after the response to its call/);
  });

  test('fail: the response twice', () => {
    const { h, call } = delivered([1, 2, 3]);
    h.deliver(call.conn, 'r2', emitResult(call.id, 'a'));
    expect(judgeOrderPreserved(h.view()).reason).toMatch(new RegExp(`^the response to request ${call.id} reached the application twice`));
  });

  test('pass: a retry starts the label over once per call that carries it (legacy stream)', () => {
    const h = new HistoryBuilder();
    const legacy = h.legacySession('L');
    const first = h.emit('L', 'a', 2, {}, 'sse');
    h.deliver(legacy, 'l1', note('a', 1));
    const retry = h.emit('L', 'a', 2, {}, 'sse');
    h.deliver(legacy, 'l2', note('a', 1));
    h.deliver(legacy, 'l3', note('a', 2));
    h.deliver(legacy, 'l4', emitResult(retry.id, 'a', 2));
    expect(first.id).not.toBe(retry.id);
    expect(judgeOrderPreserved(h.view()).status).toBe('pass');
    // A third start with only two calls is a repeat.
    h.deliver(legacy, 'l5', note('a', 1));
    expect(judgeOrderPreserved(h.view()).status).toBe('fail');
  });

  test('skip: no stream delivered two messages', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 0);
    h.deliver(call.conn, 'r', emitResult(call.id, 'a'));
    const j = judgeOrderPreserved(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no stream delivered two messages to judge');
  });
});

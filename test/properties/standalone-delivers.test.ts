/** `standalone-delivers`: a standalone GET stream that stays connected carries every unsolicited notification. */
import { describe, expect, test } from 'vitest';
import { judgeStandaloneDelivers } from '../../properties/judges/standalone-delivers.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** A session with its standalone stream open and an unsolicited call `u` (two notifications) answered. */
function unsolicited() {
  const h = new HistoryBuilder();
  h.initialize('S');
  const get = h.openStandalone('S');
  const call = h.emitUnsolicited('S', 'u', 2);
  h.deliver(call.conn, 'c1', emitResult(call.id, 'u'));
  return { h, get, call };
}

describe('standalone-delivers', () => {
  test('every notification drained on the connected stream: pass', () => {
    const { h, get } = unsolicited();
    h.deliver(get, 'g1', note('u', 1));
    h.deliver(get, 'g2', note('u', 2));
    const j = judgeStandaloneDelivers(h.view());
    expect(j.status).toBe('pass');
    expect(j.checked?.count).toBe(1);
  });

  test('a notification never delivered on a stream that stayed connected: fail, naming it', () => {
    const { h, get, call } = unsolicited();
    h.deliver(get, 'g2', note('u', 2));
    const j = judgeStandaloneDelivers(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/never got unsolicited notification 1 of u$/);
    expect(j.level).toBeUndefined();
    expect(j.evidence).toEqual([h.view().exchanges.get(call.conn)!.request.seq]);
    // the client's closing of everything at the end does not excuse it
    h.drop(get, { atClose: true });
    expect(judgeStandaloneDelivers(h.view()).status).toBe('fail');
  });

  test('received but not processed, or processed only as a duplicate, is not delivered', () => {
    const { h, get } = unsolicited();
    h.frame(get, 'g1', note('u', 1));
    h.deliver(get, 'g2', note('u', 2));
    h.drain(get, 'g2', note('u', 2), true);
    expect(judgeStandaloneDelivers(h.view()).reason).toMatch(/never got unsolicited notification 1 of u$/);
  });

  test('delivered on another stream of the session counts: where the server puts them is its design', () => {
    const { h, call } = unsolicited();
    h.deliver(call.conn, 'c0', note('u', 1));
    h.deliver(call.conn, 'c0b', note('u', 2));
    expect(judgeStandaloneDelivers(h.view()).status).toBe('pass');
  });

  test('a stream the client dropped, the server closed or a resume continued promises nothing live here', () => {
    const dropped = unsolicited();
    dropped.h.drop(dropped.get);
    expect(judgeStandaloneDelivers(dropped.h.view()).status).toBe('skip');

    const closed = unsolicited();
    closed.h.end(closed.get);
    expect(judgeStandaloneDelivers(closed.h.view()).status).toBe('skip');

    // resumed: no-silent-loss judges it
    const resumed = unsolicited();
    resumed.h.deliver(resumed.get, 'g0', undefined);
    resumed.h.drop(resumed.get);
    resumed.h.resume('S', 'g0', {}, { resumes: resumed.get });
    expect(judgeStandaloneDelivers(resumed.h.view()).status).toBe('skip');
  });

  test('a session the client left, an unanswered call, a refused GET, or no unsolicited call: nothing to judge', () => {
    const left = unsolicited();
    left.h.initialize('T');
    expect(judgeStandaloneDelivers(left.h.view()).status).toBe('skip');

    const unanswered = new HistoryBuilder();
    unanswered.initialize('S');
    const get = unanswered.openStandalone('S');
    unanswered.emitUnsolicited('S', 'u', 1);
    expect(judgeStandaloneDelivers(unanswered.view()).status).toBe('skip');
    unanswered.deliver(get, 'g1', note('u', 1));
    expect(judgeStandaloneDelivers(unanswered.view()).status).toBe('skip');

    const refused = new HistoryBuilder();
    refused.initialize('S');
    refused.openStandalone('S', { status: 405, sse: false });
    const call = refused.emitUnsolicited('S', 'u', 1);
    refused.deliver(call.conn, 'c1', emitResult(call.id, 'u'));
    expect(judgeStandaloneDelivers(refused.view()).status).toBe('skip');

    const quiet = new HistoryBuilder();
    quiet.initialize('S');
    quiet.openStandalone('S');
    const emit = quiet.emit('S', 'a', 1);
    quiet.deliver(emit.conn, 'e1', emitResult(emit.id, 'a'));
    expect(judgeStandaloneDelivers(quiet.view()).status).toBe('skip');
  });

  test('only calls made after the stream opened are owed on it', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emitUnsolicited('S', 'u', 1);
    h.deliver(call.conn, 'c1', emitResult(call.id, 'u'));
    h.openStandalone('S');
    expect(judgeStandaloneDelivers(h.view()).status).toBe('skip');
  });
});

import { describe, expect, test } from 'vitest';
import { judgeReplayHasNoGap } from '../../properties/judges/replay-has-no-gap.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** Session S, `emit a 3` on a stream that primed with p0 and delivered notification 1 as e1, then dropped. */
function dropped() {
  const h = new HistoryBuilder();
  h.initialize('S');
  const call = h.emit('S', 'a', 3);
  h.deliver(call.conn, 'p0', undefined);
  h.deliver(call.conn, 'e1', note('a', 1));
  h.drop(call.conn);
  return { h, call };
}

describe('replay-has-no-gap', () => {
  test('pass: the replay after e1 carries notifications 2 and 3, then the response', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    h.deliver(r, 'e3', note('a', 3));
    h.deliver(r, 'e4', emitResult(call.id, 'a'));
    h.end(r);
    const j = judgeReplayHasNoGap(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('1 accepted replay(s) continued from their cursor with no gap');
  });

  test('pass: a replay that ends early (dropped again) skipped nothing', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    h.drop(r);
    expect(judgeReplayHasNoGap(h.view()).status).toBe('pass');
  });

  test("pass: an inclusive replay that repeats the cursor first (a duplicate is order-preserved's business)", () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e1', note('a', 1));
    h.deliver(r, 'e2', note('a', 2));
    expect(judgeReplayHasNoGap(h.view()).status).toBe('pass');
  });

  test('pass: a cursor older than the retained log refused with 404 is no replay', () => {
    const { h, call } = dropped();
    h.resume('S', 'p0', { status: 404 }, { resumes: call.conn });
    expect(judgeReplayHasNoGap(h.view()).status).toBe('skip');
  });

  test('fail: resumed from the priming event, the replay starts at notification 3 (retention dropped 1 and 2)', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 3);
    h.deliver(call.conn, 'p0', undefined);
    h.drop(call.conn);
    const r = h.resume('S', 'p0', {}, { resumes: call.conn });
    const third = h.frame(r, 'e3', note('a', 3));
    const j = judgeReplayHasNoGap(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe(
      'the resume with Last-Event-ID "p0" (after the priming event) was answered 200 with a replay that skips notification 1 of a to notification 2 of a: its first message after the gap is notification 3 of a',
    );
    expect(j.evidence).toContain(third.seq);
  });

  test('fail: a replay that skips the last notification and carries the response', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    h.deliver(r, 'e4', emitResult(call.id, 'a'));
    expect(judgeReplayHasNoGap(h.view()).reason).toMatch(/skips notification 3 of a: its first message after the gap is the response to a$/);
  });

  test('skip: no resume at all, or resumption never offered', () => {
    const { h } = dropped();
    expect(judgeReplayHasNoGap(h.view()).status).toBe('skip');
    const none = new HistoryBuilder();
    none.initialize('S');
    const call = none.emit('S', 'a', 1);
    none.deliver(call.conn, undefined, note('a', 1));
    expect(judgeReplayHasNoGap(none.view()).reason).toMatch(/^resumption not offered/);
  });

  test('a made-up cursor is not judged here (unknown-cursor-rejected judges it)', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'garbage-0', {}, { resumes: call.conn });
    h.deliver(r, 'e3', note('a', 3));
    expect(judgeReplayHasNoGap(h.view()).status).toBe('skip');
  });
});

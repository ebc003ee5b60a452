import { describe, expect, test } from 'vitest';
import { judgeNoSilentLoss } from '../../properties/judges/no-silent-loss.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

/** A session whose `emit a 2` stream delivers notification 1 (ID e1 after priming e0) and is dropped. */
function dropped(ids = true) {
  const h = new HistoryBuilder();
  h.initialize('S');
  const call = h.emit('S', 'a', 2);
  if (ids) h.frame(call.conn, 'e0', undefined);
  h.deliver(call.conn, ids ? 'e1' : undefined, note('a', 1));
  h.drop(call.conn);
  return { h, call };
}

describe('no-silent-loss', () => {
  test("pass: an accepted resume with the stream's own cursor delivers the rest", () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    h.deliver(r, 'e3', emitResult(call.id, 'a'));
    const j = judgeNoSilentLoss(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toMatch(/1 resumed stream\(s\) delivered everything/);
  });

  test('fail: an accepted resume that never delivers the response', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    const j = judgeNoSilentLoss(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toContain(`the application never got the response to tools/call id ${call.id}`);
    expect(j.reason).toContain('Last-Event-ID e1');
    expect(j.evidence).toEqual([h.entries.find((e) => e.type === 'request' && e.conn === r)!.seq]);
    // A lost response breaks the SHOULD: the property's own level.
    expect(j.level).toBeUndefined();
  });

  test('fail: a response lost where the replay shows no gap rests on the wait that ended without it', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e2', note('a', 2));
    const wait = h.timeout(r, call.id);
    const j = judgeNoSilentLoss(h.view());
    expect(j.status).toBe('fail');
    // That is where the client learned of the loss (and where the stall and the retry follow from it).
    expect(j.evidence).toEqual([wait.seq]);
    // A wait for no response in particular (a frame, a notification), or one before the resume, is no such evidence.
    const quiet = dropped();
    quiet.h.add({ type: 'failure', conn: quiet.call.conn, reason: 'timeout', detail: 'no frame within 1000 ms' });
    const again = quiet.h.resume('S', 'e1', {}, { resumes: quiet.call.conn });
    quiet.h.add({ type: 'failure', conn: again, reason: 'timeout', detail: 'no frame within 1000 ms' });
    expect(judgeNoSilentLoss(quiet.h.view()).evidence).toEqual([quiet.h.entries.find((e) => e.type === 'request' && e.conn === again)!.seq]);
    // A replay that skips a notification and carries what follows shows the loss itself.
    const gap = new HistoryBuilder();
    gap.initialize('S');
    const three = gap.emit('S', 'b', 3);
    gap.deliver(three.conn, 'e1', note('b', 1));
    gap.drop(three.conn);
    const resumed = gap.resume('S', 'e1', {}, { resumes: three.conn });
    gap.deliver(resumed, 'e3', note('b', 3));
    gap.timeout(resumed, three.id);
    const skipped = judgeNoSilentLoss(gap.view());
    expect(skipped.reason).toMatch(/never got notification 2 of b, the response to tools\/call id \d+$/);
    expect(skipped.evidence).toEqual([gap.entries.find((e) => e.type === 'request' && e.conn === resumed)!.seq]);
  });

  test('fail: a skipped notification is named', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.deliver(r, 'e3', emitResult(call.id, 'a'));
    const j = judgeNoSilentLoss(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(/never got notification 2 of a$/);
    // Notifications alone: no SHOULD says a replay carries them, so the failure is graded POLICY.
    expect(j.level).toBe('policy');
  });

  test('a lost response anywhere in the run is the failure reported, at SHOULD, even after a stream that lost notifications only', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const a = h.emit('S', 'a', 2);
    h.deliver(a.conn, 'a1', note('a', 1));
    h.drop(a.conn);
    const b = h.emit('S', 'b', 1);
    h.deliver(b.conn, 'b1', note('b', 1));
    h.drop(b.conn);
    const ra = h.resume('S', 'a1', {}, { resumes: a.conn });
    h.deliver(ra, 'a3', emitResult(a.id, 'a'));
    h.resume('S', 'b1', {}, { resumes: b.conn });
    const j = judgeNoSilentLoss(h.view());
    expect(j.reason).toMatch(/never got the response to tools\/call id \d+$/);
    expect(j.level).toBeUndefined();
  });

  test("fail: a foreign cursor (another session's) accepted for a stream that offered one still owes the stream", () => {
    const h = new HistoryBuilder();
    h.initialize('OLD');
    const old = h.emit('OLD', 'o', 1);
    h.deliver(old.conn, 'x1', note('o', 1));
    h.deliver(old.conn, 'x2', emitResult(old.id, 'o'));
    h.initialize('S');
    const call = h.emit('S', 'a', 2);
    h.frame(call.conn, 'e0', undefined);
    h.drop(call.conn);
    h.resume('S', 'x1', {}, { resumes: call.conn });
    expect(judgeNoSilentLoss(h.view()).status).toBe('fail');
  });

  test('skip: a made-up cursor accepted with a quiet stream is no loss', () => {
    const { h, call } = dropped();
    h.resume('S', 'garbage-0', {}, { resumes: call.conn });
    const j = judgeNoSilentLoss(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no resume was accepted for a stream the client kept');
  });

  test('skip: a server without event IDs answers a made-up cursor with an unrelated stream: resumption not offered', () => {
    const { h, call } = dropped(false);
    const r = h.resume('S', 'garbage-0', {}, { resumes: call.conn });
    const unsolicited = h.emitUnsolicited('S', 'u', 1);
    h.deliver(unsolicited.conn, undefined, emitResult(unsolicited.id, 'u'));
    h.deliver(r, undefined, note('u', 1));
    const j = judgeNoSilentLoss(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toMatch(/^resumption not offered/);
  });

  test('skip: a resume whose last connection the client dropped again, or whose resume was refused', () => {
    const a = dropped();
    const r = a.h.resume('S', 'e1', {}, { resumes: a.call.conn });
    a.h.drop(r);
    expect(judgeNoSilentLoss(a.h.view()).status).toBe('skip');
    const b = dropped();
    b.h.resume('S', 'e1', { status: 404, body: { error: 'gone' } }, { resumes: b.call.conn });
    expect(judgeNoSilentLoss(b.h.view()).status).toBe('skip');
  });

  test('skip: the client left the session after the resume (DELETE, or a new initialize)', () => {
    const a = dropped();
    a.h.resume('S', 'e1', {}, { resumes: a.call.conn });
    a.h.delete('S');
    expect(judgeNoSilentLoss(a.h.view()).status).toBe('skip');
    const b = dropped();
    b.h.resume('S', 'e1', {}, { resumes: b.call.conn });
    b.h.initialize('T');
    expect(judgeNoSilentLoss(b.h.view()).status).toBe('skip');
  });

  test('a dropped connection at the end of the scenario (atClose) does not excuse a loss', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.drop(r, { atClose: true });
    expect(judgeNoSilentLoss(h.view()).status).toBe('fail');
  });

  test('the standalone stream owes the unsolicited notifications of calls made after it opened', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const get = h.openStandalone('S');
    const call = h.emitUnsolicited('S', 'u', 2);
    h.deliver(call.conn, 'c1', emitResult(call.id, 'u'));
    h.deliver(get, 'g1', note('u', 1));
    h.drop(get);
    const r = h.resume('S', 'g1', {}, { resumes: get });
    const missing = judgeNoSilentLoss(h.view());
    expect(missing.status).toBe('fail');
    expect(missing.reason).toMatch(/never got unsolicited notification 2 of u/);
    expect(missing.level).toBe('policy');
    h.deliver(r, 'g2', note('u', 2));
    expect(judgeNoSilentLoss(h.view()).status).toBe('pass');
  });

  test('a duplicate dropped by client-side dedup does not count as delivered', () => {
    const { h, call } = dropped();
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.frame(r, 'e2', note('a', 2));
    h.drain(r, 'e2', note('a', 2), true);
    h.deliver(r, 'e3', emitResult(call.id, 'a'));
    expect(judgeNoSilentLoss(h.view()).reason).toMatch(/never got notification 2 of a/);
  });
});

import { describe, expect, test } from 'vitest';
import { HistoryBuilder, note } from './history-builder.js';

/** Session A with stream a (IDs a1), session B with streams b (b1) and c (c1, dropped). */
function twoSessions() {
  const h = new HistoryBuilder();
  h.initialize('A');
  const a = h.emit('A', 'a', 1);
  h.deliver(a.conn, 'a1', note('a', 1));
  h.initialize('B');
  const b = h.emit('B', 'b', 1);
  h.deliver(b.conn, 'b1', note('b', 1));
  const c = h.emit('B', 'c', 2);
  h.deliver(c.conn, 'c1', note('c', 1));
  h.drop(c.conn);
  return { h, c };
}

describe("HistoryView: where a resume's cursor came from", () => {
  test('stream, session, foreign, made-up', () => {
    const { h, c } = twoSessions();
    const own = h.resume('B', 'c1', {}, { resumes: c.conn });
    const sameSession = h.resume('B', 'b1', {}, { resumes: c.conn });
    const foreign = h.resume('B', 'a1', {}, { resumes: c.conn });
    const madeUp = h.resume('B', 'garbage-0', {}, { resumes: c.conn });
    const view = h.view();
    expect([own, sameSession, foreign, madeUp].map((r) => view.cursorSource(r))).toEqual(['stream', 'session', 'foreign', 'made-up']);
    expect([own, sameSession, foreign, madeUp].map((r) => view.isClientResume(r))).toEqual([true, true, true, false]);
    expect([own, madeUp].map((r) => view.isCursorProbe(r))).toEqual([false, true]);
    expect(view.offersResumption()).toBe(true);
  });

  test('a cursor received only after it was presented is made up at the time', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 2);
    h.frame(call.conn, 'p0', undefined);
    h.drop(call.conn);
    const r = h.resume('S', 'later', {}, { resumes: call.conn });
    h.frame(r, 'later', note('a', 1));
    expect(h.view().cursorSource(r)).toBe('made-up');
  });

  test('a stream that never carried an event ID offered no cursor, whatever other streams did', () => {
    const { h } = twoSessions();
    const get = h.openStandalone('B');
    h.deliver(get, undefined, note('u', 1));
    h.drop(get);
    const stale = h.resume('B', 'a1', {}, { resumes: get });
    const view = h.view();
    expect(view.cursorSource(stale)).toBe('foreign');
    expect(view.offeredCursor(stale)).toBe(false);
    expect(view.isClientResume(stale)).toBe(false);
  });

  test('without a recorded stream to continue, a real cursor is offered by definition, a made-up one if any ID was sent', () => {
    const { h } = twoSessions();
    const foreign = h.resume('B', 'a1');
    const madeUp = h.resume('B', 'nope');
    const view = h.view();
    expect(view.offeredCursor(foreign)).toBe(true);
    expect(view.offeredCursor(madeUp)).toBe(true);
    const bare = new HistoryBuilder();
    bare.initialize('S');
    const r = bare.resume('S', 'nope');
    expect(bare.view().offeredCursor(r)).toBe(false);
    expect(bare.view().offersResumption()).toBe(false);
  });

  test('a request without a cursor has no cursor source', () => {
    const { h } = twoSessions();
    const get = h.openStandalone('B');
    expect(h.view().cursorSource(get)).toBeUndefined();
    expect(h.view().isCursorProbe(get)).toBe(false);
  });
});

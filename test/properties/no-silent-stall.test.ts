import { describe, expect, test } from 'vitest';
import { judgeNoSilentStall } from '../../properties/judges/no-silent-stall.js';
import { HistoryBuilder, emitResult, note } from './history-builder.js';

describe('no-silent-stall', () => {
  test('pass: every request answered (JSON body or on its stream)', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 1);
    h.deliver(call.conn, 'e1', note('a', 1));
    h.deliver(call.conn, 'e2', emitResult(call.id, 'a'));
    const j = judgeNoSilentStall(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('2 request(s) answered, none left waiting');
  });

  test('fail: a request left waiting on its live stream until the bound', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 1);
    h.deliver(call.conn, 'e1', note('a', 1));
    const t = h.timeout(call.conn, call.id);
    const j = judgeNoSilentStall(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toMatch(new RegExp(`^tools/call id ${call.id} got neither its response nor an error`));
    expect(j.evidence).toEqual([t.seq]);
  });

  test('fail: a POST never answered at all', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const id = 999;
    h.add({
      type: 'request',
      conn: 50,
      transport: 'streamable',
      endpoint: 'mcp',
      purpose: 'ping',
      method: 'POST',
      url: 'http://127.0.0.1/mcp',
      headers: {},
      sessionId: 'S',
      body: { jsonrpc: '2.0', id, method: 'ping' },
    });
    h.add({ type: 'failure', conn: 50, reason: 'timeout', detail: 'no response to POST /mcp within 1000 ms' });
    expect(judgeNoSilentStall(h.view()).reason).toMatch(/^ping id 999 got neither/);
  });

  test('fail: waiting on a stream resumed with a real cursor', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const call = h.emit('S', 'a', 2);
    h.deliver(call.conn, 'e1', note('a', 1));
    h.drop(call.conn);
    const r = h.resume('S', 'e1', {}, { resumes: call.conn });
    h.timeout(r, call.id);
    expect(judgeNoSilentStall(h.view()).status).toBe('fail');
  });

  test('no stall: waiting on a stream got with a made-up cursor, or for a stream that never offered one', () => {
    for (const ids of [true, false]) {
      const h = new HistoryBuilder();
      h.initialize('S');
      const call = h.emit('S', 'a', 2);
      h.deliver(call.conn, ids ? 'e1' : undefined, note('a', 1));
      h.drop(call.conn);
      const r = h.resume('S', ids ? 'garbage-0' : 'e1-not-sent', {}, { resumes: call.conn });
      h.timeout(r, call.id);
      expect(judgeNoSilentStall(h.view()).status, `ids: ${ids}`).toBe('pass');
    }
  });

  test('skip: no request answered or awaited', () => {
    const h = new HistoryBuilder();
    h.openStandalone('S');
    const j = judgeNoSilentStall(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no request was answered or awaited');
  });
});

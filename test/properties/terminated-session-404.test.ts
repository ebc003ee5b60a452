import { describe, expect, test } from 'vitest';
import { judgeTerminatedSession404 } from '../../properties/judges/terminated-session-404.js';
import { HistoryBuilder } from './history-builder.js';

const gone = { status: 404, body: { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null } };

describe('terminated-session-404', () => {
  test('pass: a request and a resume after DELETE both get 404', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    h.delete('S');
    h.post('S', 'ping', undefined, gone);
    h.resume('S', 'e1', gone);
    const j = judgeTerminatedSession404(h.view());
    expect(j.status).toBe('pass');
    expect(j.reason).toBe('2 request(s) after DELETE answered 404');
  });

  test('fail: a request after DELETE answered 200', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    const del = h.delete('S');
    h.post('S', 'ping', undefined, { body: { jsonrpc: '2.0', id: 1, result: {} } });
    const j = judgeTerminatedSession404(h.view());
    expect(j.status).toBe('fail');
    expect(j.reason).toBe('after DELETE of session S answered 200, a POST ping was answered 200, not 404');
    expect(j.evidence![0]).toBe(h.entries.find((e) => e.type === 'request' && e.conn === del)!.seq);
  });

  test('fail: 400 is not 404', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    h.delete('S', 204);
    h.resume('S', 'e1', { status: 400, body: {} });
    expect(judgeTerminatedSession404(h.view()).reason).toMatch(/a GET resume was answered 400, not 404$/);
  });

  test('skip: DELETE refused (the server does not end sessions on request)', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    h.delete('S', 405);
    h.post('S', 'ping', undefined, { body: { jsonrpc: '2.0', id: 1, result: {} } });
    const j = judgeTerminatedSession404(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('DELETE was answered 405: the candidate does not end sessions on request');
  });

  test('skip: nothing followed the DELETE; requests of other sessions do not count', () => {
    const h = new HistoryBuilder();
    h.initialize('S');
    h.initialize('T');
    h.delete('S');
    h.post('T', 'ping', undefined, { body: { jsonrpc: '2.0', id: 1, result: {} } });
    const j = judgeTerminatedSession404(h.view());
    expect(j.status).toBe('skip');
    expect(j.reason).toBe('no request followed a DELETE');
  });
});

/** The reference server's bounds: an idle TTL, a session cap, and log retention; what is gone answers 404. */
import { describe, expect, test } from 'vitest';
import { reference } from '../../model/policy.js';
import { SessionStore } from '../../src/reference/session-store.js';
import { POST_HEADERS, initializeBody, raw, startServer, until, useCleanup } from './helpers.js';

useCleanup();

async function initialize(url: string): Promise<string> {
  const answer = await raw(url, { method: 'POST', path: '/mcp', headers: POST_HEADERS, body: initializeBody() });
  expect(answer.status).toBe(200);
  return String(answer.headers['mcp-session-id']);
}

function ping(url: string, session: string) {
  return raw(url, {
    method: 'POST',
    path: '/mcp',
    headers: { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    readMs: 200,
  });
}

function ids(sse: string): string[] {
  return [...sse.matchAll(/^id: ?(.*)$/gm)].map((m) => m[1]!);
}

describe('session limits', () => {
  test('past the cap the least recently used sessions are evicted and answer 404; the others are served', async () => {
    const server = await startServer({ limits: { maxSessions: 3 } });
    const sessions: string[] = [];
    for (let i = 0; i < 5; i++) sessions.push(await initialize(server.url));
    expect(server.sessions.size).toBe(3);
    expect(server.evicted).toBe(2);
    for (const gone of sessions.slice(0, 2)) expect((await ping(server.url, gone)).status).toBe(404);
    for (const kept of sessions.slice(2)) expect((await ping(server.url, kept)).status).toBe(200);
    expect(server.internalErrors).toEqual([]);
  });

  test('a session used recently is not the one evicted', async () => {
    const server = await startServer({ limits: { maxSessions: 2 } });
    const first = await initialize(server.url);
    const second = await initialize(server.url);
    expect((await ping(server.url, first)).status).toBe(200);
    await initialize(server.url);
    expect((await ping(server.url, second)).status).toBe(404);
    expect((await ping(server.url, first)).status).toBe(200);
  });

  test('an idle session expires after the TTL and then answers 404, as a DELETEd one does', async () => {
    // The DELETEd session on a server of its own, without a TTL that could expire it first on a loaded machine.
    const plain = await startServer({ limits: { sessionTtlMs: Number.POSITIVE_INFINITY } });
    const deleted = await initialize(plain.url);
    const del = await raw(plain.url, { method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': deleted, 'mcp-protocol-version': '2025-11-25' } });
    expect(del.status).toBe(200);
    const terminated = await ping(plain.url, deleted);
    const server = await startServer({ limits: { sessionTtlMs: 50 } });
    const idle = await initialize(server.url);
    await until(() => !server.sessions.has(idle), 'the idle session to expire');
    const expired = await ping(server.url, idle);
    expect(expired.status).toBe(404);
    expect(terminated.status).toBe(404);
    expect(expired.json.error.code).toBe(terminated.json.error.code);
    expect(server.internalErrors).toEqual([]);
  });

  test('a session with a connection attached is not idle: the sweep keeps it until the connection is lost', () => {
    // The store itself, swept with a clock set past the TTL: no waiting on timers.
    const ttl = 60_000;
    const store = new SessionStore({ ...reference.server, sessionExpiry: 'idleTtl' }, '/messages', () => {}, undefined, {
      sessionTtlMs: ttl,
      maxSessions: 10,
      retainedEvents: Number.POSITIVE_INFINITY,
    });
    try {
      const session = store.create('streamable');
      session.step({ type: 'INITIALIZE', transport: 'streamable', protocolVersion: '2025-11-25', capabilities: {} });
      store.add(session);
      const opened = session.step({ type: 'OPEN_STANDALONE', transport: 'streamable' });
      store.sweep(Date.now() + 2 * ttl);
      expect(store.get(session.id)).toBe(session);
      expect(session.state).toBe('active');
      session.step({ type: 'CONNECTION_LOST', stream: opened.stream! });
      store.sweep(Date.now() + 2 * ttl);
      expect(store.get(session.id)).toBeUndefined();
      expect(session.state).toBe('terminated');
      expect(store.evicted).toBe(1);
    } finally {
      store.dispose();
    }
  });

  test('log retention: a cursor older than the retained log is refused 404, a retained one replays with no gap', async () => {
    const server = await startServer({ limits: { retainedEvents: 2 } });
    const session = await initialize(server.url);
    const headers = { ...POST_HEADERS, 'mcp-session-id': session, 'mcp-protocol-version': '2025-11-25' };
    const call = await raw(server.url, {
      method: 'POST',
      path: '/mcp',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'emit', arguments: { label: 'a', count: 3 } } }),
      readMs: 300,
    });
    const sent = ids(call.text);
    expect(sent).toHaveLength(5); // priming, 3 notifications, the response
    const resume = (cursor: string) =>
      raw(server.url, { method: 'GET', path: '/mcp', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': cursor }, readMs: 200 });
    expect((await resume(sent[0]!)).status).toBe(404);
    expect((await resume(sent[2]!)).status).toBe(404);
    const replay = await resume(sent[3]!);
    expect(replay.status).toBe(200);
    expect(ids(replay.text)).toEqual([sent[4]]);
    expect(server.internalErrors).toEqual([]);
  });
});

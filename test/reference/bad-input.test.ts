/**
 * Bad input over real HTTP: each kind of bad request gets its 4xx and a JSON-RPC error body, and a
 * bounded fuzz of random requests never gets a 5xx nor stops the server from serving a fresh
 * session end to end.
 */
import http from 'node:http';
import net from 'node:net';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { CheckClient, toolText } from '../../src/wire/index.js';
import type { ReferenceServer } from '../../src/reference/index.js';
import { POST_HEADERS, defer, initializeBody, raw, startServer, useCleanup, withBound, type RawAnswer } from './helpers.js';

useCleanup();

const SESSION_NOT_FOUND = { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null };

/** A live streamable session: its ID and the ID of an event in its log. */
async function streamableSession(server: ReferenceServer): Promise<{ id: string; cursor: string }> {
  const init = await raw(server.url, { method: 'POST', path: '/mcp', headers: POST_HEADERS, body: initializeBody() });
  const id = init.headers['mcp-session-id'] as string;
  const ping = await raw(server.url, {
    method: 'POST',
    path: '/mcp',
    headers: { ...POST_HEADERS, 'mcp-session-id': id },
    body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'ping' }),
    readMs: 50,
  });
  expect(ping.status).toBe(200);
  return { id, cursor: server.sessions.get(id)!.context.log.at(-1)!.id };
}

function post(server: ReferenceServer, body: string, headers: Record<string, string> = {}, path = '/mcp'): Promise<RawAnswer> {
  return raw(server.url, { method: 'POST', path, headers: { ...POST_HEADERS, ...headers }, body });
}

function expectError(answer: RawAnswer, status: number, code: number, message?: RegExp): void {
  expect(answer.status).toBe(status);
  expect(answer.headers['content-type']).toBe('application/json');
  expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code } });
  expect(typeof answer.json.error.message).toBe('string');
  if (message) expect(answer.json.error.message).toMatch(message);
}

describe('bad input gets a 4xx with a JSON-RPC error body', () => {
  test('malformed JSON: 400 -32700', async () => {
    const server = await startServer();
    expectError(await post(server, '{"jsonrpc": "2.0", '), 400, -32700);
  });

  test('JSON-RPC batch and invalid envelopes: 400 -32600', async () => {
    const server = await startServer();
    expectError(await post(server, `[${initializeBody()}]`), 400, -32600, /batch/);
    expectError(await post(server, '{"jsonrpc":"1.0","id":1,"method":"ping"}'), 400, -32600);
    expectError(await post(server, '{"jsonrpc":"2.0","id":{},"method":"ping"}'), 400, -32600);
    expectError(await post(server, '{"jsonrpc":"2.0"}'), 400, -32600);
    expectError(await post(server, '"text"'), 400, -32600);
    expectError(await post(server, '{"jsonrpc":"2.0","id":1,"method":"initialize","params":[]}'), 400, -32600);
  });

  test('initialize with bad params: 400 -32602 and no session', async () => {
    const server = await startServer();
    const answer = await post(server, '{"jsonrpc":"2.0","id":3,"method":"initialize","params":{"protocolVersion":1,"capabilities":{}}}');
    expectError(answer, 400, -32602);
    expect(answer.json.id).toBe(3);
    expect(answer.headers['mcp-session-id']).toBeUndefined();
    expect(server.sessions.size).toBe(0);
  });

  test('body over the size limit: 413, by Content-Length or by counting a chunked body', async () => {
    const server = await startServer({ maxBodyBytes: 1024 });
    const big = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(2000) } });
    expectError(await post(server, big), 413, -32000, /1024/);

    const chunked = await withBound(
      new Promise<RawAnswer>((resolve, reject) => {
        const url = new URL(server.url);
        const req = http.request(
          { host: url.hostname, port: url.port, method: 'POST', path: '/mcp', headers: { ...POST_HEADERS, 'transfer-encoding': 'chunked' } },
          (res) => {
            let text = '';
            res.setEncoding('utf8');
            res.on('data', (c: string) => (text += c));
            res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, text, json: JSON.parse(text) }));
          },
        );
        req.on('error', reject);
        for (let i = 0; i < 8; i++) req.write(big.slice(i * 256, (i + 1) * 256));
        req.end(big.slice(2048));
      }),
      'chunked oversized POST',
    );
    expectError(chunked, 413, -32000);
  });

  test('wrong content type on POST: 415, at both endpoints', async () => {
    const server = await startServer();
    expectError(await post(server, initializeBody(), { 'content-type': 'text/plain' }), 415, -32000);
    expectError(await post(server, '{}', { 'content-type': 'application/x-www-form-urlencoded' }, '/messages?sessionId=abc'), 415, -32000);
  });

  test('missing or wrong Accept: 406', async () => {
    const server = await startServer();
    expectError(await post(server, initializeBody(), { accept: 'application/json' }), 406, -32000);
    expectError(await raw(server.url, { method: 'POST', path: '/mcp', headers: { 'content-type': 'application/json' }, body: initializeBody() }), 406, -32000);
    const { id } = await streamableSession(server);
    expectError(await raw(server.url, { method: 'GET', path: '/mcp', headers: { accept: 'application/json', 'mcp-session-id': id } }), 406, -32000);
    expectError(await raw(server.url, { method: 'GET', path: '/sse', headers: {} }), 406, -32000);
  });

  test('session IDs outside visible ASCII or absurdly long: 400', async () => {
    const server = await startServer();
    const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
    for (const bad of ['has space', 'caf\u00e9', 'x'.repeat(257)]) {
      expectError(await post(server, ping, { 'mcp-session-id': bad }), 400, -32000, /session ID/);
    }
    expectError(
      await raw(server.url, {
        method: 'POST',
        path: `/messages?sessionId=${encodeURIComponent('a\u0001b')}`,
        headers: { 'content-type': 'application/json' },
        body: ping,
      }),
      400,
      -32000,
    );
  });

  test('a request other than initialize without a session: 400', async () => {
    const server = await startServer();
    const answer = await post(server, JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }));
    expectError(answer, 400, -32000, /Mcp-Session-Id/);
    expect(answer.json.id).toBe(5);
    expectError(await raw(server.url, { method: 'GET', path: '/mcp', headers: { accept: 'text/event-stream' } }), 400, -32000);
    expectError(await raw(server.url, { method: 'DELETE', path: '/mcp' }), 400, -32000);
    expectError(await post(server, '{}', {}, '/messages'), 400, -32000, /sessionId/);
  });

  test('unknown sessions: 404 with the SDK\'s "Session not found" body, at every endpoint', async () => {
    const server = await startServer();
    const unknown = 'f'.repeat(32);
    const ping = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect((await post(server, ping, { 'mcp-session-id': unknown })).json).toEqual(SESSION_NOT_FOUND);
    expect((await post(server, ping, { 'mcp-session-id': unknown })).status).toBe(404);
    const get = await raw(server.url, {
      method: 'GET',
      path: '/mcp',
      headers: { accept: 'text/event-stream', 'mcp-session-id': unknown, 'last-event-id': 'x' },
    });
    expect([get.status, get.json]).toEqual([404, SESSION_NOT_FOUND]);
    const del = await raw(server.url, { method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': unknown } });
    expect([del.status, del.json]).toEqual([404, SESSION_NOT_FOUND]);
    const legacy = await post(server, ping, {}, `/messages?sessionId=${unknown}`);
    expect([legacy.status, legacy.json]).toEqual([404, SESSION_NOT_FOUND]);
    const legacyResume = await raw(server.url, {
      method: 'GET',
      path: `/sse?sessionId=${unknown}`,
      headers: { accept: 'text/event-stream', 'last-event-id': 'x' },
    });
    expect([legacyResume.status, legacyResume.json]).toEqual([404, SESSION_NOT_FOUND]);
  });

  test('garbage and foreign Last-Event-IDs: what the machine says (404 under reference)', async () => {
    const server = await startServer();
    const a = await streamableSession(server);
    const b = await streamableSession(server);
    const resume = (sessionId: string, lastEventId: string) =>
      raw(server.url, {
        method: 'GET',
        path: '/mcp',
        headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', 'last-event-id': lastEventId },
      });
    expectError(await resume(a.id, 'garbage'), 404, -32001, /not an event of this session/);
    expectError(await resume(a.id, b.cursor), 404, -32001, /not an event of this session/); // b's cursor, a's session
    expect((await resume(a.id, a.cursor)).status).toBe(200);
  });

  test('after DELETE the session answers 404, and an unsupported MCP-Protocol-Version is 400', async () => {
    const server = await startServer();
    const { id } = await streamableSession(server);
    expectError(
      await post(server, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }), { 'mcp-session-id': id, 'mcp-protocol-version': '1999-01-01' }),
      400,
      -32000,
      /MCP-Protocol-Version/,
    );
    const del = await raw(server.url, { method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': id } });
    expect(del.status).toBe(200);
    expectError(await post(server, JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'ping' }), { 'mcp-session-id': id }), 404, -32001, /terminated/);
  });

  test('unknown paths 404, wrong methods 405 with Allow, a legacy resume without Last-Event-ID 404', async () => {
    const server = await startServer();
    expectError(await raw(server.url, { method: 'GET', path: '/nope' }), 404, -32000);
    const put = await raw(server.url, { method: 'PUT', path: '/mcp', body: '{}' });
    expectError(put, 405, -32000);
    expect(put.headers.allow).toBe('GET, POST, DELETE');
    expectError(await raw(server.url, { method: 'POST', path: '/sse', body: '{}' }), 405, -32000);
    expectError(await raw(server.url, { method: 'GET', path: '/messages' }), 405, -32000);
    const { id } = await streamableSession(server);
    // A streamable session presented at /sse is not found for that transport, cursor or not.
    expectError(
      await raw(server.url, { method: 'GET', path: `/sse?sessionId=${id}`, headers: { accept: 'text/event-stream' } }),
      404,
      -32001,
      /not found for this transport/,
    );
  });

  test('malformed HTTP gets 400 with a JSON-RPC body too', async () => {
    const server = await startServer();
    const url = new URL(server.url);
    const text = await withBound(
      new Promise<string>((resolve, reject) => {
        const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => socket.write('NOT HTTP AT ALL\r\n\r\n'));
        let got = '';
        socket.setEncoding('utf8').on('data', (c: string) => (got += c));
        socket.on('end', () => resolve(got));
        socket.on('error', reject);
      }),
      'answer to malformed HTTP',
    );
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toMatchObject({ jsonrpc: '2.0', error: { code: -32600 } });
  });

  test('unknown methods and tools are JSON-RPC errors on the request stream', async () => {
    const server = await startServer();
    const c = new CheckClient({ baseUrl: server.url, timeoutMs: 3000 });
    defer(() => c.close());
    expect((await c.initialize()).ok).toBe(true);
    const method = await (await c.request('resources/list')).response();
    expect(method.kind === 'response' && method.message.error).toMatchObject({ code: -32601 });
    const tool = await (await c.callTool('nope')).response();
    expect(tool.kind === 'response' && tool.message.error).toMatchObject({ code: -32602 });
    const args = await (await c.callTool('emit', { label: 1, count: 1 })).response();
    expect(args.kind === 'response' && args.message.error).toMatchObject({ code: -32602 });
  });
});

// ------------------------------------------------------------------------------------------ fuzz

/** Strings node:http will send as a header value (latin1, no control characters but tab). */
const headerText = (maxLength: number) =>
  fc.array(fc.oneof(fc.integer({ min: 0x20, max: 0x7e }), fc.integer({ min: 0x80, max: 0xff })), { maxLength }).map((codes) => String.fromCharCode(...codes));

/** Each field as a constant arbitrary, for `fc.record`. */
function constants<T extends Record<string, unknown>>(values: T): { [K in keyof T]: fc.Arbitrary<T[K]> } {
  return Object.fromEntries(Object.entries(values).map(([k, v]) => [k, fc.constant(v)])) as { [K in keyof T]: fc.Arbitrary<T[K]> };
}

const validBodies = [
  initializeBody({ roots: {} }),
  initializeBody({}, '2024-11-05'),
  JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  JSON.stringify({ jsonrpc: '2.0', id: 'x', method: 'tools/list' }),
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  JSON.stringify({ jsonrpc: '2.0', id: 9, result: {} }),
  JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'session_info', arguments: {} } }),
];

test('fuzz: random requests never get a 5xx, and the server still serves a fresh session', async () => {
  const server = await startServer({ maxBodyBytes: 64 * 1024 });
  const streamable = await streamableSession(server);
  const legacy = new CheckClient({ baseUrl: server.url, timeoutMs: 3000 });
  defer(() => legacy.close());
  const legacyInit = await legacy.initialize({ transport: 'sse' });
  expect(legacyInit.ok).toBe(true);
  const legacyId = legacy.session.sessionId!;
  const legacyCursor = server.sessions.get(legacyId)!.context.log.at(-1)!.id;

  const sessionId = fc.oneof(fc.constant(undefined), fc.constant(streamable.id), fc.constant(legacyId), fc.constant('0'.repeat(32)), headerText(300));
  const emitCall = fc
    .record({ label: fc.oneof(fc.string({ maxLength: 8 }), fc.integer()), count: fc.oneof(fc.integer({ min: -5, max: 1005 }), fc.double(), fc.string()) })
    .map((args) => JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'emit', arguments: args } }));
  const body = fc.oneof(
    fc.constant(undefined),
    fc.constantFrom(...validBodies),
    emitCall,
    fc.json({ maxDepth: 3 }),
    fc.string({ maxLength: 200 }),
    fc.array(fc.constantFrom(...validBodies), { minLength: 1, maxLength: 3 }).map((ms) => `[${ms.join(',')}]`),
    fc.constant('x'.repeat(70 * 1024)),
  );
  const randomRequest = fc.record({
    method: fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'HEAD'),
    path: fc.oneof(
      fc.constantFrom('/mcp', '/sse', '/messages', '/', '/mcp/', '/MCP', '//mcp', '/mcp?x=%zz', '/messages?sessionId=', '/sse?sessionId='),
      sessionId.map((id) => `/messages?sessionId=${encodeURIComponent(id ?? '')}`),
      sessionId.map((id) => `/sse?sessionId=${encodeURIComponent(id ?? '')}`),
      fc.webPath().map((p) => (p.startsWith('/') ? p : `/${p}`)),
    ),
    sessionId,
    lastEventId: fc.oneof(fc.constant(undefined), fc.constant(streamable.cursor), fc.constant(legacyCursor), headerText(80)),
    accept: fc.oneof(
      fc.constant(undefined),
      fc.constantFrom('application/json, text/event-stream', 'text/event-stream', 'application/json', '*/*', 'text/*;q=0', 'x'),
      headerText(40),
    ),
    contentType: fc.oneof(fc.constant(undefined), fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain'), headerText(40)),
    protocolVersion: fc.oneof(fc.constant(undefined), fc.constantFrom('2025-11-25', '2025-03-26', '2024-11-05', 'garbage')),
    body,
  });
  // Requests that pass the HTTP gate, so the fuzz also reaches the sessions and their machines:
  // the right method, path and headers for each endpoint, with the session, cursor and body random.
  const liveId = fc.constantFrom(streamable.id, legacyId);
  const cursor = fc.oneof(fc.constant(undefined), fc.constantFrom(streamable.cursor, legacyCursor), headerText(20));
  const messageBody = fc.oneof(fc.constantFrom(...validBodies), emitCall);
  const post = { method: 'POST', accept: 'application/json, text/event-stream', contentType: 'application/json', lastEventId: undefined };
  const get = { method: 'GET', accept: 'text/event-stream', contentType: undefined, body: undefined };
  const gatedRequest = fc.oneof(
    fc.record({ ...constants({ ...post, path: '/mcp', protocolVersion: '2025-11-25' }), sessionId: fc.option(liveId, { nil: undefined }), body: messageBody }),
    fc.record({ ...constants({ ...get, path: '/mcp', protocolVersion: undefined }), sessionId: liveId, lastEventId: cursor }),
    fc.record({
      ...constants({ ...get, sessionId: undefined, protocolVersion: undefined }),
      path: liveId.map((id) => `/sse?sessionId=${id}`),
      lastEventId: cursor,
    }),
    fc.record({
      ...constants({ ...post, sessionId: undefined, protocolVersion: undefined }),
      path: liveId.map((id) => `/messages?sessionId=${id}`),
      body: messageBody,
    }),
  );
  const request = fc.oneof(randomRequest, gatedRequest);

  const statuses = new Map<number, number>();
  await fc.assert(
    fc.asyncProperty(request, async (r) => {
      const headers: Record<string, string> = {};
      if (r.sessionId !== undefined) headers['mcp-session-id'] = r.sessionId;
      if (r.lastEventId !== undefined) headers['last-event-id'] = r.lastEventId;
      if (r.accept !== undefined) headers.accept = r.accept;
      if (r.contentType !== undefined) headers['content-type'] = r.contentType;
      if (r.protocolVersion !== undefined) headers['mcp-protocol-version'] = r.protocolVersion;
      const answer = await raw(server.url, { method: r.method, path: r.path, headers, body: r.body, timeoutMs: 3000 });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      expect(answer.status).toBeGreaterThanOrEqual(200);
      expect(answer.status).toBeLessThan(500);
      if (answer.status >= 400 && r.method !== 'HEAD') {
        expect(answer.json).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number), message: expect.any(String) } });
      }
    }),
    { seed: 20251125, numRuns: 100, endOnFailure: true },
  );
  expect(server.internalErrors).toEqual([]);
  // The fuzz reached past validation into sessions, not only the 4xx gate.
  expect([...statuses.keys()].some((s) => s < 300)).toBe(true);
  expect(statuses.get(404)).toBeGreaterThan(0);

  const fresh = new CheckClient({ baseUrl: server.url, timeoutMs: 3000 });
  defer(() => fresh.close());
  const init = await fresh.initialize();
  expect(init.ok).toBe(true);
  const emitted = await (await fresh.callTool('emit', { label: 'after-fuzz', count: 3 })).response();
  expect(emitted.kind === 'response' && JSON.parse(toolText(emitted.message)!)).toEqual({ label: 'after-fuzz', executions: 1 });
  expect(fresh.history.entries.filter((e) => e.type === 'drain' && e.message?.method === 'notifications/message')).toHaveLength(3);
  const legacyFresh = new CheckClient({ baseUrl: server.url, timeoutMs: 3000 });
  defer(() => legacyFresh.close());
  expect((await legacyFresh.initialize({ transport: 'sse' })).ok).toBe(true);
});

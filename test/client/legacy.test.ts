import type http from 'node:http';
import { afterEach, describe, expect, test } from 'vitest';
import { CheckClient } from '../../src/wire/index.js';
import { frame, msgFrame, startHttp, type Handler, type TestServer } from './servers.js';

/**
 * A legacy HTTP+SSE server: `GET /sse` opens the one stream with an `endpoint` event
 * (`/messages?sessionId=Ln`, or an absolute URI when `?absolute`); a POST answers 202 and writes
 * the response on the session's stream. `GET /sse?sessionId=X` (a "legacy resume") opens a fresh
 * session with a new endpoint event.
 */
function legacyServer(): { handler: Handler; streams: Map<string, http.ServerResponse> } {
  const streams = new Map<string, http.ServerResponse>();
  let n = 0;
  const handler: Handler = (req, res, seen) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (req.method === 'GET' && url.pathname === '/sse') {
      const sid = `L${++n}`;
      streams.set(sid, res);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const uri = url.searchParams.has('absolute') ? `http://${req.headers.host}/messages?sessionId=${sid}` : `/messages?sessionId=${sid}`;
      res.write(frame({ event: 'endpoint', data: uri }));
      return;
    }
    if (req.method === 'POST' && url.pathname === '/messages') {
      const stream = streams.get(url.searchParams.get('sessionId') ?? '');
      if (!stream) {
        res.writeHead(404).end('Session not found');
        return;
      }
      res.writeHead(202).end('Accepted');
      const m = seen.json;
      if (m.id === undefined) return;
      const result =
        m.method === 'initialize' ? { protocolVersion: '2024-11-05', capabilities: {}, serverInfo: { name: 'l', version: '1' } } : { ok: m.method };
      if (m.method === 'tools/call')
        stream.write(msgFrame(undefined, { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { seq: 1 } } }));
      stream.write(msgFrame(undefined, { jsonrpc: '2.0', id: m.id, result }));
      return;
    }
    res.writeHead(404).end();
  };
  return { handler, streams };
}

let server: TestServer | undefined;
let client: CheckClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

describe('legacy HTTP+SSE', () => {
  test('GET /sse: the endpoint event gives the POST URI and session; a POST is answered on the stream', async () => {
    server = await startHttp(legacyServer().handler);
    client = new CheckClient({ baseUrl: server.url });
    const open = await client.openLegacy();
    expect(open.kind).toBe('open');
    if (open.kind !== 'open') return;
    expect(open.postUrl).toBe(`${server.url}/messages?sessionId=L1`);
    expect(open.sessionId).toBe('L1');
    expect(open.stream.undrained).toBe(0); // the endpoint event is consumed by the transport
    const rcv = client.history.entries.find((e) => e.type === 'receive');
    expect(rcv).toMatchObject({ event: 'endpoint', data: '/messages?sessionId=L1' });
    expect(rcv && 'message' in rcv ? rcv.message : undefined).toBeUndefined();

    const h = await client.callTool('emit', { label: 'a', count: 1 }, { transport: 'sse' });
    expect(h.answer.kind === 'body' && [h.answer.status, h.answer.text]).toEqual([202, 'Accepted']);
    expect(h.stream).toBe(open.stream);
    const post = server.requests.at(-1)!;
    expect(post.url).toBe('/messages?sessionId=L1');
    expect(post.headers['content-type']).toBe('application/json');
    const r = await h.response({ drain: false });
    expect(r.kind === 'response' && r.message.result).toEqual({ ok: 'tools/call' });
    expect(open.stream.undrained).toBe(2); // the notification and the response, not drained
    const req = client.history.entries.find((e) => e.type === 'request' && e.purpose === 'call');
    expect(req).toMatchObject({ transport: 'sse', endpoint: 'messages', sessionId: 'L1', method: 'POST' });
  });

  test('initialize over legacy SSE, with an absolute endpoint URI', async () => {
    server = await startHttp(legacyServer().handler);
    client = new CheckClient({ baseUrl: server.url, paths: { sse: '/sse?absolute=1' } });
    const init = await client.initialize({ transport: 'sse' });
    expect(init.ok).toBe(true);
    if (!init.ok) return;
    expect(init.protocolVersion).toBe('2024-11-05');
    expect(init.sessionId).toBe('L1');
    expect(client.session.postUrl).toBe(`${server.url}/messages?sessionId=L1`);
    const initPost = server.requests.find((r) => r.json?.method === 'initialize')!;
    expect(initPost.json.params.protocolVersion).toBe('2024-11-05');
    expect(initPost.headers['mcp-protocol-version']).toBeUndefined();
    const ping = await (await client.ping()).response();
    expect(ping.kind).toBe('response');
  });

  test('legacy resume: GET /sse?sessionId=X with Last-Event-ID; a fresh endpoint event is a new session', async () => {
    server = await startHttp(legacyServer().handler);
    client = new CheckClient({ baseUrl: server.url });
    const init = await client.initialize({ transport: 'sse' });
    expect(init.ok && init.sessionId).toBe('L1');
    client.session.legacyStream!.drop();
    const a = await client.resume({ lastEventId: '7' });
    expect(a.kind).toBe('stream');
    const seen = server.requests.at(-1)!;
    expect(seen.url).toBe('/sse?sessionId=L1');
    expect(seen.headers['last-event-id']).toBe('7');
    if (a.kind !== 'stream') return;
    expect(client.session.legacyStream).toBe(a.stream);
    const r = await a.stream.receive();
    expect(r.kind === 'frame' && r.frame.event).toBe('endpoint');
    expect(client.session.sessionId).toBe('L2');
    expect(client.session.postUrl).toBe(`${server.url}/messages?sessionId=L2`);
    expect(a.stream.sessionId).toBe('L2');
    const req = client.history.entries.filter((e) => e.type === 'request').at(-1);
    expect(req).toMatchObject({ purpose: 'resume', transport: 'sse', endpoint: 'sse', sessionId: 'L1', lastEventId: '7' });
  });

  test('a POST to an unknown legacy session is rejected, not a hang', async () => {
    server = await startHttp(legacyServer().handler);
    client = new CheckClient({ baseUrl: server.url });
    const h = await client.ping({ transport: 'sse', url: '/messages?sessionId=nope' });
    const r = await h.response();
    expect(r).toMatchObject({ kind: 'rejected', status: 404, text: 'Session not found' });
  });
});

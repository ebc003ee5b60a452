import { afterEach, describe, expect, test } from 'vitest';
import { CheckClient, describeAnswer, describeOutcome, type HistoryEntry } from '../../src/wire/index.js';
import { failureLabel } from '../../src/wire/summary.js';
import { readMessage } from '../../src/wire/sse-stream.js';
import { msgFrame, startHttp, startRaw, type TestServer } from './servers.js';

let server: TestServer | undefined;
let client: CheckClient | undefined;
afterEach(async () => {
  client?.close();
  await server?.close();
  server = client = undefined;
});

const failures = (entries: HistoryEntry[]) => entries.flatMap((e) => (e.type === 'failure' ? [{ reason: e.reason, conn: e.conn }] : []));

const SSE_HEAD = 'HTTP/1.1 200 OK\r\ncontent-type: text/event-stream\r\nconnection: close\r\n\r\n';

/** A client on a server that answers `tools/call` by writing `body` as an event stream. */
async function sseAnswer(body: string, end: 'end' | 'destroy' | 'open'): Promise<CheckClient> {
  server = await startHttp((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(body);
    if (end === 'end') res.end();
    else if (end === 'destroy') setImmediate(() => res.socket?.destroy());
  });
  client = new CheckClient({ baseUrl: server.url, timeoutMs: 300 });
  return client;
}

describe('bad server behaviour is recorded, bounded and returned, never thrown', () => {
  test('a server that never responds: the call returns a recorded timeout', async () => {
    server = await startHttp(() => {});
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 150 });
    const h = await client.ping();
    expect(h.answer).toMatchObject({ kind: 'error', reason: 'timeout' });
    expect(await h.response()).toMatchObject({ kind: 'error', reason: 'timeout' });
    expect(failures(client.history.entries)).toEqual([{ reason: 'timeout', conn: h.answer.conn }]);
    const init = await client.initialize({ timeoutMs: 100 });
    expect(init.ok).toBe(false);
  });

  test('headers then nothing: a JSON body times out; an event stream times out on receive and stays open', async () => {
    server = await startHttp((req, res) => {
      res.writeHead(200, { 'content-type': req.method === 'GET' ? 'text/event-stream' : 'application/json' });
      res.flushHeaders();
    });
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 150 });
    const h = await client.ping();
    expect(h.answer).toMatchObject({ kind: 'error', reason: 'timeout', status: 200 });
    const a = await client.openStandalone();
    expect(a.kind).toBe('stream');
    if (a.kind !== 'stream') return;
    expect(await a.stream.receive(50)).toEqual({ kind: 'timeout', timeoutMs: 50 });
    expect(a.stream.state).toBe('open');
    expect(failures(client.history.entries).map((f) => f.reason)).toEqual(['timeout', 'timeout']);
    const body = client.history.entries.find((e) => e.type === 'body');
    expect(body).toMatchObject({ conn: h.answer.conn, text: '' });
  });

  test('a body cut short of its Content-Length is a recorded reset', async () => {
    server = await startHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' });
      res.write('{"jsonrpc":');
      setImmediate(() => res.socket?.destroy());
    });
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 1000 });
    const h = await client.ping();
    expect(h.answer).toMatchObject({ kind: 'error', reason: 'connection-reset' });
    expect(client.history.entries.find((e) => e.type === 'body')).toMatchObject({ text: '{"jsonrpc":' });
  });

  test('a chunked event stream cut mid-frame: frames before it are received, then a recorded reset', async () => {
    const c = await sseAnswer(`${msgFrame('1', { jsonrpc: '2.0', method: 'n' })}id: 2\ndata: {"jsonrpc":"2.`, 'destroy');
    const h = await c.callTool('t');
    const s = h.stream!;
    const r1 = await s.receive();
    expect(r1.kind === 'frame' && r1.frame.id).toBe('1');
    const r2 = await s.receive();
    expect(r2).toMatchObject({ kind: 'error', reason: 'connection-reset', final: true });
    expect(await s.receive()).toEqual(r2);
    expect(failures(c.history.entries).map((f) => f.reason)).toEqual(['malformed-sse', 'connection-reset']);
    expect(c.history.entries.some((e) => e.type === 'end')).toBe(false);
    expect(await h.response()).toMatchObject({ kind: 'error', reason: 'connection-reset' });
  });

  test('a close-delimited event stream that ends mid-frame: the partial frame is discarded and recorded', async () => {
    server = await startRaw((socket) => {
      socket.once('data', () => socket.end(`${SSE_HEAD}${msgFrame('1', { jsonrpc: '2.0', method: 'n' })}id: 2\ndata: {"jsonrpc":"2.0"}\n`));
    });
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 1000 });
    const a = await client.openStandalone();
    if (a.kind !== 'stream') throw new Error(`no stream: ${a.kind}`);
    expect((await a.stream.receive()).kind).toBe('frame');
    expect(await a.stream.receive()).toEqual({ kind: 'end', truncated: '{"jsonrpc":"2.0"}' });
    const types = client.history.entries.map((e) => e.type);
    expect(types.slice(-3)).toEqual(['receive', 'failure', 'end']);
    expect(failures(client.history.entries).map((f) => f.reason)).toEqual(['malformed-sse']);
  });

  test('garbage instead of SSE: malformed lines are recorded and the stream goes on', async () => {
    const c = await sseAnswer(`hello there\n\u0000\u0001binary\n\n${msgFrame('9', { jsonrpc: '2.0', method: 'n' })}{"jsonrpc":"2.0"}\n\n`, 'end');
    const s = (await c.callTool('t')).stream!;
    const results = [];
    for (let i = 0; i < 4; i++) results.push(await s.receive());
    expect(results.map((r) => r.kind)).toEqual(['error', 'frame', 'error', 'end']);
    expect(results[0]).toMatchObject({ reason: 'malformed-sse', final: false });
    expect(results[0].kind === 'error' && results[0].detail).toContain('2 malformed SSE lines');
    expect(failures(c.history.entries).map((f) => f.reason)).toEqual(['malformed-sse', 'malformed-sse']);
  });

  test('binary garbage with no line ends at all: the body ends mid-line', async () => {
    const c = await sseAnswer('\u00ff\u00fe garbage without newline', 'end');
    const s = (await c.callTool('t')).stream!;
    expect(await s.receive()).toMatchObject({ kind: 'error', reason: 'malformed-sse', final: false });
    expect(await s.receive()).toEqual({ kind: 'end', truncated: '' });
    expect(failures(c.history.entries).map((f) => f.reason)).toEqual(['malformed-sse', 'malformed-sse']);
  });

  test('invalid JSON in data: the frame is received with its error and a malformed-json failure', async () => {
    const c = await sseAnswer('id: 1\ndata: {not json\n\n', 'end');
    const h = await c.callTool('t');
    const r = await h.stream!.receive();
    expect(r.kind).toBe('frame');
    if (r.kind !== 'frame') return;
    expect(r.frame.message).toBeUndefined();
    expect(r.frame.error).toMatch(/^data is not JSON/);
    expect(r.frame.data).toBe('{not json');
    expect(failures(c.history.entries).map((f) => f.reason)).toEqual(['malformed-json']);
    const d = h.stream!.drain();
    expect(d.kind === 'frame' && d.frame.id).toBe('1');
  });

  test('JSON that is not one message in data: the frame is received with its error and a protocol failure', async () => {
    const c = await sseAnswer('id: 1\ndata: [{"jsonrpc":"2.0","method":"a"}]\n\nid: 2\ndata: 7\n\n', 'end');
    const h = await c.callTool('t');
    for (const error of ['data is a JSON array (a batch), not one message', 'data is JSON but not an object']) {
      const r = await h.stream!.receive();
      expect(r.kind === 'frame' && r.frame.error).toBe(error);
    }
    expect(failures(c.history.entries).map((f) => f.reason)).toEqual(['protocol', 'protocol']);
  });

  test("a frame's data is read into a message or a problem whose reason is data, not read back from its words", () => {
    expect(readMessage('{"jsonrpc":"2.0","id":1,"result":{}}')).toEqual({ message: { jsonrpc: '2.0', id: 1, result: {} } });
    expect(readMessage('{not json').problem).toMatchObject({ reason: 'malformed-json', text: expect.stringMatching(/^data is not JSON: /) });
    expect(readMessage('[]').problem).toEqual({ reason: 'protocol', text: 'data is a JSON array (a batch), not one message' });
    expect(readMessage('"data is not JSON"').problem).toEqual({ reason: 'protocol', text: 'data is JSON but not an object' });
    expect(readMessage('null').problem?.reason).toBe('protocol');
  });

  test('invalid JSON in a JSON body', async () => {
    server = await startHttp((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"jsonrpc": nope'));
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 500 });
    const h = await client.ping();
    expect(h.answer).toMatchObject({ kind: 'body', status: 200, text: '{"jsonrpc": nope' });
    expect(await h.response()).toMatchObject({ kind: 'error', reason: 'protocol' });
    expect(failures(client.history.entries).map((f) => f.reason)).toEqual(['malformed-json', 'protocol']);
  });

  test('wrong content type: recorded, and the body is kept', async () => {
    server = await startHttp((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>hi</h1>'));
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 500 });
    const h = await client.callTool('t');
    expect(h.answer).toMatchObject({ kind: 'body', status: 200, text: '<h1>hi</h1>' });
    const a = await client.openStandalone();
    expect(a.kind).toBe('body');
    expect(failures(client.history.entries).map((f) => f.reason)).toEqual(['unexpected-content-type', 'unexpected-content-type']);
    const legacy = await client.openLegacy();
    expect(legacy.kind).toBe('failed');
  });

  test('connection refused on a closed port', async () => {
    const s = await startHttp(() => {});
    const url = s.url;
    await s.close();
    client = new CheckClient({ baseUrl: url, timeoutMs: 1000 });
    const init = await client.initialize();
    expect(init.ok).toBe(false);
    const legacy = await client.openLegacy();
    expect(legacy.kind === 'failed' && legacy.answer).toMatchObject({ kind: 'error', reason: 'connection-refused', code: 'ECONNREFUSED' });
    expect(failures(client.history.entries).map((f) => f.reason)).toEqual(['connection-refused', 'connection-refused']);
    // Labelled from the error's code, carried as data beside the words.
    expect(!init.ok && init.outcome).toMatchObject({ kind: 'error', code: 'ECONNREFUSED' });
    expect(!init.ok && describeOutcome(init.outcome!)).toMatch(/^connection refused: /);
    expect(legacy.kind === 'failed' && describeAnswer(legacy.answer)).toMatch(/^connection refused: /);
  });

  test("a failure's label comes from its error code, never from the words of its detail", () => {
    expect(failureLabel('connection-refused', 'ECONNREFUSED')).toBe('connection refused');
    expect(failureLabel('protocol', 'ENOTFOUND')).toBe('DNS lookup failed');
    expect(failureLabel('protocol', 'ERR_TLS_CERT_ALTNAME_INVALID')).toBe('TLS error');
    // A code that says nothing more than the reason, or none: the reason in words.
    expect(failureLabel('protocol', 'ERR_INVALID_CHAR')).toBe('protocol');
    expect(failureLabel('connection-reset', undefined)).toBe('connection reset');
    // Words that name a code are not a code.
    const outcome = { kind: 'error', reason: 'timeout', detail: 'no response; the server logged ECONNREFUSED' } as const;
    expect(describeOutcome(outcome)).toBe('timeout: no response; the server logged ECONNREFUSED');
  });

  test('garbage instead of HTTP is a recorded protocol failure', async () => {
    server = await startRaw((socket) => socket.once('data', () => socket.end('SSH-2.0-OpenSSH\r\n\r\n')));
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 1000 });
    const h = await client.ping();
    expect(h.answer).toMatchObject({ kind: 'error', reason: 'protocol' });
  });

  test('an unsendable session ID is recorded, not thrown', async () => {
    server = await startHttp((_req, res) => res.writeHead(200).end());
    client = new CheckClient({ baseUrl: server.url });
    const a = await client.resume({ sessionId: 'bad\r\nid', lastEventId: '1' });
    expect(a).toMatchObject({ kind: 'error', reason: 'protocol' });
    expect(client.history.entries.map((e) => e.type)).toEqual(['request', 'failure']);
    expect(server.requests).toHaveLength(0);
  });

  test('close() aborts pending exchanges and open streams, recording a drop for each', async () => {
    server = await startHttp((req, res) => {
      if (req.method === 'GET') res.writeHead(200, { 'content-type': 'text/event-stream' }).write(msgFrame('1', { jsonrpc: '2.0', method: 'n' }));
    });
    client = new CheckClient({ baseUrl: server.url, timeoutMs: 5000 });
    const a = await client.openStandalone();
    if (a.kind !== 'stream') throw new Error('no stream');
    await a.stream.receive();
    const pendingReceive = a.stream.receive();
    const pendingPing = client.ping();
    await new Promise((r) => setTimeout(r, 20));
    client.close();
    expect(await pendingReceive).toEqual({ kind: 'dropped' });
    expect((await pendingPing).answer).toMatchObject({ kind: 'error', reason: 'connection-reset' });
    const drops = client.history.entries.filter((e) => e.type === 'drop');
    expect(drops).toMatchObject([{ conn: a.conn, undrained: 1 }, { undrained: 0 }]);
    const after = await client.ping();
    expect(after.answer).toMatchObject({ kind: 'error', reason: 'protocol' });
  });
});

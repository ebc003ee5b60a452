import { afterEach, describe, expect, test } from 'vitest';
import { CheckClient, type CheckClientOptions, type HistoryEntry } from '../../src/wire/index.js';
import { msgFrame, startHttp, until, type Handler, type TestServer } from './servers.js';

const notif = (seq: number) => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { label: 'x', seq } } });
const IDS = ['e1', 'e2', 'e3'];

/**
 * A streamable server: initialize answers JSON with `Mcp-Session-Id: sess-1`; `tools/call`
 * answers an SSE stream of 3 frames e1, e2 (notifications), e3 (the result), written in one go,
 * then ends (tool `three`) or stays open (any other tool); GET with `Last-Event-ID` replays from
 * the cursor, inclusive (so replays duplicate the cursor's event), and stays open.
 */
const streamable: Handler = (req, res, seen) => {
  if (req.method === 'POST') {
    const m = seen.json;
    if (m.method === 'initialize') {
      res.writeHead(200, { 'content-type': 'application/json', 'mcp-session-id': 'sess-1' });
      res.end(
        JSON.stringify({
          jsonrpc: '2.0',
          id: m.id,
          result: { protocolVersion: '2025-11-25', capabilities: { tools: {} }, serverInfo: { name: 't', version: '1' } },
        }),
      );
      return;
    }
    if (m.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    if (m.method === 'ping') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: m.id, result: {} }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    res.write(msgFrame('e1', notif(1)) + msgFrame('e2', notif(2)) + msgFrame('e3', { jsonrpc: '2.0', id: m.id, result: { content: [] } }));
    if (m.params?.name === 'three') res.end();
    return;
  }
  if (req.method === 'GET') {
    res.writeHead(200, { 'content-type': 'text/event-stream', 'mcp-session-id': 'sess-1' });
    const cursor = req.headers['last-event-id'];
    const from = typeof cursor === 'string' ? Math.max(0, IDS.indexOf(cursor)) : 3;
    let out = '';
    for (let i = from; i < 3; i++) out += msgFrame(IDS[i], i < 2 ? notif(i + 1) : { jsonrpc: '2.0', id: 99, result: {} });
    if (out) res.write(out);
    else res.flushHeaders();
    return;
  }
  if (req.method === 'DELETE') res.writeHead(200).end();
};

let server: TestServer;
const clients: CheckClient[] = [];
async function setup(options: Partial<CheckClientOptions> = {}): Promise<CheckClient> {
  server ??= await startHttp(streamable);
  const c = new CheckClient({ baseUrl: server.url, timeoutMs: 2000, ...options });
  clients.push(c);
  return c;
}
afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  await server?.close();
  server = undefined as unknown as TestServer;
});

const ofConn = (entries: HistoryEntry[], conn: number) => entries.filter((e) => 'conn' in e && e.conn === conn);

describe('streamable HTTP', () => {
  test('initialize: JSON answer, session ID and protocol version kept and sent afterwards', async () => {
    const c = await setup();
    const init = await c.initialize();
    expect(init.ok).toBe(true);
    if (!init.ok) return;
    expect(init.sessionId).toBe('sess-1');
    expect(init.protocolVersion).toBe('2025-11-25');
    expect(init.initialized?.kind === 'body' && init.initialized.status).toBe(202);
    const ping = await c.ping();
    const r = await ping.response();
    expect(r.kind).toBe('response');
    const [initReq, initialized, pingReq] = server.requests;
    expect(initReq.headers['mcp-session-id']).toBeUndefined();
    expect(initReq.headers.accept).toBe('application/json, text/event-stream');
    expect(initialized.json.method).toBe('notifications/initialized');
    expect(initialized.headers['mcp-session-id']).toBe('sess-1');
    expect(pingReq.headers['mcp-session-id']).toBe('sess-1');
    expect(pingReq.headers['mcp-protocol-version']).toBe('2025-11-25');
    const reqs = c.history.entries.filter((e) => e.type === 'request');
    expect(reqs.map((e) => e.type === 'request' && e.purpose)).toEqual(['initialize', 'initialized', 'ping']);
    expect(reqs[2].type === 'request' && reqs[2].sessionId).toBe('sess-1');
    const seqs = c.history.entries.map((e) => e.seq);
    expect(seqs).toEqual(seqs.map((_, i) => i));
    const ats = c.history.entries.map((e) => e.at);
    expect([...ats].sort((a, b) => a - b)).toEqual(ats);
  });

  test('SSE answer of 3 frames: wire, receive, drain, end are distinct and recorded', async () => {
    const c = await setup();
    await c.initialize();
    const h = await c.callTool('three', {});
    expect(h.answer.kind).toBe('stream');
    const s = h.stream!;
    await until(() => s.inFlight === 3);
    // bytes arrived, but nothing is received until the caller asks
    expect(ofConn(c.history.entries, s.conn).map((e) => e.type)).toEqual(['request', 'response']);
    expect(s.undrained).toBe(0);

    const r1 = await s.receive();
    expect(r1.kind === 'frame' && r1.frame.id).toBe('e1');
    expect(r1.kind === 'frame' && r1.frame.message?.method).toBe('notifications/message');
    expect([s.inFlight, s.undrained]).toEqual([2, 1]);
    const d1 = s.drain();
    expect(d1.kind === 'frame' && d1.frame.id).toBe('e1');
    expect(s.drain().kind).toBe('empty');
    await s.receive();
    const r3 = await s.receive();
    expect(r3.kind === 'frame' && r3.frame.message?.id).toBe(h.id);
    expect(s.undrained).toBe(2);
    expect((await s.receive()).kind).toBe('end');
    expect((await s.receive()).kind).toBe('end'); // sticky, recorded once
    expect(s.drainAll()).toBe(2);
    expect(s.state).toBe('ended');

    const mine = ofConn(c.history.entries, s.conn);
    expect(mine.map((e) => e.type)).toEqual(['request', 'response', 'receive', 'drain', 'receive', 'receive', 'end', 'drain', 'drain']);
    expect(mine.filter((e) => e.type === 'drain').map((e) => e.type === 'drain' && e.id)).toEqual(['e1', 'e2', 'e3']);
    const rcv = mine.find((e) => e.type === 'receive');
    expect(rcv).toMatchObject({ type: 'receive', id: 'e1', event: 'message', message: notif(1) });
    expect(c.history.entries.some((e) => e.type === 'failure')).toBe(false);
  });

  test('cursor advances on receive or on drain: after receiving 2 and draining 1 they differ', async () => {
    const onReceive = await setup({ cursorAdvance: 'receive' });
    const onDrain = await setup({ cursorAdvance: 'drain' });
    const cursors: (string | undefined)[] = [];
    for (const c of [onReceive, onDrain]) {
      await c.initialize();
      const s = (await c.callTool('open', {})).stream!;
      expect(s.cursor).toBeUndefined();
      await s.receive();
      await s.receive();
      s.drain();
      cursors.push(s.cursor);
    }
    expect(cursors).toEqual(['e2', 'e1']);
  });

  test('a drop with 2 received-undrained frames records undrained 2 and the frame in flight', async () => {
    const c = await setup();
    await c.initialize();
    const s = (await c.callTool('open', {})).stream!;
    await until(() => s.inFlight === 3);
    await s.receive();
    await s.receive();
    const d = s.drop();
    expect(d).toEqual({ undrained: 2, inFlight: 1, already: false });
    expect(s.drop().already).toBe(true);
    expect(s.state).toBe('dropped');
    expect(await s.receive()).toEqual({ kind: 'dropped' });
    expect(s.drain().kind).toBe('empty');
    const drops = c.history.entries.filter((e) => e.type === 'drop');
    expect(drops).toMatchObject([{ type: 'drop', conn: s.conn, undrained: 2, inFlight: 1 }]);
  });

  test('a pending receive resolves "dropped" when the stream is dropped', async () => {
    const c = await setup();
    await c.initialize();
    const a = await c.openStandalone();
    if (a.kind !== 'stream') throw new Error(`no stream: ${a.kind}`);
    expect(c.streams).toContain(a.stream);
    expect(server.requests.at(-1)!.headers).toMatchObject({ accept: 'text/event-stream', 'mcp-session-id': 'sess-1' });
    const pending = a.stream.receive(5000);
    a.stream.drop();
    expect(await pending).toEqual({ kind: 'dropped' });
  });

  test('resume presents the stream cursor and session ID, or any other', async () => {
    const c = await setup();
    await c.initialize();
    const s = (await c.callTool('open', {})).stream!;
    await s.receive();
    await s.receive();
    s.drop();
    const a = await c.resume({ from: s });
    expect(a.kind).toBe('stream');
    let seen = server.requests.at(-1)!;
    expect(seen.method).toBe('GET');
    expect(seen.headers['last-event-id']).toBe('e2');
    expect(seen.headers['mcp-session-id']).toBe('sess-1');
    expect(seen.headers.accept).toBe('text/event-stream');
    expect(seen.headers['mcp-protocol-version']).toBe('2025-11-25');
    if (a.kind !== 'stream') return;
    expect(a.stream.cursor).toBe('e2');
    const r = await a.stream.receive();
    expect(r.kind === 'frame' && r.frame.id).toBe('e2'); // this server replays inclusively
    expect(a.stream.cursor).toBe('e2');

    await c.resume({ lastEventId: 'garbage-cursor', sessionId: 'someone-else' });
    seen = server.requests.at(-1)!;
    expect([seen.headers['last-event-id'], seen.headers['mcp-session-id']]).toEqual(['garbage-cursor', 'someone-else']);

    await c.resume({ lastEventId: null, sessionId: null });
    seen = server.requests.at(-1)!;
    expect([seen.headers['last-event-id'], seen.headers['mcp-session-id']]).toEqual([undefined, undefined]);

    // a streamable cursor presented at the legacy endpoint
    await c.resume({ endpoint: 'sse', lastEventId: 'e1', adopt: false });
    seen = server.requests.at(-1)!;
    expect(seen.url).toBe('/sse?sessionId=sess-1');
    expect(seen.headers['last-event-id']).toBe('e1');

    const resumes = c.history.entries.filter((e) => e.type === 'request' && e.purpose === 'resume');
    expect(resumes.map((e) => e.type === 'request' && [e.endpoint, e.transport, e.lastEventId, e.sessionId])).toEqual([
      ['mcp', 'streamable', 'e2', 'sess-1'],
      ['mcp', 'streamable', 'garbage-cursor', 'someone-else'],
      ['mcp', 'streamable', undefined, undefined],
      ['sse', 'sse', 'e1', 'sess-1'],
    ]);
  });

  test('dedup by event ID on drain marks replayed duplicates; without dedup they are processed again', async () => {
    for (const dedup of [true, false]) {
      const c = await setup({ dedup });
      await c.initialize();
      const s = (await c.callTool('open', {})).stream!;
      await s.receive();
      await s.receive();
      s.drainAll();
      s.drop();
      const a = await c.resume({ from: s }); // replays e2 (again) and e3
      if (a.kind !== 'stream') throw new Error('no stream');
      await a.stream.receive();
      await a.stream.receive();
      const d1 = a.stream.drain();
      const d2 = a.stream.drain();
      expect(d1.kind === 'frame' && [d1.frame.id, d1.duplicate]).toEqual(['e2', dedup]);
      expect(d2.kind === 'frame' && [d2.frame.id, d2.duplicate]).toEqual(['e3', false]);
      const drains = c.history.entries.filter((e) => e.type === 'drain' && e.conn === a.conn);
      expect(drains.map((e) => e.type === 'drain' && e.duplicate)).toEqual(dedup ? [true, undefined] : [undefined, undefined]);
    }
  });

  test("dedup is per stream, as the model client does it: the same event IDs on two streams are both processed; a resume shares its stream's", async () => {
    const c = await setup({ dedup: true });
    await c.initialize();
    // this server numbers every stream e1, e2, e3: IDs repeat across streams
    const first = (await c.callTool('open', {})).stream!;
    const second = (await c.callTool('open', {})).stream!;
    for (const s of [first, second]) {
      for (let i = 0; i < 3; i++) await s.receive();
      const drained = [s.drain(), s.drain(), s.drain()];
      expect(drained.map((d) => d.kind === 'frame' && [d.frame.id, d.duplicate])).toEqual([
        ['e1', false],
        ['e2', false],
        ['e3', false],
      ]);
    }
    second.drop();
    const resumed = await c.resume({ from: second, lastEventId: 'e1' }); // replays e1 (inclusive), e2, e3 of the second stream
    if (resumed.kind !== 'stream') throw new Error('no stream');
    for (let i = 0; i < 3; i++) await resumed.stream.receive();
    const again = [resumed.stream.drain(), resumed.stream.drain(), resumed.stream.drain()];
    expect(again.map((d) => d.kind === 'frame' && d.duplicate)).toEqual([true, true, true]);
    expect(c.history.entries.filter((e) => e.type === 'drain' && e.duplicate)).toHaveLength(3);
  });

  test('awaitResponse receives and drains through the result on the request stream', async () => {
    const c = await setup();
    await c.initialize();
    const h = await c.callTool('three', { label: 'a' });
    const r = await h.response();
    expect(r.kind).toBe('response');
    if (r.kind !== 'response') return;
    expect(r.via).toBe('stream');
    expect(r.frame?.id).toBe('e3');
    expect(h.stream!.undrained).toBe(0);
    const drains = c.history.entries.filter((e) => e.type === 'drain' && e.conn === h.stream!.conn);
    expect(drains).toHaveLength(3);
    const body = server.requests.at(-1)!.json;
    expect(body).toEqual({ jsonrpc: '2.0', id: h.id, method: 'tools/call', params: { name: 'three', arguments: { label: 'a' } } });
  });

  test('a fast server fills the wire only up to the high-water mark; the rest stays in the socket', async () => {
    let written = false;
    server = await startHttp((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      let i = 0;
      const next = () => {
        if (i === 50) {
          written = true;
          res.end();
          return;
        }
        i++;
        res.write(msgFrame(`f${i}`, notif(i)));
        setImmediate(next);
      };
      next();
    });
    const c = await setup({ highWaterFrames: 4 });
    const a = await c.openStandalone();
    if (a.kind !== 'stream') throw new Error('no stream');
    await until(() => written);
    await new Promise((r) => setTimeout(r, 20));
    expect(a.stream.inFlight).toBeLessThan(50);
    const ids: string[] = [];
    for (;;) {
      const r = await a.stream.receive();
      if (r.kind !== 'frame') {
        expect(r.kind).toBe('end');
        break;
      }
      ids.push(r.frame.id!);
    }
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => `f${i + 1}`));
  });

  test('deleteSession sends the session ID', async () => {
    const c = await setup();
    await c.initialize();
    const a = await c.deleteSession();
    expect(a.kind === 'body' && a.status).toBe(200);
    expect(server.requests.at(-1)!.method).toBe('DELETE');
    expect(server.requests.at(-1)!.headers['mcp-session-id']).toBe('sess-1');
  });
});

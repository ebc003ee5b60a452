/**
 * Policies on the wire: the same server code under `reference`, `seed-000` and `seed-003`
 * reproduces each policy's answers to migrations and resumes, driven by the checking client.
 */
import { expect, test } from 'vitest';
import { CheckClient, toolText, type Answer, type Frame, type SseStream } from '../../src/wire/index.js';
import type { ReferenceServer } from '../../src/reference/index.js';
import { POST_HEADERS, raw, startServer, defer, until, useCleanup } from './helpers.js';

useCleanup();

const CAPABILITIES = { roots: { listChanged: true } };

function client(server: ReferenceServer, options: Partial<ConstructorParameters<typeof CheckClient>[0]> = {}): CheckClient {
  const c = new CheckClient({ baseUrl: server.url, timeoutMs: 3000, capabilities: CAPABILITIES, ...options });
  defer(() => c.close());
  return c;
}

function stream(answer: Answer): SseStream {
  if (answer.kind !== 'stream') throw new Error(`expected a stream, got ${JSON.stringify(answer).slice(0, 300)}`);
  return answer.stream;
}

/** Receives frames until one satisfies `pred` (bounded by the client's timeout); returns them all. */
async function receiveUntil(s: SseStream, pred: (f: Frame) => boolean): Promise<Frame[]> {
  const frames: Frame[] = [];
  for (;;) {
    const r = await s.receive();
    if (r.kind !== 'frame') throw new Error(`stream: ${JSON.stringify(r)}`);
    frames.push(r.frame);
    if (pred(r.frame)) return frames;
  }
}

/** A legacy session that has run `emit` (its whole output received); returns the client and its stream. */
async function legacySessionWithEmit(server: ReferenceServer, options: { drain: boolean }) {
  const c = client(server);
  const init = await c.initialize({ transport: 'sse' });
  expect(init.ok).toBe(true);
  const call = await c.callTool('emit', { label: 'legacy', count: 2 });
  expect(call.answer.kind === 'body' && call.answer.status).toBe(202);
  const legacy = c.session.legacyStream!;
  if (options.drain) {
    expect((await call.response()).kind).toBe('response');
  } else {
    // Received (the cursor moves on receive, as EventSource does) but not drained by the application.
    await receiveUntil(legacy, (f) => f.message?.id === call.id);
  }
  return { c, legacy, call };
}

test('reference: a legacy session ID and cursor presented at /mcp get 404 with a JSON-RPC error', async () => {
  const server = await startServer({ policy: 'reference' });
  const { c, legacy } = await legacySessionWithEmit(server, { drain: true });
  const answer = await c.resume({ from: legacy, endpoint: 'mcp' });
  expect(answer.kind).toBe('body');
  if (answer.kind !== 'body') return;
  expect(answer.status).toBe(404);
  expect(answer.json).toEqual({ jsonrpc: '2.0', error: { code: -32001, message: 'session not found for this transport' }, id: null });
  // ... and so does a request under the other transport.
  const ping = await c.ping({ transport: 'streamable' });
  expect(ping.answer).toMatchObject({ kind: 'body', status: 404 });
  expect(ping.answer.kind === 'body' && ping.answer.json).toEqual({
    jsonrpc: '2.0',
    error: { code: -32001, message: 'session not found for this transport' },
    id: ping.id,
  });
});

test('reference: an uninitialized legacy session ID at /mcp gets the same 404 as an initialized one', async () => {
  const server = await startServer({ policy: 'reference' });
  // The legacy stream is open (its endpoint event names the session) but initialize was never sent.
  const open = await raw(server.url, { method: 'GET', path: '/sse', headers: { accept: 'text/event-stream' } });
  expect(open.status).toBe(200);
  await until(() => server.sessions.size === 1, 'the legacy session in the store');
  const [id] = [...server.sessions.keys()];
  expect(server.sessions.get(id!)!.context.protocolVersion).toBeNull();
  const notFound = { code: -32001, message: 'session not found for this transport' };
  const mcp = { 'mcp-session-id': id!, 'mcp-protocol-version': '2025-11-25' };
  const ping = await raw(server.url, {
    method: 'POST',
    path: '/mcp',
    headers: { ...POST_HEADERS, ...mcp },
    body: JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'ping' }),
  });
  expect([ping.status, ping.json]).toEqual([404, { jsonrpc: '2.0', error: notFound, id: 3 }]);
  const notify = await raw(server.url, {
    method: 'POST',
    path: '/mcp',
    headers: { ...POST_HEADERS, ...mcp },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  expect([notify.status, notify.json]).toEqual([404, { jsonrpc: '2.0', error: notFound, id: null }]);
  for (const headers of [
    { ...mcp, accept: 'text/event-stream' },
    { ...mcp, accept: 'text/event-stream', 'last-event-id': 'sse:1' },
  ]) {
    const get = await raw(server.url, { method: 'GET', path: '/mcp', headers });
    expect([get.status, get.json]).toEqual([404, { jsonrpc: '2.0', error: notFound, id: null }]);
  }
  const del = await raw(server.url, { method: 'DELETE', path: '/mcp', headers: mcp });
  expect([del.status, del.json]).toEqual([404, { jsonrpc: '2.0', error: notFound, id: null }]);
  expect(server.internalErrors).toEqual([]);
});

test('seed-003: the same resume gets 200 and a quiet stream, and the session forgets its capabilities', async () => {
  const server = await startServer({ policy: 'seed-003' });
  const { c, legacy } = await legacySessionWithEmit(server, { drain: true });
  const before = await (await c.callTool('session_info')).response();
  expect(before.kind === 'response' && JSON.parse(toolText(before.message)!)).toEqual({ protocolVersion: '2024-11-05', clientCapabilities: CAPABILITIES });

  const quiet = stream(await c.resume({ from: legacy, endpoint: 'mcp', adopt: false }));
  expect(quiet.status).toBe(200);
  const session = server.sessions.get(c.session.sessionId!)!;
  expect(session.context.resumes.at(-1)).toMatchObject({ transport: 'streamable', outcome: 'quiet', crossTransport: true });

  const info = await (await c.callTool('session_info', {}, { transport: 'streamable' })).response();
  expect(info.kind).toBe('response');
  expect(info.kind === 'response' && JSON.parse(toolText(info.message)!)).toEqual({ protocolVersion: '2024-11-05', clientCapabilities: {} });
  // The quiet stream stayed open and carried nothing (it is no stream of the session's).
  expect(quiet.state).toBe('open');
  expect(quiet.undrained + quiet.inFlight).toBe(0);
  expect(server.internalErrors).toEqual([]);
});

test('seed-000: a cross-transport resume at the cursor of an undrained tool result is 200 and skips the result', async () => {
  const server = await startServer({ policy: 'seed-000' });
  const { c, legacy, call } = await legacySessionWithEmit(server, { drain: false });
  const resultFrame = legacy.inboxFrames().find((f) => f.message?.id === call.id)!;
  expect(legacy.cursor).toBe(resultFrame.id);
  expect(legacy.drop().undrained).toBeGreaterThan(0); // unclean: the result was never processed

  const resumed = stream(await c.resume({ from: legacy, endpoint: 'mcp', adopt: false }));
  expect(resumed.status).toBe(200);
  // The resumed response now carries the session's one stream: the next legacy message arrives on
  // it. It is the ping's response; the emit result is not replayed before it.
  const ping = await c.ping({ transport: 'sse' });
  const frames = await receiveUntil(resumed, (f) => f.message?.id === ping.id);
  expect(frames.map((f) => f.message?.id)).toEqual([ping.id]);
  expect(c.history.entries.some((e) => e.type === 'drain' && e.message?.id === call.id)).toBe(false);
  const session = server.sessions.get(c.session.sessionId!)!;
  expect(session.context.resumes).toEqual([{ transport: 'streamable', lastEventId: resultFrame.id, outcome: 'replayed', crossTransport: true, replayed: [] }]);
});

test('reference: a streamable resume after an unclean drop replays exactly the events after the cursor', async () => {
  const server = await startServer({ policy: 'reference' });
  const c = client(server, { cursorAdvance: 'drain', dedup: true });
  const init = await c.initialize();
  expect(init.ok).toBe(true);
  const call = await c.callTool('emit', { label: 'drop', count: 6 });
  const s = stream(call.answer);
  await receiveUntil(s, (f) => (f.message?.params as { data?: { seq?: number } } | undefined)?.data?.seq === 3);
  s.drain(); // priming
  s.drain(); // seq 1
  s.drain(); // seq 2; seq 3 stays received but undrained
  const cursor = s.cursor!;
  const lost = s.drop();
  expect(lost.undrained).toBe(1);

  const resumed = stream(await c.resume({ from: s }));
  const result = await c.awaitResponseOn(resumed, call.id);
  expect(result.kind === 'response' && JSON.parse(toolText(result.message)!)).toEqual({ label: 'drop', executions: 1 });
  expect(await resumed.receive()).toEqual({ kind: 'end' });

  const session = server.sessions.get(init.ok ? init.sessionId! : '')!;
  const log = session.context.log;
  const at = log.findIndex((e) => e.id === cursor);
  const expected = log
    .slice(at + 1)
    .filter((e) => e.stream === log[at]!.stream)
    .map((e) => e.id);
  const replayed = c.history.entries.flatMap((e) => (e.type === 'receive' && e.conn === resumed.conn ? [e.id] : []));
  expect(replayed).toEqual(expected);
  expect(expected).toHaveLength(5); // seq 3..6 and the result
  const seqs = c.history.entries.flatMap((e) =>
    e.type === 'drain' && !e.duplicate && e.message?.method === 'notifications/message' ? [(e.message.params as { data: { seq: number } }).data.seq] : [],
  );
  expect(seqs).toEqual([1, 2, 3, 4, 5, 6]);
  expect(server.internalErrors).toEqual([]);
});

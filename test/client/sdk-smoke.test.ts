/**
 * Smoke test against the official SDK server: McpServer behind StreamableHTTPServerTransport on
 * node:http, with this project's MemoryEventStore for resumability. Not the SDK's example store:
 * it orders the events of one millisecond by a random tiebreak, so a replay's order depended on
 * timing and the test failed now and then on a loaded machine (`npm run soak -- --hog`); what that
 * store does is judged in docs/candidates.md.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { CheckClient, toolText, type Frame } from '../../src/wire/index.js';
import { MemoryEventStore } from '../../src/event-store/index.js';
import { until } from './servers.js';

/** The store, watched so the test knows when the tool's result has been stored. */
class WatchedStore extends MemoryEventStore {
  readonly stored: { eventId: string; message: JSONRPCMessage }[] = [];
  override async storeEvent(streamId: string, message: JSONRPCMessage): Promise<string> {
    const eventId = await super.storeEvent(streamId, message);
    this.stored.push({ eventId, message });
    return eventId;
  }
}

let httpServer: http.Server;
let baseUrl: string;
let store: WatchedStore;
let releaseGate: () => void;
let client: CheckClient | undefined;
const transports = new Map<string, StreamableHTTPServerTransport>();

function buildMcpServer(): McpServer {
  const mcp = new McpServer({ name: 'sdk-smoke', version: '1.0.0' }, { capabilities: { logging: {} } });
  mcp.registerTool('echo', { description: 'echo', inputSchema: { text: z.string() } }, async ({ text }) => ({
    content: [{ type: 'text', text }],
  }));
  mcp.registerTool('gated', { description: 'one notification, wait for the test, one more, result' }, async (extra) => {
    const note = (seq: number) => extra.sendNotification({ method: 'notifications/message', params: { level: 'info', data: { label: 'g', seq } } });
    await note(1);
    await new Promise<void>((r) => (releaseGate = r));
    await note(2);
    return { content: [{ type: 'text', text: 'done' }] };
  });
  return mcp;
}

beforeEach(async () => {
  store = new WatchedStore();
  httpServer = http.createServer((req, res) => {
    void (async () => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
      const sid = req.headers['mcp-session-id'];
      let transport = typeof sid === 'string' ? transports.get(sid) : undefined;
      if (transport === undefined) {
        if (req.method !== 'POST' || !isInitializeRequest(body)) {
          res.writeHead(typeof sid === 'string' ? 404 : 400, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
          return;
        }
        const t: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          eventStore: store,
          onsessioninitialized: (id) => void transports.set(id, t),
        });
        transport = t;
        await buildMcpServer().connect(t);
      }
      await transport.handleRequest(req, res, body);
    })().catch((err) => {
      if (!res.headersSent) res.writeHead(500).end(String(err));
    });
  });
  await new Promise<void>((r) => httpServer.listen(0, '127.0.0.1', r));
  baseUrl = `http://127.0.0.1:${(httpServer.address() as AddressInfo).port}`;
});

afterEach(async () => {
  client?.close();
  client = undefined;
  releaseGate?.();
  for (const t of transports.values()) await t.close();
  transports.clear();
  httpServer.closeAllConnections();
  await new Promise<void>((r) => httpServer.close(() => r()));
});

test('SDK server: initialize, call a tool over SSE, drop mid-stream and resume with Last-Event-ID', async () => {
  client = new CheckClient({ baseUrl, timeoutMs: 3000 });
  const init = await client.initialize();
  expect(init.ok).toBe(true);
  if (!init.ok) return;
  expect(init.protocolVersion).toBe('2025-11-25');
  expect(init.sessionId).toMatch(/^[\x21-\x7e]+$/);
  expect(init.handle.answer.kind).toBe('stream'); // the SDK answers initialize with an SSE stream
  expect(init.initialized?.kind === 'body' && init.initialized.status).toBe(202);

  // a tool result arrives as a frame of the request's stream
  const echo = await client.callTool('echo', { text: 'hi' });
  expect(echo.answer.kind).toBe('stream');
  const echoed = await echo.response();
  expect(echoed.kind).toBe('response');
  expect(echoed.kind === 'response' && toolText(echoed.message)).toBe('hi');
  expect(echoed.kind === 'response' && echoed.frame?.id).toBeTruthy();

  // a long call: priming event and first notification received, then the connection is cut
  client.step('call gated');
  const gated = await client.callTool('gated');
  const s = gated.stream!;
  const priming = await s.receive();
  expect(priming.kind === 'frame' && priming.frame).toMatchObject({ data: '', event: 'message' });
  const first = await s.receive();
  expect(first.kind === 'frame' && first.frame.message?.params).toMatchObject({ data: { seq: 1 } });
  const cursor = (first as { frame: Frame }).frame.id!;
  expect(s.cursor).toBe(cursor);
  s.drain();
  client.step('drop');
  expect(s.drop()).toMatchObject({ undrained: 1, inFlight: 0 });

  // the tool finishes while nobody listens; its events go to the store
  releaseGate();
  await until(() => store.stored.some((e) => 'id' in e.message && e.message.id === gated.id && 'result' in e.message));

  client.step('resume');
  const resumed = await client.resume({ from: s });
  expect(resumed.kind).toBe('stream');
  if (resumed.kind !== 'stream') return;
  const req = client.history.entries.filter((e) => e.type === 'request').at(-1);
  expect(req).toMatchObject({ method: 'GET', purpose: 'resume', lastEventId: cursor, sessionId: init.sessionId });
  const result = await client.awaitResponseOn(resumed.stream, gated.id);
  expect(result.kind).toBe('response');
  expect(result.kind === 'response' && toolText(result.message)).toBe('done');
  const received = client.history.entries.flatMap((e) => (e.type === 'receive' && e.conn === resumed.conn ? [e] : []));
  // The replay is exactly what the drop missed, in order: no priming event (stored before the
  // cursor's event), nothing of another stream.
  const messages = received.filter((e) => e.data !== '');
  expect(received.filter((e) => e.data === '')).toEqual([]);
  expect(messages.map((e) => (e.message?.method ?? 'result') as string)).toEqual(['notifications/message', 'result']);
  expect(messages[0].message?.params).toMatchObject({ data: { seq: 2 } });
  expect(client.history.entries.some((e) => e.type === 'failure')).toBe(false);

  // an unknown cursor: the store cannot place it, and the SDK answers 400 (not the 404 our policy
  // asks for: the SDK has no way to say it, test/event-store/sdk-candidates.test.ts)
  const unknown = await client.resume({ lastEventId: 'no-such-event' });
  expect(unknown).toMatchObject({ kind: 'body', status: 400 });

  const del = await client.deleteSession();
  expect(del.kind === 'body' && del.status).toBe(200);
  const after = await (await client.ping()).response();
  expect(after).toMatchObject({ kind: 'rejected', status: 404 });
});

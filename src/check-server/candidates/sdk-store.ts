/**
 * Candidate: the official SDK (@modelcontextprotocol/sdk 1.x) deployed with one
 * of this project's event stores instead of the example `InMemoryEventStore`,
 * on plain `node:http`, serving streamable HTTP (`/mcp`) and legacy HTTP+SSE
 * (`/sse` + `/messages`) from one process.
 *
 * Besides the store, the routing does the two things an SDK deployment must do
 * itself to answer 404 where the session or cursor is unknown:
 * - a session ID that is not a streamable session here (unknown, ended, or a
 *   legacy one) gets 404 at `/mcp`, and an unknown `sessionId` gets 404 at `/messages`;
 * - a `Last-Event-ID` the store cannot place gets 404 before the transport sees it:
 *   the SDK's transport itself answers such a cursor 400 ("Invalid event ID format")
 *   when `getStreamIdForEventId` returns undefined, and 500 when `replayEventsAfter`
 *   throws; no store can make it answer 404.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport, type EventStore } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { installedVersion, waitUntilPortRefuses, type RunningCandidate } from './adapter.js';
import { registerFixtureTools } from '../../fixtures/index.js';

/** What a deployment plugs in: one event store per streamable session, and what to do when the session ends. */
export interface StoreFactory {
  /** A short name for reports, e.g. `MemoryEventStore`. */
  name: string;
  /** The store for a new session (called before the session ID is sent to the client). */
  create(sessionId: string): EventStore;
  /** Called when a session ends (DELETE, idle reaping or shutdown). */
  release?(sessionId: string, store: EventStore): Promise<void>;
  /** Called once by `stop()`, after every session has ended. */
  close?(): Promise<void>;
}

interface StreamableSession {
  kind: 'streamable';
  transport: StreamableHTTPServerTransport;
  store: EventStore;
  lastActive: number;
}
interface LegacySession {
  kind: 'sse';
  transport: SSEServerTransport;
  lastActive: number;
}
type Session = StreamableSession | LegacySession;

const IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1000;
const BODY_LIMIT = 1024 * 1024;

/**
 * Starts the SDK with `stores` on 127.0.0.1 on a free port.
 *
 * @param stores - how each session's event store is made and released
 * @returns the running candidate; `stop()` ends every session, closes the listener, then calls `stores.close`
 */
export async function startSdkWithStore(stores: StoreFactory): Promise<RunningCandidate> {
  const executions = new Map<string, number>();
  const sessions = new Map<string, Session>();

  const newServer = (): McpServer => {
    const server = new McpServer({ name: `sdk-with-${stores.name}`, version: '1.0.0' }, { capabilities: { logging: {} } });
    registerFixtureTools(server, executions);
    return server;
  };

  const reaper = setInterval(() => {
    const cutoff = Date.now() - IDLE_MS;
    for (const session of sessions.values()) if (session.lastActive < cutoff) void session.transport.close().catch(() => {});
  }, 60_000);
  reaper.unref();

  const handleMcp = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    if (Array.isArray(sessionId)) return sendJsonRpcError(res, 400, -32000, 'Bad Request: one Mcp-Session-Id header expected');
    const body = await readJsonBody(req);
    if (!body.ok) return sendJsonRpcError(res, body.status, -32700, body.message);
    if (sessionId !== undefined) {
      const session = sessions.get(sessionId);
      if (session?.kind !== 'streamable') return sendJsonRpcError(res, 404, -32001, 'Session not found');
      session.lastActive = Date.now();
      const cursor = req.headers['last-event-id'];
      if (req.method === 'GET' && typeof cursor === 'string' && (await session.store.getStreamIdForEventId?.(cursor)) === undefined) {
        return sendJsonRpcError(res, 404, -32001, 'Unknown Last-Event-ID: re-initialize the session');
      }
      return session.transport.handleRequest(req, res, body.value);
    }
    if (req.method !== 'POST' || !isInitializeRequest(body.value)) {
      return sendJsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
    }
    if (sessions.size >= MAX_SESSIONS) return sendJsonRpcError(res, 503, -32000, 'Too many open sessions');
    const id = randomUUID();
    const store = stores.create(id);
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => id,
      eventStore: store,
      onsessioninitialized: () => void sessions.set(id, { kind: 'streamable', transport, store, lastActive: Date.now() }),
    });
    transport.onclose = () => {
      sessions.delete(id);
      void stores.release?.(id, store).catch(() => {});
    };
    await newServer().connect(transport);
    await transport.handleRequest(req, res, body.value);
  };

  const handleSse = async (res: ServerResponse): Promise<void> => {
    if (sessions.size >= MAX_SESSIONS) return sendJsonRpcError(res, 503, -32000, 'Too many open sessions');
    const transport = new SSEServerTransport('/messages', res);
    sessions.set(transport.sessionId, { kind: 'sse', transport, lastActive: Date.now() });
    transport.onclose = () => void sessions.delete(transport.sessionId);
    res.on('close', () => void transport.close().catch(() => {}));
    await newServer().connect(transport);
  };

  const handleMessages = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const sessionId = new URL(req.url ?? '/', 'http://localhost').searchParams.get('sessionId');
    const session = sessionId === null ? undefined : sessions.get(sessionId);
    if (session?.kind !== 'sse') return sendJsonRpcError(res, 404, -32001, 'Session not found');
    session.lastActive = Date.now();
    const body = await readJsonBody(req);
    if (!body.ok) return sendJsonRpcError(res, body.status, -32700, body.message);
    await session.transport.handlePostMessage(req, res, body.value);
  };

  const httpServer = createServer((req, res) => {
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    const route =
      pathname === '/mcp'
        ? handleMcp(req, res)
        : pathname === '/sse' && req.method === 'GET'
          ? handleSse(res)
          : pathname === '/messages' && req.method === 'POST'
            ? handleMessages(req, res)
            : Promise.resolve(sendJsonRpcError(res, 404, -32601, `No route for ${req.method} ${pathname}`));
    route.catch(() => {
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(reaper);
      for (const session of [...sessions.values()]) await session.transport.close().catch(() => {});
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        httpServer.closeAllConnections();
      });
      await waitUntilPortRefuses(port);
      await stores.close?.();
    })();
    return stopping;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    stop,
    name: `@modelcontextprotocol/sdk + ${stores.name}`,
    version: installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/server/mcp.js'),
  };
}

type Body = { ok: true; value: unknown } | { ok: false; status: number; message: string };

/** Reads a JSON body (bounded); a request without one yields `undefined`. */
export async function readJsonBody(req: IncomingMessage, limit = BODY_LIMIT): Promise<Body> {
  if (req.method === 'GET' || req.method === 'DELETE' || req.method === 'HEAD') return { ok: true, value: undefined };
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) return { ok: false, status: 413, message: `Parse error: body over ${limit} bytes` };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.trim() === '') return { ok: false, status: 400, message: 'Parse error: empty body' };
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'Parse error: body is not JSON' };
  }
}

/** Answers with a JSON-RPC error object and `id: null`. */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'Content-Type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

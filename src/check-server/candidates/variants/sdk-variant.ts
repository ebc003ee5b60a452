/**
 * A correct server built on the official SDK (`@modelcontextprotocol/sdk` 1.x), configurable in
 * the design choices the spec leaves open: whether streamable HTTP offers resumption (an event
 * store, and which ID format it mints), how an unplaceable `Last-Event-ID` is answered, which
 * protocol version it speaks (priming events need 2025-11-25), and whether it also serves the
 * legacy HTTP+SSE transport. Each file beside this one is one such design, as a candidate adapter.
 *
 * Sessions of the two transports live in separate maps: a session ID of one transport is unknown
 * (404) to the other. A legacy session ends with its `GET /sse` connection (the SDK's design); a
 * streamable session outlives all of its streams until DELETE.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { installedVersion, waitUntilPortRefuses, type RunningCandidate } from '../adapter.js';
import { registerFixtureTools } from '../../../fixtures/index.js';
import type { OrderedEventStore } from './event-stores.js';

export interface SdkVariantOptions {
  /** A fresh event store per streamable session; absent: no resumption (no event IDs, `Last-Event-ID` ignored). */
  eventStore?: () => OrderedEventStore;
  /** Answer a `Last-Event-ID` the session's store did not mint with 404 (else the SDK's own 400). */
  unknownCursor404?: boolean;
  /** Negotiate this protocol version whatever the client asks (e.g. `2025-06-18`: no priming events). */
  protocolVersion?: string;
  /** Also serve the legacy transport at `/sse` and `/messages`. */
  legacy?: boolean;
}

interface StreamableSession {
  transport: StreamableHTTPServerTransport;
  store?: OrderedEventStore;
}

const jsonError = (res: ServerResponse, status: number, code: number, message: string): void => {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
};

async function readJson(req: IncomingMessage): Promise<{ ok: true; body: unknown } | { ok: false }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req as AsyncIterable<Buffer>) chunks.push(chunk);
  if (chunks.length === 0) return { ok: true, body: undefined };
  try {
    return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown };
  } catch {
    return { ok: false };
  }
}

/**
 * Starts one design on 127.0.0.1, port 0.
 *
 * @param options - the design's choices
 * @returns the running candidate; `stop()` closes every session and the listener
 */
export async function startSdkVariant(options: SdkVariantOptions): Promise<RunningCandidate> {
  const executions = new Map<string, number>();
  const streamable = new Map<string, StreamableSession>();
  const legacy = new Map<string, SSEServerTransport>();
  const open = new Set<{ close(): Promise<void> }>();

  const newServer = (): McpServer => {
    const server = new McpServer({ name: 'sdk-variant', version: '1.0.0' }, { capabilities: { logging: {} } });
    registerFixtureTools(server, executions);
    return server;
  };

  const handleMcp = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const sessionId = req.headers['mcp-session-id'];
    let session = typeof sessionId === 'string' ? streamable.get(sessionId) : undefined;
    if (!session) {
      if (typeof sessionId === 'string') return jsonError(res, 404, -32001, 'Session not found');
      if (req.method !== 'POST' || !isInitializeRequest(body)) return jsonError(res, 400, -32000, 'Bad Request: No valid session ID provided');
      const store = options.eventStore?.();
      const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        ...(store ? { eventStore: store } : {}),
        onsessioninitialized: (id) => void streamable.set(id, { transport: created, ...(store ? { store } : {}) }),
      });
      open.add(created);
      created.onclose = () => {
        open.delete(created);
        if (created.sessionId) streamable.delete(created.sessionId);
      };
      await newServer().connect(created);
      session = { transport: created };
      if (options.protocolVersion !== undefined) body.params.protocolVersion = options.protocolVersion;
    }
    const cursor = req.headers['last-event-id'];
    if (options.unknownCursor404 && req.method === 'GET' && typeof cursor === 'string' && cursor !== '' && !session.store?.knows(cursor)) {
      return jsonError(res, 404, -32001, 'Last-Event-ID names no event of this session: re-initialize');
    }
    await session.transport.handleRequest(req, res, body);
  };

  const handleSse = async (res: ServerResponse): Promise<void> => {
    const transport = new SSEServerTransport('/messages', res);
    legacy.set(transport.sessionId, transport);
    open.add(transport);
    transport.onclose = () => {
      open.delete(transport);
      legacy.delete(transport.sessionId);
    };
    await newServer().connect(transport);
  };

  const handleMessages = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const sessionId = new URL(req.url ?? '/', 'http://x').searchParams.get('sessionId');
    const transport = sessionId === null ? undefined : legacy.get(sessionId);
    if (!transport) return jsonError(res, 404, -32001, 'Session not found');
    await transport.handlePostMessage(req, res, body);
  };

  const httpServer = createServer((req, res) => {
    void (async () => {
      const parsed = await readJson(req);
      if (!parsed.ok) return jsonError(res, 400, -32700, 'Parse error');
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/mcp') return handleMcp(req, res, parsed.body);
      if (options.legacy && path === '/sse' && req.method === 'GET') return handleSse(res);
      if (options.legacy && path === '/messages' && req.method === 'POST') return handleMessages(req, res, parsed.body);
      jsonError(res, 404, -32601, `no route ${req.method} ${path}`);
    })().catch(() => {
      if (!res.headersSent) jsonError(res, 500, -32603, 'Internal server error');
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = httpServer.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  return {
    url: `http://127.0.0.1:${port}`,
    name: '@modelcontextprotocol/sdk',
    version: installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/server/mcp.js'),
    stop: () =>
      (stopping ??= (async () => {
        for (const transport of [...open]) await transport.close().catch(() => {});
        await new Promise<void>((resolve) => {
          httpServer.close(() => resolve());
          httpServer.closeAllConnections();
        });
        await waitUntilPortRefuses(port);
      })()),
  };
}

/**
 * One replica of the SDK server. Any replica serves any session:
 * - a session is a record in Redis (the client's `initialize` params), written before the
 *   initialize answer leaves, refreshed on each request, deleted on DELETE;
 * - POST and DELETE are served by the SDK itself, by a transport and `McpServer` made for the
 *   request and brought to the session's state by replaying the recorded `initialize` into them
 *   (nothing of that replay reaches the client or the log); the transport's event store is the
 *   session's log;
 * - GET streams (the standalone stream, and any resumed stream) are served from the log: its
 *   events after the cursor, then new ones as they are stored, whichever replica stores them,
 *   until the stream's response has been sent. The SDK's transport cannot serve them: it writes
 *   only what its own process sends.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import {
  WebStandardStreamableHTTPServerTransport,
  type EventId,
  type EventStore,
  type StreamId,
} from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import { isInitializeRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { createClient } from 'redis';
import { readJsonBody, sendJsonRpcError } from '../../src/check-server/candidates/sdk-store.js';
import { registerReplicaFixtures } from './fixtures.js';
import type { SessionLog } from './session-log.js';

/** The SDK's name for a session's standalone GET stream. */
const STANDALONE: StreamId = '_GET_stream';
/** Clients of this protocol revision or later take an empty priming event (older ones cannot parse it). */
const PRIMING_SINCE = '2025-11-25';
/** Sessions idle this long are forgotten, ms. */
const SESSION_TTL_MS = 30 * 60_000;

/** What a replica shares with the others. */
export interface ReplicaOptions {
  /** Session records and execution counters live here. */
  redis: ReturnType<typeof createClient>;
  /** The event log: shared (Redis) or this replica's own (memory). */
  log: SessionLog;
  /** Names this replica in the `X-Replica` header of its answers. */
  name: string;
}

/**
 * Creates (does not start) the HTTP server of one replica, serving streamable HTTP at `/mcp`.
 *
 * @param options - the shared Redis client, the event log and the replica's name
 * @returns the server; call `listen` on it
 */
export function createReplicaServer({ redis, log, name }: ReplicaOptions): Server {
  const recordKey = (sessionId: string) => `mcp:{${sessionId}}:session`;
  const alive = (sessionId: string) => async () => (await redis.exists(recordKey(sessionId))) === 1;

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    res.setHeader('X-Replica', name);
    const { pathname } = new URL(req.url ?? '/', 'http://localhost');
    if (pathname !== '/mcp') return sendJsonRpcError(res, 404, -32601, `No route for ${req.method} ${pathname}`);
    const sessionHeader = req.headers['mcp-session-id'];
    if (Array.isArray(sessionHeader)) return sendJsonRpcError(res, 400, -32000, 'Bad Request: one Mcp-Session-Id header expected');
    const body = await readJsonBody(req);
    if (!body.ok) return sendJsonRpcError(res, body.status, -32700, body.message);

    if (sessionHeader === undefined) {
      if (req.method !== 'POST' || !isInitializeRequest(body.value)) return sendJsonRpcError(res, 400, -32000, 'Bad Request: No valid session ID provided');
      const sessionId = randomUUID();
      const { transport, recording } = await hydrate(sessionId, body.value.params, false);
      recording.on = true;
      return pipe(await transport.handleRequest(toRequest(req), { parsedBody: body.value }), res);
    }

    const record = await redis.get(recordKey(sessionHeader));
    if (record === null) return sendJsonRpcError(res, 404, -32001, 'Session not found');
    await redis.pExpire(recordKey(sessionHeader), SESSION_TTL_MS);
    if (req.method === 'GET') return serveStream(req, res, sessionHeader);
    const { transport, recording } = await hydrate(sessionHeader, JSON.parse(record) as unknown, true);
    recording.on = true;
    return pipe(await transport.handleRequest(toRequest(req), { parsedBody: body.value }), res);
  };

  /**
   * A transport and server for one request of `sessionId`, whose `initialize` params are given.
   * For a known session (`replay`), that initialize is replayed into them first, with the log
   * switched off, so the SDK sees an initialized session with the client's capabilities and
   * protocol version; for a new one, the params are recorded when the SDK initializes it.
   */
  const hydrate = async (
    sessionId: string,
    initialize: unknown,
    replay: boolean,
  ): Promise<{ transport: WebStandardStreamableHTTPServerTransport; recording: { on: boolean } }> => {
    const recording = { on: false };
    const store = log.store(sessionId);
    const gated: EventStore = {
      storeEvent: (streamId, message) => (recording.on ? store.storeEvent(streamId, message) : Promise.resolve(`hydrating-${randomUUID()}`)),
      replayEventsAfter: (cursor, options) => store.replayEventsAfter(cursor, options),
    };
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => sessionId,
      eventStore: gated,
      onsessioninitialized: async () => {
        if (recording.on) await redis.set(recordKey(sessionId), JSON.stringify(initialize), { PX: SESSION_TTL_MS });
      },
      onsessionclosed: async () => {
        await redis.del(recordKey(sessionId));
        await log.clear(sessionId);
      },
    });
    const server = new McpServer({ name: 'replicated-sdk-server', version: '1.0.0' }, { capabilities: { logging: {} } });
    registerReplicaFixtures(server, redis);
    await server.connect(transport);
    if (replay) {
      const answer = await transport.handleRequest(
        new Request('http://replica/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 'replica-hydrate', method: 'initialize', params: initialize }),
        }),
      );
      await answer.text();
      if (answer.status !== 200) throw new Error(`replaying the session's initialize answered ${answer.status}`);
    }
    return { transport, recording };
  };

  /** A GET stream, served from the log: the standalone stream, or the stream a cursor names. */
  const serveStream = async (req: IncomingMessage, res: ServerResponse, sessionId: string): Promise<void> => {
    if (!(req.headers.accept ?? '').includes('text/event-stream')) {
      return sendJsonRpcError(res, 406, -32000, 'Not Acceptable: Client must accept text/event-stream');
    }
    const cursor = req.headers['last-event-id'];
    const version = req.headers['mcp-protocol-version'];
    const primes = typeof version === 'string' && version >= PRIMING_SINCE;
    let streamId: StreamId | undefined = STANDALONE;
    let after: EventId | undefined;
    if (typeof cursor === 'string') {
      streamId = await log.locate(sessionId, cursor);
      if (streamId === undefined) return sendJsonRpcError(res, 404, -32001, 'Unknown Last-Event-ID: re-initialize the session');
      after = cursor;
    } else if (primes) {
      // As the SDK does on POST streams: an empty event whose ID is the client's first cursor.
      after = await log.store(sessionId).storeEvent(STANDALONE, {} as JSONRPCMessage);
    } else {
      after = await log.tail(sessionId, STANDALONE);
    }
    const abort = new AbortController();
    res.on('close', () => abort.abort());
    const standalone = streamId === STANDALONE;
    // A request's stream ends with its response, as the SDK ends it; the standalone stream does not end.
    const deliver = (eventId: EventId, message: JSONRPCMessage): boolean => {
      res.write(`event: message\nid: ${eventId}\ndata: ${JSON.stringify(message)}\n\n`);
      return standalone || !('result' in message || 'error' in message);
    };
    const following = log.follow(sessionId, streamId, after, deliver, abort.signal, alive(sessionId));
    res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-cache, no-transform', 'mcp-session-id': sessionId });
    if (typeof cursor !== 'string' && primes) res.write(`id: ${after}\ndata: \n\n`);
    res.flushHeaders();
    try {
      await following;
    } finally {
      res.end();
    }
  };

  return createServer((req, res) => {
    handle(req, res).catch(() => {
      if (!res.headersSent) sendJsonRpcError(res, 500, -32603, 'Internal server error');
      else res.destroy();
    });
  });
}

/** The Web `Request` the SDK's transport takes, for a Node request whose body was already read. */
function toRequest(req: IncomingMessage): Request {
  const headers = new Headers();
  for (const [key, value] of Object.entries(req.headers)) {
    if (value === undefined || ['host', 'connection', 'content-length', 'transfer-encoding'].includes(key)) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(key, v);
  }
  return new Request(`http://${req.headers.host ?? 'replica'}${req.url ?? '/'}`, { method: req.method ?? 'GET', headers });
}

/** Writes a Web `Response` to a Node response as it is produced (SSE included); a client that goes away cancels it. */
async function pipe(response: Response, res: ServerResponse): Promise<void> {
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => {
    headers[key] = value;
  });
  res.writeHead(response.status, headers);
  res.flushHeaders();
  if (!response.body) return void res.end();
  const reader = response.body.getReader();
  res.on('close', () => void reader.cancel().catch(() => {}));
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      res.write(value);
    }
  } catch {
    // the client went away: the cancel above ended the stream
  }
  res.end();
}

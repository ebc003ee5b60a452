/**
 * Candidate: the official TypeScript SDK (@modelcontextprotocol/sdk 1.x) serving
 * streamable HTTP and legacy HTTP+SSE from one process, deployed the way the
 * SDK's own example `examples/server/sseAndStreamableHttpCompatibleServer.js`
 * deploys it.
 *
 * That example runs on express and listens on port 3000 at import time, so its
 * routing is rebuilt here on plain `node:http`, answer for answer: one session
 * map for both transports, one McpServer and one example `InMemoryEventStore`
 * per streamable session, the same status codes and bodies (including its
 * quirks: a legacy session ID at /mcp is a 400, an unknown `sessionId` at
 * /messages is also a 400 claiming the session uses another transport), the
 * same idle reaper and session cap. What express itself contributed is
 * reproduced too: localhost Host-header validation (403), `express.json()` body
 * parsing, and 404 for other routes. The example's own demo tool is not
 * registered; the fixture tools are.
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import { InMemoryEventStore } from '@modelcontextprotocol/sdk/examples/shared/inMemoryEventStore.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { installedVersion, waitUntilPortRefuses, type RunningCandidate } from './adapter.js';
import { registerFixtureTools } from '../../fixtures/index.js';

/** The example's limits, kept so that its reaping and 503 behaviour is the one under test. */
const IDLE_MS = 30 * 60_000;
const MAX_SESSIONS = 1000;
/** express.json()'s default `limit`. */
const JSON_BODY_LIMIT = 100 * 1024;

interface Session {
  transport: StreamableHTTPServerTransport | SSEServerTransport;
  open: number;
  lastActive: number;
}

/**
 * Starts the SDK candidate on 127.0.0.1 on a free port.
 *
 * Endpoints: `/mcp` (streamable HTTP: POST, GET, DELETE), `/sse` (legacy GET)
 * and `/messages?sessionId=...` (legacy POST).
 *
 * @returns the running candidate; `stop()` closes every transport and the listener
 */
export default async function start(): Promise<RunningCandidate> {
  const sessions = new Map<string, Session>();

  const getServer = (): McpServer => {
    const server = new McpServer({ name: 'backwards-compatible-server', version: '1.0.0' }, { capabilities: { logging: {} } });
    // The public form SDK users call: executions counted per process, as the contract counts them.
    registerFixtureTools(server);
    return server;
  };

  // Count open responses so a long-running request or a listening SSE stream is not treated as idle.
  const trackResponse = (session: Session, res: ServerResponse): void => {
    if (!res.socket || res.destroyed) return;
    session.open++;
    res.on('close', () => {
      session.open--;
      session.lastActive = Date.now();
    });
  };

  const reaper = setInterval(() => {
    const cutoff = Date.now() - IDLE_MS;
    for (const { transport, open, lastActive } of sessions.values()) {
      if (open === 0 && lastActive < cutoff) transport.close().catch(() => {});
    }
  }, 60_000);
  reaper.unref();

  const handleMcp = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    try {
      const sessionId = req.headers['mcp-session-id'] as string | undefined;
      const session = sessionId ? sessions.get(sessionId) : undefined;
      let transport: StreamableHTTPServerTransport;
      if (session) {
        if (session.transport instanceof StreamableHTTPServerTransport) {
          transport = session.transport;
          trackResponse(session, res);
        } else {
          sendJson(res, 400, {
            jsonrpc: '2.0',
            error: { code: -32000, message: 'Bad Request: Session exists but uses a different transport protocol' },
            id: null,
          });
          return;
        }
      } else if (!sessionId && req.method === 'POST' && isInitializeRequest(body)) {
        if (sessions.size >= MAX_SESSIONS) {
          sendJson(res, 503, { jsonrpc: '2.0', error: { code: -32000, message: 'Too many open sessions' }, id: null });
          return;
        }
        const eventStore = new InMemoryEventStore();
        const created: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
          sessionIdGenerator: () => randomUUID(),
          eventStore,
          onsessioninitialized: (id) => {
            sessions.set(id, { transport: created, open: 0, lastActive: Date.now() });
          },
        });
        created.onclose = () => {
          const sid = created.sessionId;
          if (sid && sessions.has(sid)) sessions.delete(sid);
        };
        await getServer().connect(created);
        transport = created;
      } else if (sessionId) {
        sendJson(res, 404, { jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      } else {
        sendJson(res, 400, {
          jsonrpc: '2.0',
          error: { code: -32000, message: 'Bad Request: No valid session ID provided' },
          id: null,
        });
        return;
      }
      await transport.handleRequest(req, res, body);
    } catch {
      if (!res.headersSent) {
        sendJson(res, 500, { jsonrpc: '2.0', error: { code: -32603, message: 'Internal server error' }, id: null });
      }
    }
  };

  const handleSse = async (res: ServerResponse): Promise<void> => {
    if (sessions.size >= MAX_SESSIONS) {
      sendText(res, 503, 'Too many open sessions');
      return;
    }
    const transport = new SSEServerTransport('/messages', res);
    // An SSE session lasts as long as this response, which counts as open until it closes.
    const session: Session = { transport, open: 0, lastActive: Date.now() };
    sessions.set(transport.sessionId, session);
    trackResponse(session, res);
    transport.onclose = () => {
      sessions.delete(transport.sessionId);
    };
    await getServer().connect(transport);
  };

  const handleMessages = async (req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> => {
    const { sessionId } = parseQuery(new URL(req.url ?? '/', 'http://localhost').search.slice(1));
    // express's query parser yields an array for a repeated key, which is never a map key.
    const existing = typeof sessionId === 'string' ? sessions.get(sessionId)?.transport : undefined;
    if (!(existing instanceof SSEServerTransport)) {
      // The example sends this for unknown session IDs as well: its 'No transport found' branch is unreachable.
      sendJson(res, 400, {
        jsonrpc: '2.0',
        error: { code: -32000, message: 'Bad Request: Session exists but uses a different transport protocol' },
        id: null,
      });
      return;
    }
    await existing.handlePostMessage(req, res, body);
  };

  const httpServer = createServer((req, res) => {
    void route(req, res).catch(() => {
      // express 5 hands a rejected route to its final handler: 500, or a reset once headers are out.
      if (!res.headersSent) sendErrorPage(res, 500, 'Internal Server Error');
      else if (!res.writableEnded) req.socket.destroy();
    });
  });

  const route = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const hostError = localhostHostError(req.headers.host);
    if (hostError) {
      sendJson(res, 403, { jsonrpc: '2.0', error: { code: -32000, message: hostError }, id: null });
      return;
    }
    const parsed = await parseJsonBody(req);
    if (!parsed.ok) {
      sendErrorPage(res, parsed.status, parsed.message);
      return;
    }
    const pathname = new URL(req.url ?? '/', 'http://localhost').pathname;
    const method = req.method ?? 'GET';
    // express routes are case-insensitive and accept one trailing slash.
    if (routeMatches(pathname, '/mcp')) return handleMcp(req, res, parsed.body);
    if (routeMatches(pathname, '/sse') && (method === 'GET' || method === 'HEAD')) return handleSse(res);
    if (routeMatches(pathname, '/messages') && method === 'POST') return handleMessages(req, res, parsed.body);
    sendErrorPage(res, 404, `Cannot ${method} ${escapeHtml(pathname)}`);
  };

  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(0, '127.0.0.1', () => {
      httpServer.off('error', reject);
      resolve();
    });
  });
  const { port } = httpServer.address() as AddressInfo;

  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopping ??= (async () => {
      clearInterval(reaper);
      // What the example does on SIGINT: close every transport, whatever its type.
      for (const [sessionId, { transport }] of [...sessions]) {
        await transport.close().catch(() => {});
        sessions.delete(sessionId);
      }
      await new Promise<void>((resolve) => {
        httpServer.close(() => resolve());
        // Keep-alive sockets and streams of sessions still initializing would hold close() open.
        httpServer.closeAllConnections();
      });
      await waitUntilPortRefuses(port);
    })();
    return stopping;
  };

  return {
    url: `http://127.0.0.1:${port}`,
    stop,
    name: '@modelcontextprotocol/sdk',
    version: installedVersion('@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/server/mcp.js'),
  };
}

function routeMatches(pathname: string, path: string): boolean {
  const lower = pathname.toLowerCase();
  return lower === path || lower === `${path}/`;
}

/** The check of the SDK's `localhostHostValidation()` middleware, which `createMcpExpressApp()` installs. */
function localhostHostError(hostHeader: string | undefined): string | undefined {
  if (!hostHeader) return 'Missing Host header';
  let hostname: string;
  try {
    hostname = new URL(`http://${hostHeader}`).hostname;
  } catch {
    return `Invalid Host header: ${hostHeader}`;
  }
  return ['localhost', '127.0.0.1', '[::1]'].includes(hostname) ? undefined : `Invalid Host: ${hostname}`;
}

type ParsedBody = { ok: true; body: unknown } | { ok: false; status: number; message: string };

/**
 * What `express.json()` (body-parser 2, default options) does to a request:
 * only a body declared `application/json` is read and parsed; anything else is
 * left unread for the transport, which reads it itself.
 */
async function parseJsonBody(req: IncomingMessage): Promise<ParsedBody> {
  const hasBody = req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number.parseInt(req.headers['content-length'] ?? '', 10));
  if (!hasBody) return { ok: true, body: undefined };
  const contentType = (req.headers['content-type'] ?? '').split(';');
  const mediaType = (contentType[0] ?? '').trim().toLowerCase();
  if (mediaType !== 'application/json') return { ok: true, body: undefined };
  const charsetParam = contentType
    .slice(1)
    .map((p) => p.trim().toLowerCase())
    .find((p) => p.startsWith('charset='));
  const charset = charsetParam ? charsetParam.slice('charset='.length).replace(/^"|"$/g, '') : 'utf-8';
  if (!charset.startsWith('utf-')) return { ok: false, status: 415, message: `Unsupported Media Type: unsupported charset "${charset.toUpperCase()}"` };

  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > JSON_BODY_LIMIT) return { ok: false, status: 413, message: 'Payload Too Large' };
    chunks.push(chunk);
  }
  const text = Buffer.concat(chunks).toString('utf8');
  if (text.length === 0) return { ok: true, body: {} };
  // strict mode: only objects and arrays
  const first = /^[ \t\n\r]*(.)/.exec(text)?.[1];
  if (first !== '{' && first !== '[') return { ok: false, status: 400, message: 'Bad Request' };
  try {
    return { ok: true, body: JSON.parse(text) as unknown };
  } catch {
    return { ok: false, status: 400, message: 'Bad Request' };
  }
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
}

/** express's `res.send(string)`. */
function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, { 'Content-Type': 'text/html; charset=utf-8' }).end(text);
}

/** express's final handler page, as rendered with NODE_ENV=production (no stack trace). */
function sendErrorPage(res: ServerResponse, status: number, message: string): void {
  const page = `<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n<body>\n<pre>${message}</pre>\n</body>\n</html>\n`;
  res
    .writeHead(status, {
      'Content-Security-Policy': "default-src 'none'",
      'X-Content-Type-Options': 'nosniff',
      'Content-Type': 'text/html; charset=utf-8',
    })
    .end(page);
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

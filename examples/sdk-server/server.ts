// A whole MCP server on @modelcontextprotocol/sdk 1.x that passes `mcp-resume-spec check`: the fixture
// tools, streamable HTTP at /mcp (one event store per session, 404 for an unknown session or a cursor no
// store can place) and the legacy HTTP+SSE transport at /sse and /messages, from one process.
// Run: npx tsx server.ts (PORT=3000 by default; REDIS_URL=redis://... to keep the events in Redis).
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { createClient } from 'redis';
import { MemoryEventStore, RedisEventStore, SessionEventStores } from 'mcp-resume-spec/event-store';
import { registerFixtureTools } from 'mcp-resume-spec/fixtures';

// One store per session: in memory, or Redis Streams when REDIS_URL is set (npm install redis@5.9.0).
const redis = process.env.REDIS_URL ? await createClient({ url: process.env.REDIS_URL }).connect() : undefined;
const stores = new SessionEventStores((sessionId) =>
  redis ? new RedisEventStore({ client: redis, sessionId }) : new MemoryEventStore({ maxEvents: 10_000, maxAgeMs: 30 * 60_000 }),
);
const streamable = new Map<string, StreamableHTTPServerTransport>();
const legacy = new Map<string, SSEServerTransport>();

function newServer(): McpServer {
  const server = new McpServer({ name: 'my-server', version: '1.0.0' }, { capabilities: { logging: {} } });
  registerFixtureTools(server);
  return server;
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  let text = '';
  for await (const chunk of req) text += chunk;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

async function handleMcp(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const sessionId = req.headers['mcp-session-id'];
  if (typeof sessionId === 'string') {
    const transport = streamable.get(sessionId);
    if (!transport) return void res.writeHead(404).end(); // unknown or ended: the client re-initializes
    if (await stores.rejectUnplaceableCursor(req, res)) return; // 404 where the transport would say 400
    return transport.handleRequest(req, res);
  }
  const body = req.method === 'POST' ? await readJson(req) : undefined;
  if (!isInitializeRequest(body)) return void res.writeHead(400).end();
  const id = randomUUID();
  const transport = new StreamableHTTPServerTransport({
    sessionIdGenerator: () => id,
    eventStore: stores.open(id),
    onsessioninitialized: () => void streamable.set(id, transport),
  });
  transport.onclose = () => {
    streamable.delete(id);
    stores.close(id);
  };
  await newServer().connect(transport);
  await transport.handleRequest(req, res, body);
}

async function handleSse(res: ServerResponse): Promise<void> {
  const transport = new SSEServerTransport('/messages', res);
  legacy.set(transport.sessionId, transport);
  transport.onclose = () => void legacy.delete(transport.sessionId);
  res.on('close', () => void transport.close());
  await newServer().connect(transport);
}

async function handleMessage(req: IncomingMessage, res: ServerResponse, sessionId: string | null): Promise<void> {
  const transport = sessionId === null ? undefined : legacy.get(sessionId);
  if (!transport) return void res.writeHead(404).end();
  await transport.handlePostMessage(req, res);
}

const http = createServer((req, res) => {
  const { pathname, searchParams } = new URL(req.url ?? '/', 'http://localhost');
  const handled =
    pathname === '/mcp'
      ? handleMcp(req, res)
      : pathname === '/sse' && req.method === 'GET'
        ? handleSse(res)
        : pathname === '/messages' && req.method === 'POST'
          ? handleMessage(req, res, searchParams.get('sessionId'))
          : Promise.resolve(void res.writeHead(404).end());
  handled.catch(() => (res.headersSent ? res.destroy() : res.writeHead(500).end()));
});
http.listen(Number(process.env.PORT ?? 3000), '127.0.0.1', () => {
  const { port } = http.address() as { port: number };
  console.log(`http://127.0.0.1:${port}/mcp`);
});

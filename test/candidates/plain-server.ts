/**
 * A plain `node:http` MCP server (streamable HTTP only, protocol 2025-11-25), written without any
 * SDK: a correct server of another design than this project's reference, with its own event-ID
 * formats (`<streamKey>:<n>`, `e<n>` from one counter, `1`, `2`, ... per session, or none) and
 * session-ID formats. The no-false-positive tests check it with `runSuite` and expect no failure.
 * `bug` makes deliberately broken variants, so that those tests can be seen to fail.
 *
 * Ported from a tester's `my-server.mjs`; the fixture tools are those of `docs/contract.md`:
 * `emit`, `emit_unsolicited` and `session_info`.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RunningCandidate } from '../../src/check-server/candidates/adapter.js';

/** How the server is built; every field is optional. */
export interface PlainServerOptions {
  /**
   * Event IDs: `stream` (default) `"<streamKey>:<n>"`; `global` `"e<n>"` from one counter per
   * server; `session` `"1"`, `"2"`, ... from a counter per session (unique within a session only,
   * as the spec asks); `none` no event IDs, no resumption (a GET with `Last-Event-ID` is served as
   * a plain GET).
   */
  ids?: 'stream' | 'global' | 'session' | 'none';
  /** Session ID format (default `uuid`); all carry at least 80 random bits from `crypto.randomBytes`. */
  sessionIds?: 'uuid' | 'ulid' | 'decimal' | 'uuidv7' | 'b64-96';
  /**
   * The 2025-11-25 polling design: a POST SSE stream sends its priming event with `retry:` and the
   * server closes the connection at once; the client resumes with GET + `Last-Event-ID`.
   */
  poll?: boolean;
  /**
   * A deliberate defect (default `none`): `inclusive` replays from the cursor inclusive; `lose`
   * skips the first event after the cursor; `lose-standalone` the same on the standalone stream
   * only; `cross-stream` replays every event of the session after the cursor, of any stream.
   */
  bug?: 'none' | 'inclusive' | 'lose' | 'lose-standalone' | 'cross-stream';
}

const name = 'plain-http-server';
const version = '0.0.1';
const SUPPORTED = ['2025-11-25', '2025-06-18', '2025-03-26'];
const B32 = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

interface StoredEvent {
  id: string | null;
  data: string;
  written: boolean;
  retry?: number;
}

interface Stream {
  key: string;
  kind: 'post' | 'standalone';
  n: number;
  events: StoredEvent[];
  conn: ServerResponse | null;
  done: boolean;
  session: SessionCore;
}

interface SessionCore {
  id: string;
  counter: number;
  protocolVersion: string;
  clientCapabilities: unknown;
  streams: Map<string, Stream>;
  eventIndex: Map<string, { stream: Stream; idx: number }>;
}

interface Session extends SessionCore {
  standalone: Stream;
}

interface JsonRpcMessage {
  jsonrpc?: unknown;
  method?: unknown;
  id?: unknown;
  params?: unknown;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** `value[key]` when `value` is a non-null object, else undefined. */
function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
}

function newSessionId(format: NonNullable<PlainServerOptions['sessionIds']>): string {
  if (format === 'ulid') {
    let t = Date.now();
    let s = '';
    for (let i = 0; i < 10; i++) {
      s = B32[t % 32] + s;
      t = Math.floor(t / 32);
    }
    const r = randomBytes(16);
    for (let i = 0; i < 16; i++) s += B32[r[i] % 32];
    return s; // 48-bit time + 80 random bits
  }
  if (format === 'b64-96') return randomBytes(12).toString('base64url'); // 96 random bits, 16 chars
  if (format === 'decimal') return BigInt(`0x${randomBytes(16).toString('hex')}`).toString(10); // 128 random bits
  if (format === 'uuidv7') {
    const b = randomBytes(16);
    b.writeUIntBE(Date.now(), 0, 6);
    b[6] = (b[6] & 0x0f) | 0x70;
    b[8] = (b[8] & 0x3f) | 0x80;
    const h = b.toString('hex');
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  return randomUUID();
}

function writeEvent(res: ServerResponse, ev: StoredEvent): void {
  let frame = '';
  if (ev.id !== null) frame += `id: ${ev.id}\n`;
  if (ev.retry) frame += `retry: ${ev.retry}\n`;
  frame += `data: ${ev.data}\n\n`;
  res.write(frame);
}

const jsonrpc = (id: unknown, result: unknown): string => JSON.stringify({ jsonrpc: '2.0', id, result });
const jsonrpcError = (id: unknown, code: number, message: string): string => JSON.stringify({ jsonrpc: '2.0', id, error: { code, message } });

function sendJson(res: ServerResponse, status: number, body: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(body);
}

const emitSchema = {
  type: 'object',
  properties: {
    label: { type: 'string', description: 'Tag carried by every notification and the result' },
    count: { type: 'integer', minimum: 0, maximum: 1000, description: 'How many notifications to send' },
  },
  required: ['label', 'count'],
};
const TOOLS = [
  { name: 'emit', description: 'Sends count notifications on this request stream.', inputSchema: emitSchema },
  { name: 'emit_unsolicited', description: 'Sends count notifications on the standalone stream.', inputSchema: emitSchema },
  { name: 'session_info', description: 'Protocol version and client capabilities.', inputSchema: { type: 'object', properties: {} } },
];

const note = (label: string, seq: number): string =>
  JSON.stringify({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: { label, seq } } });

function validEmitArgs(a: unknown): a is { label: string; count: number } {
  const count = field(a, 'count');
  return typeof field(a, 'label') === 'string' && Number.isInteger(count) && (count as number) >= 0 && (count as number) <= 1000;
}

function originOk(req: IncomingMessage): boolean {
  const o = req.headers.origin;
  if (!o) return true;
  try {
    const h = new URL(o).hostname;
    return h === '127.0.0.1' || h === 'localhost' || h === '[::1]';
  } catch {
    return false;
  }
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req as AsyncIterable<Buffer>) chunks.push(c);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Starts the server on 127.0.0.1, a free port.
 *
 * @param options - the design (defaults: `ids: 'stream'`, `sessionIds: 'uuid'`, no polling, no bug)
 * @returns the running candidate; its `url` is the streamable HTTP endpoint `http://127.0.0.1:PORT/mcp`
 */
export async function startPlainServer(options: PlainServerOptions = {}): Promise<RunningCandidate> {
  const IDS = options.ids ?? 'stream';
  const SID = options.sessionIds ?? 'uuid';
  const POLL = options.poll ?? false;
  const BUG = options.bug ?? 'none';
  const RESUMABLE = IDS !== 'none';

  // All state belongs to this server instance.
  const executions = new Map<string, number>(); // `${tool}\0${label}` -> count
  const sessions = new Map<string, Session>();
  const openSse = new Set<ServerResponse>();
  let globalCounter = 0;

  function newStream(session: SessionCore, kind: Stream['kind']): Stream {
    const key = randomBytes(4).toString('hex');
    const s: Stream = { key, kind, n: 0, events: [], conn: null, done: false, session };
    session.streams.set(key, s);
    return s;
  }

  function nextId(stream: Stream): string | null {
    if (!RESUMABLE) return null;
    if (IDS === 'global') return `e${++globalCounter}`;
    if (IDS === 'session') return String(++stream.session.counter); // unique within the session only
    return `${stream.key}:${++stream.n}`;
  }

  /** Appends a message (or a priming event, data '') to a stream's log and sends it if connected. */
  function append(stream: Stream, data: string, extra: { retry?: number } = {}): StoredEvent {
    const ev: StoredEvent = { id: nextId(stream), data, written: false, ...extra };
    if (RESUMABLE) {
      stream.events.push(ev);
      if (ev.id !== null) stream.session.eventIndex.set(ev.id, { stream, idx: stream.events.length - 1 });
    }
    if (stream.conn) {
      writeEvent(stream.conn, ev);
      ev.written = true;
    }
    // Without resumption there is no store: a message for a standalone stream that is not open is dropped.
    return ev;
  }

  function finish(stream: Stream): void {
    stream.done = true;
    if (stream.conn) {
      const c = stream.conn;
      stream.conn = null;
      c.end();
    }
  }

  function attach(stream: Stream, res: ServerResponse): void {
    if (stream.conn && stream.conn !== res) {
      const old = stream.conn;
      stream.conn = null;
      old.end(); // one connection per stream: the newer one wins
    }
    stream.conn = res;
    res.on('close', () => {
      if (stream.conn === res) stream.conn = null;
    });
  }

  function sseHead(res: ServerResponse, sessionId: string): void {
    res.writeHead(200, {
      'Content-Type': 'text/event-stream',
      'Cache-Control': 'no-cache',
      Connection: 'keep-alive',
      'Mcp-Session-Id': sessionId,
    });
    res.flushHeaders();
    openSse.add(res);
    res.on('close', () => openSse.delete(res));
  }

  function count(tool: string, label: string): number {
    const k = `${tool}\0${label}`;
    const n = (executions.get(k) ?? 0) + 1;
    executions.set(k, n);
    return n;
  }

  async function handlePost(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const accept = String(req.headers.accept ?? '');
    if (!accept.includes('application/json') || !accept.includes('text/event-stream')) {
      return sendJson(res, 406, jsonrpcError(null, -32000, 'Accept must list application/json and text/event-stream'));
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(await readBody(req));
    } catch {
      return sendJson(res, 400, jsonrpcError(null, -32700, 'Parse error'));
    }
    if (Array.isArray(parsed) || typeof parsed !== 'object' || parsed === null || field(parsed, 'jsonrpc') !== '2.0') {
      return sendJson(res, 400, jsonrpcError(null, -32600, 'Invalid Request'));
    }
    const msg = parsed as JsonRpcMessage;
    const sid = req.headers['mcp-session-id'];
    const isRequest = typeof msg.method === 'string' && msg.id !== undefined && msg.id !== null;

    if (msg.method === 'initialize') {
      if (sid !== undefined) return sendJson(res, 400, jsonrpcError(msg.id ?? null, -32600, 'initialize carries no session ID'));
      const asked = field(msg.params, 'protocolVersion');
      const protocolVersion = typeof asked === 'string' && SUPPORTED.includes(asked) ? asked : SUPPORTED[0];
      const core: SessionCore = {
        id: newSessionId(SID),
        counter: 0,
        protocolVersion,
        clientCapabilities: field(msg.params, 'capabilities') ?? {},
        streams: new Map(),
        eventIndex: new Map(),
      };
      const session: Session = Object.assign(core, { standalone: newStream(core, 'standalone') });
      sessions.set(session.id, session);
      return sendJson(res, 200, jsonrpc(msg.id, { protocolVersion, capabilities: { tools: {}, logging: {} }, serverInfo: { name, version } }), {
        'Mcp-Session-Id': session.id,
      });
    }

    if (sid === undefined) return sendJson(res, 400, jsonrpcError(msg.id ?? null, -32000, 'Missing Mcp-Session-Id'));
    const session = sessions.get(String(sid));
    if (!session) return sendJson(res, 404, jsonrpcError(msg.id ?? null, -32001, 'Session not found'));
    const pv = req.headers['mcp-protocol-version'];
    if (pv !== undefined && !SUPPORTED.includes(String(pv))) {
      return sendJson(res, 400, jsonrpcError(msg.id ?? null, -32000, `Unsupported MCP-Protocol-Version ${String(pv)}`));
    }

    if (!isRequest) {
      // A notification or a response from the client.
      res.writeHead(202, { 'Mcp-Session-Id': session.id });
      res.end();
      return;
    }

    const reply = (body: string): void => sendJson(res, 200, body, { 'Mcp-Session-Id': session.id });
    switch (msg.method) {
      case 'ping':
        return reply(jsonrpc(msg.id, {}));
      case 'tools/list':
        return reply(jsonrpc(msg.id, { tools: TOOLS }));
      case 'logging/setLevel':
        return reply(jsonrpc(msg.id, {}));
      case 'tools/call':
        break;
      default:
        return reply(jsonrpcError(msg.id, -32601, `Method not found: ${String(msg.method)}`));
    }

    const tool = field(msg.params, 'name');
    const a = field(msg.params, 'arguments') ?? {};
    if (tool === 'session_info') {
      const text = JSON.stringify({ protocolVersion: session.protocolVersion, clientCapabilities: session.clientCapabilities });
      return reply(jsonrpc(msg.id, { content: [{ type: 'text', text }] }));
    }
    if (tool !== 'emit' && tool !== 'emit_unsolicited') {
      return reply(jsonrpcError(msg.id, -32602, `Unknown tool: ${String(tool)}`));
    }
    if (!validEmitArgs(a)) return reply(jsonrpcError(msg.id, -32602, 'Invalid arguments'));

    const n = count(tool, a.label);
    const result = jsonrpc(msg.id, { content: [{ type: 'text', text: JSON.stringify({ label: a.label, executions: n }) }] });

    if (tool === 'emit_unsolicited') {
      // Notifications on the standalone stream (logged for replay when none is open); result as JSON.
      for (let i = 1; i <= a.count; i++) append(session.standalone, note(a.label, i));
      return reply(result);
    }

    // emit: an SSE POST stream of its own.
    const stream = newStream(session, 'post');
    sseHead(res, session.id);
    attach(stream, res);
    if (RESUMABLE) {
      append(stream, '', POLL ? { retry: 20 } : {}); // priming event
      if (POLL) {
        // 2025-11-25: the server MAY close the connection (not the stream) after an event ID.
        stream.conn = null;
        res.end();
      }
    }
    // The handler runs to completion whatever happens to the connection (count is at most 1000).
    for (let i = 1; i <= a.count; i++) {
      await sleep(1);
      if (!sessions.has(session.id)) return;
      append(stream, note(a.label, i));
    }
    await sleep(1);
    append(stream, result);
    finish(stream);
  }

  function handleGet(req: IncomingMessage, res: ServerResponse): void {
    const accept = String(req.headers.accept ?? '');
    if (!accept.includes('text/event-stream')) return void sendJson(res, 406, jsonrpcError(null, -32000, 'Accept must list text/event-stream'));
    const sid = req.headers['mcp-session-id'];
    if (sid === undefined) return void sendJson(res, 400, jsonrpcError(null, -32000, 'Missing Mcp-Session-Id'));
    const session = sessions.get(String(sid));
    if (!session) return void sendJson(res, 404, jsonrpcError(null, -32001, 'Session not found'));
    const pv = req.headers['mcp-protocol-version'];
    if (pv !== undefined && !SUPPORTED.includes(String(pv))) return void sendJson(res, 400, jsonrpcError(null, -32000, 'Unsupported MCP-Protocol-Version'));

    const cursor = req.headers['last-event-id'];
    if (RESUMABLE && cursor !== undefined) {
      const at = session.eventIndex.get(String(cursor));
      if (!at) return void sendJson(res, 404, jsonrpcError(null, -32001, 'Unknown Last-Event-ID: start a new session'));
      const { stream, idx } = at;
      sseHead(res, session.id);
      attach(stream, res);
      let from = idx + 1;
      if (BUG === 'inclusive') from = idx;
      if (BUG === 'lose') from = idx + 2;
      if (BUG === 'lose-standalone' && stream.kind === 'standalone') from = idx + 2;
      let replay = stream.events.slice(from);
      if (BUG === 'cross-stream') {
        replay = [];
        for (const s of session.streams.values()) for (const [i, ev] of s.events.entries()) if (s !== stream || i > idx) replay.push(ev);
      }
      for (const ev of replay) {
        if (ev.data === '') continue; // priming events carry nothing to replay
        writeEvent(res, ev);
        ev.written = true;
      }
      if (stream.done) {
        stream.conn = null;
        res.end();
      }
      return;
    }

    // A plain GET: the standalone stream. Delivers what was logged while no connection was open.
    const stream = session.standalone;
    sseHead(res, session.id);
    attach(stream, res);
    if (RESUMABLE) {
      for (const ev of stream.events) {
        if (!ev.written) {
          writeEvent(res, ev);
          ev.written = true;
        }
      }
      append(stream, ''); // priming event: a cursor before anything else arrives
    } else {
      res.write(': open\n\n');
    }
  }

  function handleDelete(req: IncomingMessage, res: ServerResponse): void {
    const sid = req.headers['mcp-session-id'];
    if (sid === undefined) return void sendJson(res, 400, jsonrpcError(null, -32000, 'Missing Mcp-Session-Id'));
    const session = sessions.get(String(sid));
    if (!session) return void sendJson(res, 404, jsonrpcError(null, -32001, 'Session not found'));
    sessions.delete(session.id);
    for (const s of session.streams.values()) {
      if (s.conn) {
        s.conn.end();
        s.conn = null;
      }
    }
    res.writeHead(200);
    res.end();
  }

  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    if (url.pathname !== '/mcp') return sendJson(res, 404, jsonrpcError(null, -32000, 'Not found'));
    if (!originOk(req)) return sendJson(res, 403, jsonrpcError(null, -32000, 'Forbidden origin'));
    let handled: Promise<void> | void = undefined;
    if (req.method === 'POST') handled = handlePost(req, res);
    else if (req.method === 'GET') handled = handleGet(req, res);
    else if (req.method === 'DELETE') handled = handleDelete(req, res);
    else {
      res.writeHead(405, { Allow: 'GET, POST, DELETE' });
      res.end();
    }
    Promise.resolve(handled).catch((error: unknown) => {
      console.error(error);
      if (!res.headersSent) sendJson(res, 500, jsonrpcError(null, -32603, 'Internal error'));
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const { port } = server.address() as AddressInfo;

  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= new Promise<void>((resolve, reject) => {
      sessions.clear(); // running `emit` handlers see their session gone and return
      server.close((error) => (error ? reject(error) : resolve()));
      for (const res of openSse) res.end();
      openSse.clear();
      server.closeAllConnections();
    });
    return stopped;
  };

  return { url: `http://127.0.0.1:${port}/mcp`, stop, name, version };
}

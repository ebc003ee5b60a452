/**
 * A loopback HTTP proxy between a client under test and the reference server: it forwards every
 * request, records the wire traffic (requests, statuses, each SSE frame as forwarded) and applies
 * the scenario's faults. SSE answers are re-framed frame by frame, so a cut falls exactly between
 * two frames, and an "undrained" cut writes its last frame and the close in one turn.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { WireEntry, WireMessage } from '../../properties/client/history.js';
import type { Fault, Match } from './faults.js';
import { describeFault } from './faults.js';

/** The clock shared by the proxy and the application log: strictly increasing. */
export class Clock {
  private value = 0;
  tick(): number {
    return ++this.value;
  }
}

export interface ProxyOptions {
  /** The reference server's base URL. */
  upstream: string;
  faults: Fault[];
  clock: Clock;
  wire: WireEntry[];
  /**
   * Resolves (true) once the application has the message of a frame forwarded at clock `since`, or
   * false past a bound: a non-undrained cut waits on it.
   */
  applicationHas(message: WireMessage, since: number): Promise<boolean>;
}

export interface WireProxy {
  /** Base URL of the proxy (`http://127.0.0.1:PORT`). */
  url: string;
  close(): Promise<void>;
}

interface SseFrame {
  raw: string;
  id?: string;
  event?: string;
  data: string;
}

function parseFrame(raw: string): SseFrame {
  const frame: SseFrame = { raw, data: '' };
  const data: string[] = [];
  for (const line of raw.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon === 0) continue;
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
    if (field === 'id') frame.id = value;
    else if (field === 'event') frame.event = value;
    else if (field === 'data') data.push(value);
  }
  frame.data = data.join('\n');
  return frame;
}

function messagesOf(text: string): WireMessage[] {
  try {
    const parsed = JSON.parse(text) as unknown;
    const list = Array.isArray(parsed) ? parsed : [parsed];
    return list.filter((m): m is WireMessage => typeof m === 'object' && m !== null);
  } catch {
    return [];
  }
}

/** Starts the proxy on 127.0.0.1, port 0. */
export async function startProxy(options: ProxyOptions): Promise<WireProxy> {
  const upstream = new URL(options.upstream);
  const { clock, wire, faults } = options;
  const counts = new Map<Fault, number>();
  const legacySessions = new Set<string>();
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const upstreamRequests = new Set<http.ClientRequest>();
  let exchanges = 0;
  let closed = false;

  // A delay ends early when the proxy closes, so no forwarding chain outlives it.
  const wakers = new Set<() => void>();
  const wait = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const wake = (): void => {
        clearTimeout(timer);
        timers.delete(timer);
        wakers.delete(wake);
        resolve();
      };
      const timer = setTimeout(wake, ms);
      timers.add(timer);
      wakers.add(wake);
    });

  const matches = (m: Match, req: { method: string; path: string; rpc?: string; lastEventId?: string; sessionId?: string }): boolean =>
    (m.method === undefined || m.method === req.method) &&
    (m.path === undefined || m.path === req.path) &&
    (m.rpc === undefined || m.rpc === req.rpc) &&
    (m.resume === undefined || m.resume === (req.method === 'GET' && req.lastEventId !== undefined)) &&
    (m.legacySession === undefined || m.legacySession === (req.sessionId !== undefined && legacySessions.has(req.sessionId)));

  /** The faults of one kind whose match (and occurrence) this request is. */
  const applicable = (req: Parameters<typeof matches>[1]): Fault[] => {
    const hit: Fault[] = [];
    for (const fault of faults) {
      if (fault.kind === 'withholdPriming') continue;
      const m = fault.kind === 'expire' ? fault.after : fault.on;
      if (!matches(m, req)) continue;
      const n = (counts.get(fault) ?? 0) + 1;
      counts.set(fault, n);
      if (m.nth === undefined || m.nth === n) hit.push(fault);
    }
    return hit;
  };

  const record = (entry: WireEntry): void => {
    if (!closed) wire.push(entry);
  };

  const expire = (sessionId: string, exchange: number): Promise<void> =>
    new Promise((resolve) => {
      record({ kind: 'fault', at: clock.tick(), exchange, fault: 'expire', detail: `DELETE session ${sessionId} at the server` });
      const req = http.request(
        { host: upstream.hostname, port: upstream.port, method: 'DELETE', path: '/mcp', headers: { 'mcp-session-id': sessionId } },
        (res) => {
          res.resume();
          res.on('end', resolve);
          res.on('error', () => resolve());
        },
      );
      req.on('error', () => resolve());
      req.end();
    });

  const server = http.createServer((req, res) => {
    const exchange = ++exchanges;
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('error', () => {});
    req.on('end', () => {
      void handle(exchange, req, res, Buffer.concat(chunks)).catch(() => {
        if (!res.headersSent) res.writeHead(502).end();
        else res.destroy();
      });
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function handle(exchange: number, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const target = new URL(req.url ?? '/', 'http://proxy.invalid');
    const header = (name: string): string | undefined => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const messages = body.length > 0 ? messagesOf(body.toString('utf8')) : [];
    const info = {
      method: req.method ?? 'GET',
      path: target.pathname,
      rpc: messages[0]?.method,
      lastEventId: header('last-event-id'),
      sessionId: header('mcp-session-id'),
    };
    const request: WireEntry = {
      kind: 'request',
      at: clock.tick(),
      exchange,
      origin: 'client',
      method: info.method,
      path: info.path,
      messages,
    };
    const querySession = target.searchParams.get('sessionId');
    if (querySession !== null) request.querySession = querySession;
    if (info.sessionId !== undefined) request.sessionId = info.sessionId;
    if (info.lastEventId !== undefined) request.lastEventId = info.lastEventId;
    record(request);

    const hit = applicable(info);
    const answer = hit.find((f) => f.kind === 'answer');
    if (answer) {
      record({ kind: 'fault', at: clock.tick(), exchange, fault: 'answer', detail: describeFault(answer) });
      record({ kind: 'response', at: clock.tick(), exchange, status: answer.status, stream: answer.status === 200, messages: [] });
      if (answer.status === 200) {
        // A quiet stream: the head, then nothing until either side closes.
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.flushHeaders();
        res.on('close', () => record({ kind: 'end', at: clock.tick(), exchange, cut: true }));
        return;
      }
      const text = JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32001, message: `Fault: answered ${answer.status} by the checker's proxy` } });
      res.writeHead(answer.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
      record({ kind: 'end', at: clock.tick(), exchange, cut: false });
      return;
    }
    const cut = hit.find((f): f is Extract<Fault, { kind: 'cut' }> => f.kind === 'cut');
    const delays = hit.filter((f): f is Extract<Fault, { kind: 'delay' }> => f.kind === 'delay');
    const expiry = hit.find((f) => f.kind === 'expire');
    const withholdPriming = faults.some((f) => f.kind === 'withholdPriming') && info.path === '/mcp';

    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
    delete headers['content-length'];
    // Hop-by-hop: a client's `Connection: close` is about its own socket, not the proxy's upstream one.
    delete headers.connection;
    delete headers['keep-alive'];
    if (body.length > 0) headers['content-length'] = String(body.length);
    const upstreamReq = http.request({ host: upstream.hostname, port: upstream.port, method: info.method, path: req.url, headers });
    upstreamRequests.add(upstreamReq);
    const upstreamRes = await new Promise<http.IncomingMessage>((resolve, reject) => {
      upstreamReq.on('response', resolve);
      upstreamReq.on('error', reject);
      upstreamReq.end(body);
    });
    const status = upstreamRes.statusCode ?? 502;
    const sessionHeader = upstreamRes.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
    const isStream = String(upstreamRes.headers['content-type'] ?? '').startsWith('text/event-stream');
    // An expiry happens before the client sees the answer end, so its next request meets it.
    let expiring: Promise<void> | undefined;
    const expireIfAsked = (): Promise<void> =>
      (expiring ??= (async () => {
        const session = info.sessionId ?? sessionId;
        if (expiry && session !== undefined && !closed) await expire(session, exchange);
      })());
    const finish = async (wasCut: boolean): Promise<void> => {
      record({ kind: 'end', at: clock.tick(), exchange, cut: wasCut });
      upstreamRequests.delete(upstreamReq);
    };

    const responseHeaders = { ...upstreamRes.headers };
    if (!isStream) {
      const parts: Buffer[] = [];
      for await (const chunk of upstreamRes) parts.push(chunk as Buffer);
      const text = Buffer.concat(parts);
      const response: WireEntry = { kind: 'response', at: clock.tick(), exchange, status, stream: false, messages: messagesOf(text.toString('utf8')) };
      if (sessionId !== undefined) response.sessionId = sessionId;
      record(response);
      delete responseHeaders['transfer-encoding'];
      responseHeaders['content-length'] = String(text.length);
      await expireIfAsked();
      res.writeHead(status, responseHeaders);
      res.end(text);
      await finish(false);
      return;
    }

    const response: WireEntry = { kind: 'response', at: clock.tick(), exchange, status, stream: true, messages: [] };
    if (sessionId !== undefined) response.sessionId = sessionId;
    record(response);
    delete responseHeaders['transfer-encoding'];
    delete responseHeaders['content-length'];
    res.writeHead(status, responseHeaders);
    res.flushHeaders();

    let forwarded = 0;
    let ended = false;
    const cutNow = async (undrained: boolean, last: SseFrame | undefined): Promise<void> => {
      ended = true;
      record({ kind: 'fault', at: clock.tick(), exchange, fault: undrained ? 'cut-undrained' : 'cut', detail: describeFault(cut!) });
      upstreamReq.destroy();
      if (undrained && last) {
        // The frame and the close leave in one turn: the client parses the frame as the connection dies.
        res.write(last.raw + '\n\n');
      }
      res.socket?.end();
      await finish(true);
      await expireIfAsked();
    };
    if (cut && cut.frames === 0) {
      await cutNow(false, undefined);
      return;
    }

    // Frames are forwarded one at a time, in order, whatever the delays.
    let buffered = '';
    let queue = Promise.resolve();
    const upstreamDone = new Promise<void>((resolve) => {
      upstreamRes.on('end', resolve);
      upstreamRes.on('error', () => resolve());
      upstreamRes.on('close', resolve);
    });
    const forward = async (frame: SseFrame): Promise<void> => {
      // An exchange that expires its session forwards nothing before the server has ended the
      // answer and the session is gone: a client that acts on the result meets the expiry.
      if (expiry) {
        await upstreamDone;
        await expireIfAsked();
      }
      if (ended || closed || res.destroyed) return;
      if (withholdPriming && frame.id !== undefined && frame.data === '' && frame.event === undefined) {
        record({ kind: 'fault', at: clock.tick(), exchange, fault: 'withhold-priming', detail: `priming event ${frame.id} not forwarded` });
        return;
      }
      const number = forwarded + 1;
      const delay = delays.find((d) => d.frame === number);
      if (delay) {
        record({ kind: 'fault', at: clock.tick(), exchange, fault: 'delay', detail: describeFault(delay) });
        await wait(delay.ms);
        if (closed || res.destroyed) return;
      }
      forwarded = number;
      const entry: WireEntry = { kind: 'frame', at: clock.tick(), exchange, data: frame.data };
      if (frame.id !== undefined) entry.id = frame.id;
      if (frame.event !== undefined) entry.event = frame.event;
      const message = frame.event === undefined || frame.event === 'message' ? messagesOf(frame.data)[0] : undefined;
      if (message) entry.message = message;
      if (frame.event === 'endpoint') {
        const session = /[?&]sessionId=([^&]+)/.exec(frame.data)?.[1];
        if (session) legacySessions.add(decodeURIComponent(session));
      }
      record(entry);
      if (cut && number === cut.frames) {
        if (cut.undrained) {
          await cutNow(true, frame);
          return;
        }
        res.write(frame.raw + '\n\n');
        if (message) await options.applicationHas(message, entry.at);
        else await wait(20);
        await cutNow(false, undefined);
        return;
      }
      res.write(frame.raw + '\n\n');
    };
    upstreamRes.setEncoding('utf8');
    upstreamRes.on('data', (chunk: string) => {
      buffered += chunk;
      const parts = buffered.split(/\r?\n\r?\n/);
      buffered = parts.pop() ?? '';
      for (const raw of parts) {
        if (raw.trim() === '') continue;
        const frame = parseFrame(raw);
        queue = queue.then(() => forward(frame));
      }
    });
    // The client went away (or was cut): the server learns it as a lost connection.
    res.on('close', () => {
      if (!ended) upstreamReq.destroy();
    });
    await upstreamDone;
    await queue;
    if (ended) return;
    ended = true;
    await expireIfAsked();
    if (!res.destroyed) res.end();
    await finish(false);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closed = true;
        for (const wake of [...wakers]) wake();
        timers.clear();
        for (const r of upstreamRequests) r.destroy();
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

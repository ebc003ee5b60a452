/**
 * A loopback HTTP proxy between a client under test and the reference server: it forwards every
 * request, records the wire traffic (requests, statuses, each SSE frame as forwarded) and applies
 * the scenario's faults. This file holds the proxy's life (listening, closing) and routes each
 * exchange; its parts are in `proxy/`: the request read and recorded (`request.ts`), the faults it
 * is under (`fault-plan.ts`), an answer instead of a forward (`answer.ts`), the requests to the
 * server (`upstream.ts`), and the answer relayed whole (`relay-body.ts`) or frame by frame
 * (`relay-stream.ts`, where cuts, delays and withheld priming events happen).
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { WireEntry, WireMessage } from '../../properties/client/history.js';
import type { Fault } from './faults.js';
import { answerInstead } from './proxy/answer.js';
import type { Clock } from './proxy/clock.js';
import type { Exchange, ProxyContext } from './proxy/context.js';
import { FaultRouter } from './proxy/fault-plan.js';
import { relayBody } from './proxy/relay-body.js';
import { relayStream } from './proxy/relay-stream.js';
import { readRequest } from './proxy/request.js';
import { expireSession, sendUpstream } from './proxy/upstream.js';

export { Clock } from './proxy/clock.js';

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

/** Starts the proxy on 127.0.0.1, port 0. */
export async function startProxy(options: ProxyOptions): Promise<WireProxy> {
  const { clock, wire } = options;
  const router = new FaultRouter(options.faults);
  const timers = new Set<NodeJS.Timeout>();
  const sockets = new Set<Socket>();
  const upstreamRequests = new Set<http.ClientRequest>();
  let exchanges = 0;
  let closed = false;

  // A delay ends early when the proxy closes, so no forwarding chain outlives it.
  const wakers = new Set<() => void>();
  const ctx: ProxyContext = {
    upstream: new URL(options.upstream),
    clock,
    record: (entry) => {
      if (!closed) wire.push(entry);
    },
    wait: (ms) =>
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
      }),
    closed: () => closed,
    applicationHas: (message, since) => options.applicationHas(message, since),
    upstreamRequests,
  };

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

  /** One exchange: recorded, then answered by a fault or relayed to the server and back. */
  async function handle(exchange: number, req: http.IncomingMessage, res: http.ServerResponse, body: Buffer): Promise<void> {
    const { info, entry } = readRequest(clock, exchange, req, body);
    ctx.record(entry);
    const plan = router.plan(info);
    if (plan.answer) {
      answerInstead(ctx, exchange, res, plan.answer);
      return;
    }
    const { upstreamReq, upstreamRes } = await sendUpstream(ctx, req, info.method, body);
    const sessionHeader = upstreamRes.headers['mcp-session-id'];
    const sessionId = typeof sessionHeader === 'string' ? sessionHeader : undefined;
    // An expiry happens before the client sees the answer end, so its next request meets it.
    let expiring: Promise<void> | undefined;
    const x: Exchange = {
      number: exchange,
      res,
      upstreamReq,
      upstreamRes,
      status: upstreamRes.statusCode ?? 502,
      ...(sessionId !== undefined ? { sessionId } : {}),
      expireIfAsked: () =>
        (expiring ??= (async () => {
          const session = info.sessionId ?? sessionId;
          if (plan.expire && session !== undefined && !closed) await expireSession(ctx, session, exchange);
        })()),
      finish: async (cut) => {
        ctx.record({ kind: 'end', at: clock.tick(), exchange, cut });
        upstreamRequests.delete(upstreamReq);
      },
    };
    const isStream = String(upstreamRes.headers['content-type'] ?? '').startsWith('text/event-stream');
    if (isStream) await relayStream(ctx, x, plan, (data) => router.noteEndpoint(data));
    else await relayBody(ctx, x);
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

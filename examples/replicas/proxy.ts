/**
 * A round-robin HTTP reverse proxy on `node:http`: each request goes to the next upstream in
 * turn, whatever its session (no stickiness), and the answer streams back chunk by chunk as it
 * arrives (SSE included; nothing is buffered). It stands in for a load balancer configured the
 * same way.
 */
import { Agent, createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A running proxy. */
export interface RoundRobinProxy {
  url: string;
  /** Stops listening and drops every open connection, both sides. Idempotent. */
  stop(): Promise<void>;
}

/** Headers that describe one hop, not the message (RFC 9110 §7.6.1). */
const HOP_BY_HOP = ['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'upgrade'];

function forwardable(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  const copy = { ...headers };
  for (const name of HOP_BY_HOP) delete copy[name];
  return copy;
}

/**
 * Starts the proxy on 127.0.0.1 (a free port unless `port` is given).
 *
 * @param upstreams - base URLs of the replicas, e.g. `http://127.0.0.1:41234`
 * @returns the proxy's URL and its stop function
 * @throws Error if `upstreams` is empty
 */
export async function startRoundRobinProxy(upstreams: string[], port = 0): Promise<RoundRobinProxy> {
  if (upstreams.length === 0) throw new Error('a proxy needs at least one upstream');
  const targets = upstreams.map((u) => new URL(u));
  // A fresh connection per request: a kept-alive socket the replica has just closed as idle would
  // fail the next request on it (ECONNRESET), and the client would see a 502 no replica caused.
  const agent = new Agent({ keepAlive: false });
  let next = 0;

  const server = createServer((req, res) => {
    const target = targets[next++ % targets.length]!;
    const upstream = request(
      { agent, host: target.hostname, port: target.port, method: req.method, path: req.url, headers: forwardable(req.headers) },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, forwardable(answer.headers));
        res.flushHeaders();
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    upstream.setNoDelay(true);
    upstream.on('error', () => {
      if (!res.headersSent) res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`upstream ${target.host} unreachable`);
      else res.destroy();
    });
    // A client that goes away takes its upstream request with it, so the replica sees the drop.
    res.on('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  });
  server.on('connection', (socket) => socket.setNoDelay(true));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  let stopping: Promise<void> | undefined;
  return {
    url,
    stop: () =>
      (stopping ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      })),
  };
}

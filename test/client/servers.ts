/**
 * Purpose-built node:http servers for the client tests: 127.0.0.1, port 0, every socket destroyed
 * on close, and every request kept (method, URL, headers, body) for the test to inspect.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export interface SeenRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  json?: any;
}

export type Handler = (req: http.IncomingMessage, res: http.ServerResponse, seen: SeenRequest) => unknown;

export interface TestServer {
  url: string;
  port: number;
  requests: SeenRequest[];
  close(): Promise<void>;
}

/** Starts an HTTP server whose handler gets the request with its body already read. */
export async function startHttp(handler: Handler): Promise<TestServer> {
  const requests: SeenRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const seen: SeenRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body };
      try {
        if (body !== '') seen.json = JSON.parse(body);
      } catch {
        /* keep text */
      }
      requests.push(seen);
      void handler(req, res, seen);
    });
  });
  return listen(server, requests);
}

/** Starts a raw TCP server: the test writes whatever bytes it likes. */
export async function startRaw(onConnection: (socket: net.Socket) => void): Promise<TestServer> {
  const server = net.createServer(onConnection);
  return listen(server, []);
}

async function listen(server: net.Server, requests: SeenRequest[]): Promise<TestServer> {
  const sockets = new Set<net.Socket>();
  server.on('connection', (s: net.Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An SSE frame as bytes. */
export function frame(f: { id?: string; event?: string; data: string }): string {
  let s = '';
  if (f.event !== undefined) s += `event: ${f.event}\n`;
  if (f.id !== undefined) s += `id: ${f.id}\n`;
  for (const line of f.data.split('\n')) s += `data: ${line}\n`;
  return `${s}\n`;
}

/** A JSON-RPC message frame. */
export function msgFrame(id: string | undefined, message: unknown): string {
  return frame({ id, event: 'message', data: JSON.stringify(message) });
}

/** Resolves after `ms` (used only to let the server write before the client acts). */
export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms));
}

/** Resolves once `pred()` holds, checking on each macrotask turn, for at most `ms`. */
export async function until(pred: () => boolean, ms = 2000): Promise<void> {
  const end = Date.now() + ms;
  while (!pred()) {
    if (Date.now() > end) throw new Error('condition not reached');
    await sleep(2);
  }
}

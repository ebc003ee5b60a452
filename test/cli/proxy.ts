/**
 * A forwarding proxy in front of a server under test: over TLS when given a key and certificate,
 * and admitting only the requests `admit` lets through (the rest get 401). Bodies are forwarded
 * whole and hop-by-hop headers left out; a client that drops its connection drops the upstream
 * one, since resumption is what is checked through it.
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';

export interface ProxyOptions {
  tls?: { key: string; cert: string };
  /** Whether to forward a request (default: every one); a refused one is answered 401. */
  admit?: (req: http.IncomingMessage) => boolean;
}

export interface RunningProxy {
  /** The proxy's base URL (`http://127.0.0.1:PORT` or `https://...`). */
  url: string;
  close(): Promise<void>;
}

/** Starts a proxy on 127.0.0.1, port 0, forwarding to `upstream` (a base URL). */
export async function startProxy(upstream: string, options: ProxyOptions = {}): Promise<RunningProxy> {
  const target = new URL(upstream);
  const handler: http.RequestListener = (req, res) => {
    if (options.admit && !options.admit(req)) {
      res.writeHead(401, { 'www-authenticate': 'Bearer' }).end();
      return;
    }
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const headers: http.OutgoingHttpHeaders = { ...req.headers, host: target.host };
      for (const hop of ['connection', 'keep-alive', 'content-length', 'transfer-encoding']) delete headers[hop];
      if (body.length > 0) headers['content-length'] = String(body.length);
      const forwarded = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers, agent: false }, (answer) => {
        const answerHeaders = { ...answer.headers };
        delete answerHeaders.connection;
        delete answerHeaders['keep-alive'];
        res.writeHead(answer.statusCode ?? 502, answerHeaders);
        answer.pipe(res);
      });
      forwarded.on('error', () => res.destroy());
      res.on('close', () => forwarded.destroy());
      forwarded.end(body);
    });
  };
  const server = options.tls ? https.createServer(options.tls, handler) : http.createServer(handler);
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  return {
    url: `${options.tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((closed) => server.close(closed));
    },
  };
}

/** The proxy's requests to the reference server: a client's request relayed, and the DELETE that expires a session. */
import http from 'node:http';
import type { ProxyContext } from './context.js';

/** Relays the client's request (its headers less the hop-by-hop ones, and its body) to the server; resolves with the server's response. */
export async function sendUpstream(
  ctx: ProxyContext,
  req: http.IncomingMessage,
  method: string,
  body: Buffer,
): Promise<{ upstreamReq: http.ClientRequest; upstreamRes: http.IncomingMessage }> {
  const { upstream } = ctx;
  const headers: http.OutgoingHttpHeaders = { ...req.headers, host: upstream.host };
  delete headers['content-length'];
  // Hop-by-hop: a client's `Connection: close` is about its own socket, not the proxy's upstream one.
  delete headers.connection;
  delete headers['keep-alive'];
  if (body.length > 0) headers['content-length'] = String(body.length);
  const upstreamReq = http.request({ host: upstream.hostname, port: upstream.port, method, path: req.url, headers });
  ctx.upstreamRequests.add(upstreamReq);
  const upstreamRes = await new Promise<http.IncomingMessage>((resolve, reject) => {
    upstreamReq.on('response', resolve);
    upstreamReq.on('error', reject);
    upstreamReq.end(body);
  });
  return { upstreamReq, upstreamRes };
}

/** The `expire` fault: terminates `sessionId` at the server (DELETE), recorded under `exchange`; resolves once answered or failed. */
export function expireSession(ctx: ProxyContext, sessionId: string, exchange: number): Promise<void> {
  const { upstream } = ctx;
  return new Promise((resolve) => {
    ctx.record({ kind: 'fault', at: ctx.clock.tick(), exchange, fault: 'expire', detail: `DELETE session ${sessionId} at the server` });
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
}

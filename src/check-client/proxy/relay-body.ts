/** A server's answer with a body (JSON, or an error): relayed whole, after the session expired if the faults ask it. */
import type { WireEntry } from '../../../properties/client/history.js';
import type { Exchange, ProxyContext } from './context.js';
import { messagesOf } from './sse-frames.js';

/** Reads the whole body, records it, and writes it to the client. */
export async function relayBody(ctx: ProxyContext, x: Exchange): Promise<void> {
  const { upstreamRes, status, sessionId } = x;
  const parts: Buffer[] = [];
  for await (const chunk of upstreamRes) parts.push(chunk as Buffer);
  const text = Buffer.concat(parts);
  const response: WireEntry = {
    kind: 'response',
    at: ctx.clock.tick(),
    exchange: x.number,
    status,
    stream: false,
    messages: messagesOf(text.toString('utf8')),
  };
  if (sessionId !== undefined) response.sessionId = sessionId;
  ctx.record(response);
  const responseHeaders = { ...upstreamRes.headers };
  delete responseHeaders['transfer-encoding'];
  responseHeaders['content-length'] = String(text.length);
  await x.expireIfAsked();
  x.res.writeHead(status, responseHeaders);
  x.res.end(text);
  await x.finish(false);
}

/** A client's request as the proxy sees it: what faults are matched on, and its wire record. */
import type http from 'node:http';
import type { WireEntry } from '../../../properties/client/history.js';
import type { Clock } from './clock.js';
import { messagesOf } from './sse-frames.js';

/** What a fault's match looks at in a request. */
export interface RequestInfo {
  method: string;
  path: string;
  /** The JSON-RPC method of the body's first message. */
  rpc?: string;
  lastEventId?: string;
  sessionId?: string;
}

/** The request's match fields and its `request` wire entry, stamped now. */
export function readRequest(clock: Clock, exchange: number, req: http.IncomingMessage, body: Buffer): { info: RequestInfo; entry: WireEntry } {
  const target = new URL(req.url ?? '/', 'http://proxy.invalid');
  const header = (name: string): string | undefined => {
    const v = req.headers[name];
    return Array.isArray(v) ? v[0] : v;
  };
  const messages = body.length > 0 ? messagesOf(body.toString('utf8')) : [];
  const info: RequestInfo = {
    method: req.method ?? 'GET',
    path: target.pathname,
    rpc: messages[0]?.method,
    lastEventId: header('last-event-id'),
    sessionId: header('mcp-session-id'),
  };
  const entry: WireEntry = {
    kind: 'request',
    at: clock.tick(),
    exchange,
    origin: 'client',
    method: info.method,
    path: info.path,
    messages,
  };
  const querySession = target.searchParams.get('sessionId');
  if (querySession !== null) entry.querySession = querySession;
  if (info.sessionId !== undefined) entry.sessionId = info.sessionId;
  if (info.lastEventId !== undefined) entry.lastEventId = info.lastEventId;
  return { info, entry };
}

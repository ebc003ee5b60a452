/**
 * What the route handlers share: the server's state, and the few steps every route takes
 * (finding a session, turning a machine refusal into an HTTP error, answering without a stream).
 */
import type { ServerResponse } from 'node:http';
import { type Reply, replyReason } from '../../model/session-types.js';
import { machineRefusal, sessionNotFound } from './http-errors.js';
import type { JsonRpcId } from './jsonrpc.js';
import type { Mutation } from './mutation.js';
import { served, type Session } from './session.js';
import type { SessionStore } from './session-store.js';
import type { SessionView } from './tools.js';

/** The endpoint paths the server answers. */
export interface Paths {
  mcp: string;
  sse: string;
  messages: string;
}

/** State shared by every route of one server. */
export interface RouteContext {
  store: SessionStore;
  /** Per-server execution counters of `emit` and `emit_unsolicited`, by tool and label. */
  executions: Map<string, number>;
  /** The policy's name, shown in `initialize` instructions. */
  policyName: string;
  maxBodyBytes: number;
  paths: Paths;
  /** Deliberate distortions (`mutation.ts`); `noMutation` for the reference. */
  mutation: Mutation;
}

/**
 * The session with this ID.
 *
 * @throws HttpError 404 -32001 "Session not found" when the store never issued it
 */
export function lookup(context: RouteContext, sessionId: string, requestId: JsonRpcId | null = null): Session {
  const session = context.store.get(sessionId);
  if (session === undefined) throw sessionNotFound(requestId);
  return session;
}

/**
 * The session whose machine a resume presented with `session`'s ID and `cursor` goes to: `session`,
 * unless a mutation routes it elsewhere.
 */
export function resumeTarget(context: RouteContext, session: Session, cursor: string): Session {
  const { mutation } = context;
  if (mutation.routeResume === undefined) return session;
  return mutation.routeResume({ presented: session, wireCursor: cursor, owner: () => context.store.issuerOf(cursor) });
}

/**
 * @throws HttpError with the machine's status and reason when the machine refused
 */
export function requireServed(reply: Reply<unknown>, requestId: JsonRpcId | null = null): void {
  if (!served(reply)) throw machineRefusal(reply.status, replyReason(reply), requestId);
}

/** What `session_info` reads: the machine's current view of the session (capabilities as a mutation may bend them). */
export function sessionView(session: Session): SessionView {
  return { protocolVersion: session.context.protocolVersion, capabilities: session.servedCapabilities };
}

/** Answers with a status and no body (202 for notifications and legacy posts, 200 for DELETE). */
export function sendEmpty(res: ServerResponse, status: number, headers: Record<string, string> = {}): void {
  res.writeHead(status, { ...headers, 'content-length': '0' });
  res.end();
}

/** Answers with a JSON body. */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  res.end(text);
}

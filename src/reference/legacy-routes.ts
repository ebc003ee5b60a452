/**
 * Legacy HTTP+SSE: `GET /sse` opens a session and its one stream (announced by an `endpoint`
 * event); `POST /messages?sessionId=X` carries the client's messages, answered 202, with every
 * server message on the one stream. `GET /sse?sessionId=X` with `Last-Event-ID` is the
 * non-standard legacy resume the seeds assume.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { badRequest } from './http-errors.js';
import { checkSessionId, header, lastEventId, readBody, requireAccept, requireJsonContent } from './http-input.js';
import { parseMessage, requestKey, result } from './jsonrpc.js';
import { runMethod } from './methods.js';
import { initializeResult, negotiateVersion, readInitializeParams } from './protocol.js';
import { lookup, requireServed, resumeTarget, sendEmpty, sessionView, type RouteContext } from './route-context.js';
import { served } from './session.js';
import { writeSseHead } from './sse-writer.js';

/**
 * The session ID of a legacy request: `?sessionId=` (the SDK's convention), or `Mcp-Session-Id`
 * (what a client that learnt the streamable way presents); both must agree.
 */
function legacySessionId(req: IncomingMessage, url: URL, context: RouteContext): string | undefined {
  const accepts = context.mutation.acceptsSessionId;
  const query = checkSessionId(url.searchParams.get('sessionId') ?? undefined, accepts);
  const head = checkSessionId(header(req, 'mcp-session-id'), accepts);
  if (query !== undefined && head !== undefined && query !== head) {
    throw badRequest('Bad Request: the sessionId parameter and the Mcp-Session-Id header name different sessions');
  }
  return query ?? head;
}

/** `GET /sse`: a new session, or (with a session ID and `Last-Event-ID`) a legacy resume. */
export function getSse(req: IncomingMessage, res: ServerResponse, url: URL, context: RouteContext): void {
  requireAccept(req, 'text/event-stream');
  const sessionId = legacySessionId(req, url, context);
  if (sessionId === undefined) {
    // A `Last-Event-ID` without a session names nothing: like the SDK, this is a new session
    // (an EventSource reconnecting to the bare `/sse` URL sends one).
    const session = context.store.create('sse');
    const reply = session.step({ type: 'OPEN_LEGACY' });
    if (!served(reply)) session.dispose();
    requireServed(reply);
    context.store.add(session);
    writeSseHead(res);
    session.connect(res, reply, { priming: false });
    return;
  }
  const presented = lookup(context, sessionId);
  // Without a cursor nothing can be resumed; the machine still decides how to say so (a session
  // of the other transport is not found here; an unplaceable cursor is answered per policy).
  const cursor = lastEventId(req) ?? '';
  const session = resumeTarget(context, presented, cursor);
  const reply = session.step({ type: 'RESUME', transport: 'sse', lastEventId: cursor });
  requireServed(reply);
  writeSseHead(res);
  session.connect(res, reply, { priming: false });
  session.flush();
  session.reconcile();
}

/** `POST /messages?sessionId=X`: one client message for the session, answered 202 when served. */
export async function postMessages(req: IncomingMessage, res: ServerResponse, url: URL, context: RouteContext): Promise<void> {
  requireJsonContent(req);
  const sessionId = legacySessionId(req, url, context);
  if (sessionId === undefined) throw badRequest('Bad Request: the sessionId query parameter is required');
  const incoming = parseMessage(await readBody(req, context.maxBodyBytes));
  const requestId = incoming.kind === 'request' ? incoming.message.id : null;
  const session = lookup(context, sessionId, requestId);

  if (incoming.kind !== 'request') {
    const reply = session.step({ type: 'NOTIFY', transport: 'sse' });
    requireServed(reply);
    sendEmpty(res, reply.status);
    return;
  }

  const request = incoming.message;
  if (request.method === 'initialize') {
    const params = readInitializeParams(request);
    const protocolVersion = negotiateVersion('sse', params.protocolVersion);
    const reply = session.step({ type: 'INITIALIZE', transport: 'sse', protocolVersion, capabilities: params.capabilities });
    requireServed(reply, request.id);
    // INITIALIZE queues nothing, yet under legacy SSE the InitializeResult travels on the one
    // stream like every response: it goes there as the messages of a REQUEST, so it is in the
    // session's log with an event ID like any other frame.
    const queued = session.step({
      type: 'REQUEST',
      transport: 'sse',
      requestId: requestKey(request.id),
      messages: [result(request.id, initializeResult(protocolVersion, context.policyName))],
    });
    requireServed(queued, request.id);
    sendEmpty(res, reply.status);
    session.flush();
    session.reconcile();
    return;
  }

  const outcome = runMethod(request, context.executions, sessionView(session));
  const reply = session.step({
    type: 'REQUEST',
    transport: 'sse',
    requestId: requestKey(request.id),
    messages: outcome.messages,
    unrelated: outcome.unrelated,
  });
  requireServed(reply, request.id);
  outcome.commit();
  sendEmpty(res, reply.status);
  session.flush();
  session.reconcile();
}

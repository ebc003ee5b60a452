/**
 * Streamable HTTP at `/mcp`: POST (initialize, requests, notifications), GET (the standalone stream,
 * or a resume with `Last-Event-ID`) and DELETE. Each handler validates the request, computes what
 * MCP needs computed, sends the session machine one event and writes what its reply says.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ErrorCode, HttpError, badRequest } from './http-errors.js';
import { checkSessionId, header, headerProtocolVersion, lastEventId, readBody, requireAccept, requireJsonContent } from './http-input.js';
import { parseMessage, requestKey, result, type JsonRpcRequest } from './jsonrpc.js';
import { runMethod } from './methods.js';
import { initializeResult, negotiateVersion, readInitializeParams, wantsPriming } from './protocol.js';
import { lookup, requireServed, resumeTarget, sendEmpty, sendJson, sessionView, type RouteContext } from './route-context.js';
import { served, type Session } from './session.js';
import { writeSseHead } from './sse-writer.js';

/** Handles one request at the streamable endpoint. */
export async function handleStreamable(req: IncomingMessage, res: ServerResponse, context: RouteContext): Promise<void> {
  switch (req.method) {
    case 'POST':
      return post(req, res, context);
    case 'GET':
      return get(req, res, context);
    case 'DELETE':
      return remove(req, res, context);
    default:
      throw new HttpError(405, ErrorCode.ServerError, 'Method Not Allowed', null, { allow: 'GET, POST, DELETE' });
  }
}

function requireSessionHeader(req: IncomingMessage, context: RouteContext, requestId: JsonRpcRequest['id'] | null = null): string {
  const sessionId = checkSessionId(header(req, 'mcp-session-id'), context.mutation.acceptsSessionId);
  if (sessionId === undefined) throw badRequest('Bad Request: Mcp-Session-Id header is required', ErrorCode.ServerError, requestId);
  return sessionId;
}

async function post(req: IncomingMessage, res: ServerResponse, context: RouteContext): Promise<void> {
  requireAccept(req, 'application/json', 'text/event-stream');
  requireJsonContent(req);
  const presented = checkSessionId(header(req, 'mcp-session-id'), context.mutation.acceptsSessionId);
  const incoming = parseMessage(await readBody(req, context.maxBodyBytes));

  if (incoming.kind === 'request' && incoming.message.method === 'initialize') {
    initialize(res, context, incoming.message, presented);
    return;
  }
  const requestId = incoming.kind === 'request' ? incoming.message.id : null;
  const sessionId = requireSessionHeader(req, context, requestId);
  const version = headerProtocolVersion(req);
  const session = lookup(context, sessionId, requestId);

  if (incoming.kind !== 'request') {
    const reply = session.step({ type: 'NOTIFY', transport: 'streamable' });
    requireServed(reply);
    sendEmpty(res, reply.status);
    return;
  }

  const request = incoming.message;
  const outcome = runMethod(request, context.executions, sessionView(session));
  const reply = session.step({
    type: 'REQUEST',
    transport: 'streamable',
    requestId: requestKey(request.id),
    messages: outcome.messages,
    unrelated: outcome.unrelated,
  });
  requireServed(reply, request.id);
  outcome.commit();
  writeSseHead(res, { 'mcp-session-id': session.id });
  session.connect(res, reply, { priming: wantsPriming(version) });
  session.flush();
  session.reconcile();
}

/**
 * `initialize`: a new session (no session header), answered as JSON with its ID. With a session
 * header the event goes to that session's machine, which refuses a second initialize.
 */
function initialize(res: ServerResponse, context: RouteContext, request: JsonRpcRequest, presented: string | undefined): void {
  const params = readInitializeParams(request);
  const protocolVersion = negotiateVersion('streamable', params.protocolVersion);
  const event = { type: 'INITIALIZE', transport: 'streamable', protocolVersion, capabilities: params.capabilities } as const;

  let session: Session;
  if (presented !== undefined) {
    session = lookup(context, presented, request.id);
    requireServed(session.step(event), request.id);
  } else {
    session = context.store.create('streamable');
    const reply = session.step(event);
    if (!served(reply)) session.dispose();
    requireServed(reply, request.id);
    context.store.add(session);
  }
  sendJson(res, 200, result(request.id, initializeResult(protocolVersion, context.policyName)), { 'mcp-session-id': session.id });
}

async function get(req: IncomingMessage, res: ServerResponse, context: RouteContext): Promise<void> {
  requireAccept(req, 'text/event-stream');
  const sessionId = requireSessionHeader(req, context);
  const version = headerProtocolVersion(req);
  const presented = lookup(context, sessionId);
  const cursor = lastEventId(req);
  const session = cursor === undefined ? presented : resumeTarget(context, presented, cursor);
  const reply = session.step(
    cursor === undefined ? { type: 'OPEN_STANDALONE', transport: 'streamable' } : { type: 'RESUME', transport: 'streamable', lastEventId: cursor },
  );
  requireServed(reply);
  writeSseHead(res, { 'mcp-session-id': presented.id });
  session.connect(res, reply, { priming: wantsPriming(version) });
  session.flush();
  session.reconcile();
}

async function remove(req: IncomingMessage, res: ServerResponse, context: RouteContext): Promise<void> {
  const sessionId = requireSessionHeader(req, context);
  headerProtocolVersion(req);
  const session = lookup(context, sessionId);
  const reply = session.step({ type: 'DELETE', transport: 'streamable' });
  requireServed(reply);
  session.reconcile();
  sendEmpty(res, reply.status);
}

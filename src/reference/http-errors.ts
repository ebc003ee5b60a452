/**
 * HTTP refusals with a JSON-RPC error body. Every answer the reference server gives to bad input,
 * an unknown session or a machine refusal goes through {@link HttpError}, so that a client always
 * gets a status it can act on and a body it can show.
 */
import type { ServerResponse } from 'node:http';
import type { JsonRpcId } from './jsonrpc-types.js';

/** JSON-RPC error codes the server uses (the -32000 range is "server error", MCP's convention). */
export const ErrorCode = {
  ParseError: -32700,
  InvalidRequest: -32600,
  MethodNotFound: -32601,
  InvalidParams: -32602,
  InternalError: -32603,
  /** The SDK's generic transport error. */
  ServerError: -32000,
  /** The SDK's convention for "Session not found" (HTTP 404). */
  SessionNotFound: -32001,
} as const;

/** A refusal: the HTTP status, the JSON-RPC error it carries, and any extra headers (e.g. `Allow`). */
export class HttpError extends Error {
  override name = 'HttpError';
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
    readonly id: JsonRpcId | null = null,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
  }

  /** The JSON-RPC error body. */
  body(): { jsonrpc: '2.0'; error: { code: number; message: string }; id: JsonRpcId | null } {
    return { jsonrpc: '2.0', error: { code: this.code, message: this.message }, id: this.id };
  }
}

/** 400 with a JSON-RPC code (default: the generic server error). */
export function badRequest(message: string, code: number = ErrorCode.ServerError, id: JsonRpcId | null = null): HttpError {
  return new HttpError(400, code, message, id);
}

/** 404 for a session ID the store has never issued: the body the SDK and its clients know. */
export function sessionNotFound(id: JsonRpcId | null = null): HttpError {
  return new HttpError(404, ErrorCode.SessionNotFound, 'Session not found', id);
}

/**
 * A refusal the session machine decided: its status and its reason, verbatim. 404s use the
 * session-not-found code so a client that keys on it re-initializes.
 */
export function machineRefusal(status: number, reason: string | undefined, id: JsonRpcId | null = null): HttpError {
  const code = status === 404 ? ErrorCode.SessionNotFound : ErrorCode.ServerError;
  return new HttpError(status, code, reason ?? `refused with status ${status}`, id);
}

/**
 * Writes `error` as the whole response. When headers are already out (a stream was opened), the
 * status can no longer change, so the response is just ended.
 */
export function sendError(res: ServerResponse, error: HttpError): void {
  if (res.headersSent) {
    if (!res.writableEnded) res.end();
    return;
  }
  const text = JSON.stringify(error.body());
  res.writeHead(error.status, {
    ...error.headers,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

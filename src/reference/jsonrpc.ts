/**
 * JSON-RPC 2.0 as the reference server reads and writes it: one message per POST (MCP dropped
 * batches in 2025-06-18, and a batch would need one machine event per member), validated before
 * anything else looks at it.
 */
import { ErrorCode, type HttpError, badRequest } from './http-errors.js';
import type { JsonRpcId, JsonObject, JsonRpcRequest, JsonRpcNotification, JsonRpcResponse, Incoming } from './jsonrpc-types.js';

export type { JsonRpcId, JsonObject, JsonRpcRequest, JsonRpcNotification, JsonRpcResponse, JsonRpcMessage, Incoming } from './jsonrpc-types.js';

export function isObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/**
 * Parses a POST body into one validated message.
 *
 * @throws HttpError 400 -32700 when the body is not JSON, 400 -32600 for a batch or a value that is
 *   not a JSON-RPC 2.0 request, notification or response
 */
export function parseMessage(body: string): Incoming {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    throw badRequest(`Parse error: ${(error as Error).message}`, ErrorCode.ParseError);
  }
  if (Array.isArray(value)) throw badRequest('Invalid Request: batches are not supported', ErrorCode.InvalidRequest);
  if (!isObject(value)) throw badRequest('Invalid Request: not a JSON object', ErrorCode.InvalidRequest);
  const readableId = isId(value.id) ? value.id : null;
  const invalid = (why: string): HttpError => badRequest(`Invalid Request: ${why}`, ErrorCode.InvalidRequest, readableId);
  if (value.jsonrpc !== '2.0') throw invalid('jsonrpc must be "2.0"');

  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method === '') throw invalid('method must be a non-empty string');
    if ('params' in value && !isObject(value.params)) throw invalid('params must be an object');
    if ('result' in value || 'error' in value) throw invalid('a request carries no result or error');
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isId(value.id)) throw invalid('id must be a string or a number');
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }

  if (!('id' in value) || (value.id !== null && !isId(value.id))) throw invalid('a response needs an id');
  if ('result' in value === 'error' in value) throw invalid('a response carries exactly one of result and error');
  if ('error' in value) {
    const e = value.error;
    if (!isObject(e) || typeof e.code !== 'number' || typeof e.message !== 'string') throw invalid('error must be {code, message}');
  }
  return { kind: 'response', message: value as unknown as JsonRpcResponse };
}

/** A result response. */
export function result(id: JsonRpcId, value: unknown): JsonRpcResponse {
  return { jsonrpc: '2.0', id, result: value };
}

/** An error response. */
export function errorResponse(id: JsonRpcId | null, code: number, message: string): JsonRpcResponse {
  return { jsonrpc: '2.0', id, error: { code, message } };
}

/** A notification. */
export function notification(method: string, params?: JsonObject): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

/**
 * The string the session machine keys a request stream by: the ID's JSON form, so that the
 * number 1 and the string "1" (distinct JSON-RPC IDs) stay distinct.
 */
export function requestKey(id: JsonRpcId): string {
  return JSON.stringify(id);
}

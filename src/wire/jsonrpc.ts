/** Small JSON-RPC 2.0 helpers; messages from the wire are never trusted to be well formed. */
import type { JsonRpcMessage } from '../../properties/history.js';
import { isObject, isResponseTo } from '../../properties/messages.js';

export { isResponseTo, toolText } from '../../properties/messages.js';

/** A JSON-RPC request or notification to send. */
export interface OutgoingMessage {
  jsonrpc: '2.0';
  id?: number | string;
  method: string;
  params?: unknown;
}

/** Builds a request (with `id`) or a notification (without). */
export function message(method: string, params: unknown, id?: number | string): OutgoingMessage {
  const m: OutgoingMessage = { jsonrpc: '2.0', method };
  if (id !== undefined) m.id = id;
  if (params !== undefined) m.params = params;
  return m;
}

/** Finds the response to `id` in a parsed JSON body (one message or a batch). */
export function findResponse(json: unknown, id: number | string): JsonRpcMessage | undefined {
  if (Array.isArray(json)) {
    for (const m of json) if (isObject(m) && isResponseTo(m as JsonRpcMessage, id)) return m as JsonRpcMessage;
    return undefined;
  }
  return isObject(json) && isResponseTo(json as JsonRpcMessage, id) ? (json as JsonRpcMessage) : undefined;
}
